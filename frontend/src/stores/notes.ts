// The shared notes: pages in tab order, the open page, unsaved drafts, and
// the pages pinned to the open chat (sent in full to the model). A new chat
// has no session yet: its pins wait in `pendingPins` and go with its first
// message (SendRequest.notePageIds); the chat store hands them over.
import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import * as api from '@/api/notes'
import type { NotePage } from '@/api/types'
import { computeDrop, groupPages, sectionNames, type DropTarget } from '@/utils/noteOrder'
import { useSessionStore } from './sessions'
import { useToastStore } from './toasts'

/** Unsaved text of a page, and the saved text it started from. */
export interface NoteDraft {
  content: string
  base: string
}

export const useNotesStore = defineStore('notes', () => {
  const sessions = useSessionStore()
  const toasts = useToastStore()

  const pages = ref<NotePage[]>([])
  /** True once the panel has loaded the pages (refreshes only happen after that). */
  const loaded = ref(false)
  const loading = ref(false)
  /** The page open in the editor. */
  const currentId = ref<number | null>(null)
  const drafts = ref<Record<number, NoteDraft>>({})
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
    else next[id] = { content, base: drafts.value[id]?.base ?? p.content }
    drafts.value = next
  }

  function discardDraft(id: number) {
    const next = { ...drafts.value }
    delete next[id]
    drafts.value = next
  }

  /** Saves the page's draft; does nothing without unsaved edits. */
  async function save(id: number) {
    const p = byId(id)
    const d = drafts.value[id]
    if (!p || !d || !isDirty(id)) return
    const content = d.content
    const saved = await api.update(id, p.title, content)
    if (drafts.value[id]?.content === content) discardDraft(id)
    else if (drafts.value[id]) drafts.value = { ...drafts.value, [id]: { ...drafts.value[id], base: saved.content } }
    replacePage(saved)
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
    pages, loaded, loading, currentId, drafts, pins, pinsSession, pendingPins,
    currentPage, groups, sections, pinnedIds, dirtyIds,
    isPinned, isDirty, hasConflict, textOf,
    load, reloadPages, onNotesUpdated, select, setDraft, discardDraft, save,
    create, rename, remove, setSection, renameSection, drop, togglePin,
    pinsForNewChat, adoptPendingPins,
  }
})
