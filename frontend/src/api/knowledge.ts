import * as KnowledgeService from '../../wailsjs/go/app/KnowledgeService'
import type { app } from '../../wailsjs/go/models'
import { call } from './errors'
import type { Source } from './types'

/** One learned-knowledge entry (app.KnowledgeEntry): what a web search taught. */
export interface KnowledgeEntry extends Omit<app.KnowledgeEntry, 'sources' | 'summarised' | 'convertValues'> {
  sources: Source[]
  /** False for an entry saved from the search results themselves (the model's summary could not be used). */
  summarised: boolean
}

function normalise(e: app.KnowledgeEntry): KnowledgeEntry {
  return {
    id: e.id, query: e.query ?? '', heading: e.heading ?? '', body: e.body ?? '', model: e.model ?? '',
    provider: e.provider ?? '', file: e.file ?? '', fetchedAt: e.fetchedAt ?? '', createdAt: e.createdAt ?? '',
    // Absent (an older backend) means summarised, as every entry used to be.
    summarised: e.summarised ?? true,
    sources: (e.sources ?? []).map((s) => ({ title: s.title ?? '', url: s.url ?? '' })),
  }
}

/** Entries holding every word of `query` ("" = all), newest first, without sources. */
export const list = async (query = ''): Promise<KnowledgeEntry[]> =>
  ((await call(() => KnowledgeService.List(query))) ?? []).map(normalise)

/** One entry with its sources. */
export const get = async (id: number): Promise<KnowledgeEntry> => normalise(await call(() => KnowledgeService.Get(id)))

/** Deletes the entry and its Markdown file. */
export const remove = (id: number): Promise<void> => call(() => KnowledgeService.Delete(id))

/** Searches the entry's query again and re-summarises it, keeping its id. */
export const refresh = async (id: number): Promise<KnowledgeEntry> => normalise(await call(() => KnowledgeService.Refresh(id)))

/** Has the model summarise an entry saved unsummarised, without searching again. */
export const summarize = async (id: number): Promise<KnowledgeEntry> =>
  normalise(await call(() => KnowledgeService.Summarize(id)))
