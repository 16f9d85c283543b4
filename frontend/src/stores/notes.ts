// The shared notes: pages in tab order, the open page, unsaved drafts, and
// the pages pinned to the open chat (sent in full to the model). A new chat
// has no session yet: its pins wait in `pendingPins` and go with its first
// message (SendRequest.notePageIds); the chat store hands them over.
import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import * as api from '@/api/notes'
import type { NotePage } from '@/api/types'
import { mergeNote, resolveConflicts, withConflictMarkers, type ConflictChoice, type MergeChunk } from '@/utils/noteMerge'
import { computeDrop, groupPages, sectionNames, type DropTarget } from '@/utils/noteOrder'
import { persistedDrafts } from '@/utils/draftPersist'
import { useSessionStore } from './sessions'
import { useToastStore } from './toasts'

/** Unsaved text of a page, and the saved text (and its version) it started from. */
export interface NoteDraft {
  content: string
  base: string
  baseVersion: number
}

/** Where older versions kept unsaved note edits ({pageId: NoteDraft}): taken over once. */
export const NOTE_DRAFTS_KEY = 'playchat.noteDrafts.v1'

function isDraftRecord(v: unknown): v is Record<number, NoteDraft> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false
  return Object.entries(v).every(
    ([k, d]) =>
      Number.isInteger(Number(k)) &&
      !!d &&
      typeof d === 'object' &&
      typeof (d as NoteDraft).content === 'string' &&
      typeof (d as NoteDraft).base === 'string' &&
      typeof (d as NoteDraft).baseVersion === 'number',
  )
}

/**
 * A save that could not merge by itself: the page changed since the draft
 * began and both changed the same lines. Nothing was written; the page keeps
 * the other change (`theirs`) and the draft keeps mine until the user chooses.
 */
export interface NoteConflict {
  /** The merge: agreed lines and conflicting blocks with both sides. */
  chunks: MergeChunk[]
  /** The page as saved now (the other change), and its version. */
  theirs: NotePage
}

/**
 * What a save did: nothing to save, saved as is, saved after merging a change
 * made meanwhile, stopped at a conflict for the user to settle, or skipped
 * because a save of that page is already running.
 */
export type SaveOutcome = 'none' | 'saved' | 'merged' | 'conflict' | 'busy'

/** How a conflict is settled: a side (or both) for every block, or by hand. */
export type ConflictResolution = ConflictChoice | 'edit'

/** How many times a save merges and retries while the page keeps changing. */
export const MAX_SAVE_ATTEMPTS = 3

