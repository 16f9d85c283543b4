// How the chat list is grouped (issue 27): pinned chats first, then the
// folders (each with its chats, shown even when empty so a chat can be
// dropped in), then the other chats by recency — today, yesterday, the last
// 7 days, older. Archived chats are only in the Archived view.
import type { Folder, Place } from '@/api/organise'
import type { Session } from '@/api/types'
import { timeValue } from './time'

export type SectionKind = 'pinned' | 'folder' | 'today' | 'yesterday' | 'week' | 'older' | 'archived'

export interface Section {
  key: string
  kind: SectionKind
  /** The folder of a 'folder' section. */
  folder?: Folder
  sessions: Session[]
}

const DAY = 24 * 60 * 60 * 1000

function startOfDay(d: Date): number {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime()
}

/** The recency group of a time, in the local zone. */
export function recency(iso: string, now: Date): 'today' | 'yesterday' | 'week' | 'older' {
  const t = timeValue(iso)
  const today = startOfDay(now)
  if (t >= today) return 'today'
  if (t >= today - DAY) return 'yesterday'
  if (t >= today - 6 * DAY) return 'week'
  return 'older'
}

/**
 * Groups `sessions` (already most recent first) into the list's sections.
 * A pinned chat shows under Pinned only, whatever its folder; an archived
 * one only in the Archived view (`archived` true), where the list is flat.
 */
export function groupSessions(
  sessions: Session[], places: Record<string, Place>, folders: Folder[], now: Date, archived = false,
): Section[] {
  const place = (id: string): Place => places[id] ?? { pinnedAt: '', folderId: 0, archivedAt: '' }
  if (archived) {
    const list = sessions.filter((s) => place(s.id).archivedAt)
    return list.length ? [{ key: 'archived', kind: 'archived', sessions: list }] : []
  }
  const live = sessions.filter((s) => !place(s.id).archivedAt)
  const pinned = live
    .filter((s) => place(s.id).pinnedAt)
    .sort((a, b) => timeValue(place(b.id).pinnedAt) - timeValue(place(a.id).pinnedAt))
  const out: Section[] = []
  if (pinned.length) out.push({ key: 'pinned', kind: 'pinned', sessions: pinned })
  const known = new Set(folders.map((f) => f.id))
  for (const f of [...folders].sort((a, b) => a.position - b.position || a.id - b.id)) {
    out.push({ key: `folder-${f.id}`, kind: 'folder', folder: f, sessions: live.filter((s) => !place(s.id).pinnedAt && place(s.id).folderId === f.id) })
  }
  const top = live.filter((s) => !place(s.id).pinnedAt && (!place(s.id).folderId || !known.has(place(s.id).folderId)))
  for (const kind of ['today', 'yesterday', 'week', 'older'] as const) {
    const list = top.filter((s) => recency(s.updatedAt, now) === kind)
    if (list.length) out.push({ key: kind, kind, sessions: list })
  }
  return out
}

/** How many chats are archived. */
export function archivedCount(sessions: Session[], places: Record<string, Place>): number {
  return sessions.filter((s) => places[s.id]?.archivedAt).length
}

/** The chat the window opens by itself at start: the newest one not archived (sessions newest first); null when none. */
export function firstToOpen(sessions: Session[], places: Record<string, Place>): Session | null {
  return sessions.find((s) => !places[s.id]?.archivedAt) ?? null
}
