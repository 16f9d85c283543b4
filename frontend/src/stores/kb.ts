// The knowledge-base browser: index status (polled while the browser is
// open), the folder tree (loaded one folder at a time and cached) and the
// open document. The search box has its own store (knowledgeSearch).
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import * as api from '@/api/kb'
import { infoOf, type ErrorInfo } from '@/api/errors'
import type { KBDoc, KBNode, KBStatus } from '@/api/types'
import {
  KB_POLL_FAST_MS, KB_POLL_SLOW_MS, ancestorFolders, indexChanged, isSeedOnly, linkFragment,
  resolveKbLink,
} from '@/utils/kb'
import { useKBSearchStore } from './kbSearch'

/** Where the document view should scroll: a heading's text or an anchor slug. */
export interface ScrollTarget {
  heading: string
  seq: number
}

type Timer = ReturnType<typeof setTimeout>

export const useKBStore = defineStore('kb', () => {
  const search = useKBSearchStore()

  // ---- status -------------------------------------------------------------
  const status = ref<KBStatus | null>(null)
  const statusError = ref<ErrorInfo | null>(null)
  let polling = false
  let pollGen = 0
  let pollTimer: Timer | null = null

  async function refreshStatus(): Promise<void> {
    try {
      const next = await api.status()
      const prev = status.value
      status.value = next
      statusError.value = null
      if (prev && indexChanged(prev, next)) void onIndexChanged()
    } catch (e) {
      statusError.value = infoOf(e)
    }
  }

  function schedulePoll() {
    if (pollTimer !== null) clearTimeout(pollTimer)
    pollTimer = null
    if (!polling) return
    const gen = pollGen
    const ms = status.value?.indexing ? KB_POLL_FAST_MS : KB_POLL_SLOW_MS
    pollTimer = setTimeout(async () => {
      pollTimer = null
      await refreshStatus()
      if (polling && gen === pollGen) schedulePoll()
    }, ms)
  }

  /** Fetches the status now, then every 1 s while indexing and every 5 s otherwise. */
  function startPolling() {
    if (polling) return
    polling = true
    const gen = ++pollGen
    void refreshStatus().then(() => {
      if (polling && gen === pollGen) schedulePoll()
    })
  }

  function stopPolling() {
    polling = false
    pollGen++
    if (pollTimer !== null) clearTimeout(pollTimer)
    pollTimer = null
  }

  // ---- tree ---------------------------------------------------------------
  /** The entries of every loaded folder, by folder path ("" = the root). */
  const folders = ref<Record<string, KBNode[]>>({})
  const expanded = ref<Record<string, boolean>>({})
  const loadingFolders = ref<Record<string, boolean>>({})
  const folderErrors = ref<Record<string, ErrorInfo>>({})
  const inflight = new Map<string, Promise<KBNode[]>>()
  const folderGen: Record<string, number> = {}

  const rootEntries = computed(() => folders.value[''] ?? null)
  /** The settled KB holds nothing but (at most) the seeded guide. */
  const seedOnly = computed(
    () =>
      rootEntries.value !== null &&
      status.value !== null &&
      !status.value.indexing &&
      isSeedOnly(rootEntries.value),
  )

  const setKey = <T>(r: { value: Record<string, T> }, k: string, v: T | undefined) => {
    const next = { ...r.value }
    if (v === undefined) delete next[k]
    else next[k] = v
    r.value = next
  }

  /** A folder's entries: from the cache, else one Tree call (shared by concurrent callers). */
  function loadFolder(path: string, force = false): Promise<KBNode[]> {
    const cached = folders.value[path]
    if (cached && !force) return Promise.resolve(cached)
    const running = inflight.get(path)
    if (running && !force) return running
    const gen = (folderGen[path] = (folderGen[path] ?? 0) + 1)
    setKey(loadingFolders, path, true)
    const p = api.tree(path).then(
      (node) => {
        if (gen === folderGen[path]) {
          setKey(folders, path, node.children)
          setKey(folderErrors, path, undefined)
        }
        return node.children
      },
      (e: unknown) => {
        if (gen === folderGen[path]) setKey(folderErrors, path, infoOf(e))
        throw e
      },
    )
    const settle = () => {
      if (gen !== folderGen[path]) return
      inflight.delete(path)
      setKey(loadingFolders, path, undefined)
    }
    p.then(settle, settle)
    inflight.set(path, p)
    return p
  }

  /** Opens a closed folder (loading it the first time) or closes an open one. */
  async function toggleFolder(path: string) {
    if (expanded.value[path]) {
      setKey(expanded, path, undefined)
      return
    }
    setKey(expanded, path, true)
    await loadFolder(path)
  }

  /** Refetches the root and the open folders; closed folders are forgotten. */
  async function refreshTree() {
    const open = ['', ...Object.keys(expanded.value)]
    folders.value = Object.fromEntries(Object.entries(folders.value).filter(([k]) => open.includes(k)))
    await Promise.all(
      open.map((p) =>
        loadFolder(p, true).catch(() => {
          if (p !== '') setKey(expanded, p, undefined) // the folder is gone
        }),
      ),
    )
  }

  /** Opens the folders above a document so it shows in the tree. */
  async function reveal(path: string) {
    for (const dir of ancestorFolders(path)) {
      setKey(expanded, dir, true)
      await loadFolder(dir).catch(() => {})
    }
  }

  // ---- document -----------------------------------------------------------
  const docPath = ref<string | null>(null)
  const doc = ref<KBDoc | null>(null)
  const docLoading = ref(false)
  const docError = ref<ErrorInfo | null>(null)
  const scrollTarget = ref<ScrollTarget | null>(null)
  /** Documents left by following links, for Back. */
  const history = ref<string[]>([])
  let docSeq = 0
  let scrollSeq = 0

  const scrollTo = (heading: string) => (scrollTarget.value = { heading, seq: ++scrollSeq })

  /** Shows a document, optionally scrolled to a heading; `follow` keeps the current one for Back. */
  async function open(path: string, opts: { heading?: string; follow?: boolean } = {}) {
    const seq = ++docSeq
    if (opts.follow && docPath.value && docPath.value !== path) history.value = [...history.value, docPath.value]
    if (docPath.value !== path) doc.value = null
    docPath.value = path
    docLoading.value = true
    docError.value = null
    scrollTo(opts.heading ?? '')
    void reveal(path)
    try {
      const d = await api.read(path)
      if (seq === docSeq) doc.value = d
    } catch (e) {
      if (seq === docSeq) {
        doc.value = null
        docError.value = infoOf(e)
      }
    } finally {
      if (seq === docSeq) docLoading.value = false
    }
  }

  function back() {
    const prev = history.value[history.value.length - 1]
    if (prev === undefined) return
    history.value = history.value.slice(0, -1)
    void open(prev)
  }

  /**
   * Follows a link clicked in the open document: "#anchor" scrolls, a
   * relative .md path opens that KB document; anything else is ignored.
   * Returns false when the link led nowhere.
   */
  function followLink(href: string): boolean {
    const frag = linkFragment(href)
    if (href.trim().startsWith('#')) {
      scrollTo(frag)
      return true
    }
    const target = docPath.value === null ? null : resolveKbLink(docPath.value, href)
    if (target === null) return false
    if (target === docPath.value) scrollTo(frag)
    else void open(target, { heading: frag, follow: true })
    return true
  }

  /** Rereads the open document after the index changed, if its file did. */
  async function reloadDoc() {
    const path = docPath.value
    if (path === null || docLoading.value) return
    const seq = docSeq
    try {
      const d = await api.read(path)
      const cur = doc.value
      if (seq !== docSeq) return
      if (!cur || cur.content !== d.content || cur.modTime !== d.modTime) doc.value = d
      docError.value = null
    } catch (e) {
      if (seq === docSeq) docError.value = infoOf(e)
    }
  }

  // ---- actions and lifecycle ---------------------------------------------
  async function onIndexChanged() {
    await Promise.all([refreshTree().catch(() => {}), reloadDoc(), search.refresh()])
  }

  /** Starts a full rebuild; the status is then polled at the fast rate. */
  async function reindex() {
    await api.reindex()
    if (status.value) status.value = { ...status.value, indexing: true }
    schedulePoll()
  }

  const openFolder = () => api.openFolder()

  /**
   * Deletes the open document (into the trash folder, KBService.Delete),
   * closes it and refreshes the tree and the search; returns its path in
   * the trash.
   */
  async function deleteOpen(): Promise<string> {
    const path = docPath.value
    if (path === null) throw new Error('no document is open')
    const trashed = await api.deleteDocument(path)
    if (docPath.value === path) {
      docSeq++
      docPath.value = null
      doc.value = null
      docError.value = null
      history.value = history.value.filter((p) => p !== path)
    }
    await Promise.all([refreshTree().catch(() => {}), search.refresh(), refreshStatus()])
    return trashed
  }

  /** The browser opened: poll the status and load (or refresh) the tree. */
  async function activate() {
    startPolling()
    void search.run() // a query left pending when the browser closed
    if (folders.value[''] === undefined) await loadFolder('')
    else await refreshTree()
  }

  /** The browser closed: no more polling or pending search. */
  function deactivate() {
    stopPolling()
    search.pause()
  }

  return {
    status, statusError, refreshStatus, startPolling, stopPolling,
    folders, expanded, loadingFolders, folderErrors, rootEntries, seedOnly,
    loadFolder, toggleFolder, refreshTree, reveal,
    docPath, doc, docLoading, docError, scrollTarget, history, open, back, followLink, reloadDoc,
    reindex, openFolder, deleteOpen, activate, deactivate,
  }
})