export const useNotesStore = defineStore('notes', () => {
  const sessions = useSessionStore()
  const toasts = useToastStore()

  const pages = ref<NotePage[]>([])
  /** True once the panel has loaded the pages (refreshes only happen after that). */
  const loaded = ref(false)
  const loading = ref(false)
  /** The page open in the editor. */
  const currentId = ref<number | null>(null)
  // Unsaved edits survive quitting, kept in the data dir
  // (utils/draftPersist.ts); setPages drops those of pages that are gone or
  // already hold the same text.
  const drafts = ref<Record<number, NoteDraft>>({})
  const draftWriter = persistedDrafts(
    'notes',
    NOTE_DRAFTS_KEY,
    isDraftRecord,
    (saved) => {
      const merged: Record<number, NoteDraft> = { ...saved }
      for (const [k, d] of Object.entries(drafts.value)) merged[Number(k)] = d // edits made meanwhile win
      // The pages may be in already: a draft of a page that is gone, or
      // that holds the same text, is not brought back.
      if (loaded.value) {
        for (const [k, d] of Object.entries(merged)) {
          const p = pages.value.find((x) => x.id === Number(k))
          if (!p || p.content === d.content) delete merged[Number(k)]
        }
      }
      drafts.value = merged
    },
    () => drafts.value,
  )
  watch(drafts, () => draftWriter())
  /** Saves that stopped at a conflict, by page id. */
  const conflicts = ref<Record<number, NoteConflict>>({})
  /** Pages whose save is running. */
  const savingIds = ref<number[]>([])
  /** Pins of session `pinsSession` (the open chat once loaded). */
  const pins = ref<number[]>([])
  const pinsSession = ref<string | null>(null)
  /** Pins chosen in a new chat, sent with its first message. */
  const pendingPins = ref<number[]>([])

  const byId = (id: number) => pages.value.find((p) => p.id === id) ?? null
  const currentPage = computed(() => (currentId.value === null ? null : byId(currentId.value)))
  const groups = computed(() => groupPages(pages.value))
  const sections = computed(() => sectionNames(pages.value))
  /** The pages pinned to the open chat (a new chat: the pending ones). */
  const pinnedIds = computed<number[]>(() => {
    const sid = sessions.currentId
    if (!sid) return pendingPins.value
    return pinsSession.value === sid ? pins.value : []
  })
  const isPinned = (id: number) => pinnedIds.value.includes(id)

  /** True when the page has edits that are not saved. */
  function isDirty(id: number): boolean {
    const d = drafts.value[id]
    const p = byId(id)
    return !!d && !!p && d.content !== p.content
  }
  /** True when the saved page changed (e.g. the AI wrote it) after the draft began. */
  function hasConflict(id: number): boolean {
    const d = drafts.value[id]
    const p = byId(id)
    return !!d && !!p && isDirty(id) && p.content !== d.base
  }
  const dirtyIds = computed(() => pages.value.filter((p) => isDirty(p.id)).map((p) => p.id))
  /** The conflict a save of the page stopped at, if any. */
  const conflictOf = (id: number): NoteConflict | null => conflicts.value[id] ?? null
  const isSaving = (id: number): boolean => savingIds.value.includes(id)

  /** The text the editor shows: the draft, else the saved content. */
  const textOf = (id: number): string => drafts.value[id]?.content ?? byId(id)?.content ?? ''

  function setPages(list: NotePage[]) {
    pages.value = list
    const ids = new Set(list.map((p) => p.id))
    if (currentId.value === null || !ids.has(currentId.value)) {
      currentId.value = list.length > 0 ? list[0].id : null
    }
    const kept: Record<number, NoteDraft> = {}
    for (const [k, d] of Object.entries(drafts.value)) {
      const p = list.find((x) => x.id === Number(k))
      if (p && d.content !== p.content) kept[p.id] = d
    }
    drafts.value = kept
    const open: Record<number, NoteConflict> = {}
    for (const [k, c] of Object.entries(conflicts.value)) if (kept[Number(k)]) open[Number(k)] = c
    conflicts.value = open
    pins.value = pins.value.filter((id) => ids.has(id))
    pendingPins.value = pendingPins.value.filter((id) => ids.has(id))
  }

  function replacePage(p: NotePage) {
    setPages(pages.value.map((x) => (x.id === p.id ? p : x)))
  }

  let pagesSeq = 0
  async function reloadPages() {
    const seq = ++pagesSeq
    const list = await api.list()
    if (seq === pagesSeq) setPages(list)
  }

  async function loadPins() {
    const sid = sessions.currentId
    if (!sid) return
    const ids = await api.pins(sid)
    if (sessions.currentId === sid) {
      pins.value = ids.filter((id) => pages.value.some((p) => p.id === id))
      pinsSession.value = sid
    }
  }

  /** Loads the pages and the open chat's pins (the panel calls it when it opens). */
  async function load() {
    loading.value = true
    try {
      await reloadPages()
      loaded.value = true
      await loadPins()
    } finally {
      loading.value = false
    }
  }

  /** A turn reported notes_updated: the AI changed a page. */
  async function onNotesUpdated() {
    if (!loaded.value) return
    try {
      await reloadPages()
    } catch (e) {
      toasts.error(e)
    }
  }

  // Another chat: its own pins.
  watch(
    () => sessions.currentId,
    (id) => {
      if (loaded.value && id && pinsSession.value !== id) loadPins().catch((e) => toasts.error(e))
    },
  )

  function select(id: number) {
    if (byId(id)) currentId.value = id
  }

  function setDraft(id: number, content: string) {
    const p = byId(id)
    if (!p) return
    const next = { ...drafts.value }
    if (content === p.content) delete next[id]
    else {
      const d = drafts.value[id]
      next[id] = d ? { ...d, content } : { content, base: p.content, baseVersion: p.version }
    }
    drafts.value = next
  }

  function clearConflict(id: number) {
    if (!conflicts.value[id]) return
    const next = { ...conflicts.value }
    delete next[id]
    conflicts.value = next
  }

  function discardDraft(id: number) {
    const next = { ...drafts.value }
    delete next[id]
    drafts.value = next
    clearConflict(id)
  }

  /**
   * Saves the page's draft against the version it started from. When the
   * page changed meanwhile (the AI appended, another window saved), the draft
   * and that change are merged three-way and the merge is saved: both are
   * kept. When they changed the same lines nothing is saved, the page keeps
   * the other change, and the conflict waits for resolveConflict.
   */
  async function save(id: number): Promise<SaveOutcome> {
    const p = byId(id)
    const d = drafts.value[id]
    if (!p || !d || !isDirty(id)) return 'none'
    if (conflicts.value[id]) return 'conflict'
    if (isSaving(id)) return 'busy'
    savingIds.value = [...savingIds.value, id]
    try {
      return await saveDraft(id, p, d)
    } finally {
      savingIds.value = savingIds.value.filter((x) => x !== id)
    }
  }

  async function saveDraft(id: number, page: NotePage, draft: NoteDraft): Promise<SaveOutcome> {
    const sent = draft.content
    let mine = draft.content
    let base = draft.base
    let baseVersion = draft.baseVersion
    let current = page
    let merged = false
    for (let attempt = 0; attempt <= MAX_SAVE_ATTEMPTS; attempt++) {
      if (current.version !== baseVersion) {
        // The page moved on since `base`: bring its change into the draft.
        const m = mergeNote(base, mine, current.content)
        if (!m.clean) {
          conflicts.value = { ...conflicts.value, [id]: { chunks: m.chunks, theirs: current } }
          return 'conflict'
        }
        merged ||= current.content !== base
        mine = m.text
        base = current.content
        baseVersion = current.version
        if (mine === current.content) {
          settle(id, sent, current, baseVersion)
          return merged ? 'merged' : 'saved'
        }
      }
      if (attempt === MAX_SAVE_ATTEMPTS) break
      const res = await api.update(id, current.title, mine, baseVersion)
      if (res.saved) {
        settle(id, sent, res.page, baseVersion)
        return merged ? 'merged' : 'saved'
      }
      current = res.page
      replacePage(current)
    }
    throw new Error(`note page ${id} kept changing while it was being saved; nothing was saved, the draft is kept`)
  }

  /**
   * After a save wrote `saved` (or found the merge already stored): the draft
   * is done, unless it was typed on during the save; then it stays, based on
   * what was sent, so the next save merges it with `saved`.
   */
  function settle(id: number, sent: string, saved: NotePage, sentVersion: number) {
    const d = drafts.value[id]
    if (d && d.content !== sent) {
      const base = saved.content === sent ? { base: saved.content, baseVersion: saved.version } : { base: sent, baseVersion: sentVersion }
      drafts.value = { ...drafts.value, [id]: { content: d.content, ...base } }
    } else if (d) {
      discardDraft(id)
    }
    replacePage(saved)
  }

  /**
   * Settles a conflict: my lines, theirs, or both in every conflicting block
   * (what merged cleanly is kept either way) and saves that; or 'edit' puts
   * the merge with conflict blocks between marker lines into the draft, to
   * finish by hand and save. `labels` name the sides in the markers.
   */
  async function resolveConflict(
    id: number,
    how: ConflictResolution,
    labels = { mine: 'mine', theirs: 'saved' },
  ): Promise<SaveOutcome> {
    const c = conflicts.value[id]
    if (!c) return 'none'
    const text = how === 'edit' ? withConflictMarkers(c.chunks, labels) : resolveConflicts(c.chunks, how)
    clearConflict(id)
    const next = { ...drafts.value }
    if (text === c.theirs.content) delete next[id]
    else next[id] = { content: text, base: c.theirs.content, baseVersion: c.theirs.version }
    drafts.value = next
    // 'edit' waits for the user's save; a draft equal to the page needs none.
    if (how === 'edit' || !next[id]) return 'none'
    return save(id)
  }

  async function create(title: string, section: string, content = ''): Promise<NotePage> {
    const p = await api.create(title.trim(), content, section.trim())
    await reloadPages()
    currentId.value = p.id
    return p
  }

  /** Renames a page; its unsaved draft stays a draft. */
  async function rename(id: number, title: string) {
    if (!byId(id)) return
    replacePage(await api.rename(id, title.trim()))
  }

  async function remove(id: number) {
    await api.remove(id)
    discardDraft(id)
    await reloadPages()
  }

  async function setSection(id: number, section: string) {
    await api.setSection(id, section.trim())
    await reloadPages()
  }

  async function renameSection(from: string, to: string) {
    await api.renameSection(from, to.trim())
    await reloadPages()
  }

  /**
   * Applies a drag and drop with one Reorder call. The tabs move at once and
   * move back if the backend refuses. False when the drop changes nothing.
   */
  async function drop(draggedId: number, target: DropTarget): Promise<boolean> {
    const result = computeDrop(pages.value, draggedId, target)
    if (!result) return false
    const before = pages.value
    const index = new Map(before.map((p) => [p.id, p]))
    pages.value = result.order.map((id) => {
      const p = index.get(id)!
      return id === draggedId ? { ...p, section: result.section } : p
    })
    try {
      setPages(await api.reorder(draggedId, result.section, result.order))
    } catch (e) {
      pages.value = before
      throw e
    }
    return true
  }

  /** Pins or unpins a page for the open chat (a new chat: until its first message). */
  async function togglePin(id: number) {
    const sid = sessions.currentId
    const before = pinnedIds.value
    const next = before.includes(id) ? before.filter((x) => x !== id) : [...before, id]
    if (!sid) {
      pendingPins.value = next
      return
    }
    pins.value = next
    pinsSession.value = sid
    try {
      await api.setPins(sid, next)
    } catch (e) {
      if (pinsSession.value === sid) pins.value = before
      throw e
    }
  }

  /** The pins a new chat's first message carries. */
  const pinsForNewChat = (): number[] => [...pendingPins.value]

  /** A new chat's first turn created `sessionId` with `sent` pinned server-side. */
  function adoptPendingPins(sessionId: string, sent: number[]) {
    pendingPins.value = pendingPins.value.filter((id) => !sent.includes(id))
    if (sessions.currentId === null || sessions.currentId === sessionId) {
      pins.value = [...sent]
      pinsSession.value = sessionId
    }
  }

  return {
    pages, loaded, loading, currentId, drafts, conflicts, savingIds, pins, pinsSession, pendingPins,
    currentPage, groups, sections, pinnedIds, dirtyIds,
    isPinned, isDirty, hasConflict, conflictOf, isSaving, textOf,
    load, reloadPages, onNotesUpdated, select, setDraft, discardDraft, save, resolveConflict,
    create, rename, remove, setSection, renameSection, drop, togglePin,
    pinsForNewChat, adoptPendingPins,
  }
})
