// Search across every chat's messages (SessionService.Search).
import * as Sessions from '../../wailsjs/go/app/SessionService'
import type { app } from '../../wailsjs/go/models'
import { call } from './errors'

/** A piece of a hit's excerpt; `match` marks the words searched for. Render as text, never HTML. */
export type ExcerptPart = app.ExcerptPart
/** One message found: its session, id, role, time (RFC 3339, UTC) and excerpt. */
export interface SearchHit extends Omit<app.SearchHit, 'convertValues' | 'excerpt'> {
  excerpt: ExcerptPart[]
}
/** A query: every word must occur; sessionId "" = every chat; from/to RFC 3339, [from, to). */
export type SearchRequest = app.SearchRequest

/** Hits, the most recently stored first; [] for a query without a word. */
export const search = (req: SearchRequest): Promise<SearchHit[]> =>
  call(async () => (await Sessions.Search(req as app.SearchRequest)) ?? [])

/**
 * Indexes messages stored since the last search in the background (the
 * search dialog calls it on opening, so the first query answers at once).
 */
export const prepare = (): Promise<void> => call(() => Sessions.PrepareSearch())

/**
 * The [from, to) bounds of a range of local days picked in date inputs
 * ("YYYY-MM-DD", "" = open), as UTC RFC 3339 times: from the first day's
 * local midnight to the midnight after the last day.
 */
export function dayRange(fromDay: string, toDay: string): { from: string; to: string } {
  const midnight = (day: string, add: number): string => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
    if (!m) return ''
    return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + add).toISOString()
  }
  return { from: midnight(fromDay, 0), to: midnight(toDay, 1) }
}
