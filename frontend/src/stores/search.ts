// Search across every chat (Ctrl+K): the dialog's query, filters and hits,
// and opening a hit — the chat is selected, its history loaded, the branch
// holding the message switched to if needed, and the chat window asked
// (focus) to bring the message into view, however far back it is.
import { defineStore } from 'pinia'
import { infoOf, type ErrorInfo } from '@/api/errors'
import { nextTick, ref, watch } from 'vue'
import * as searchApi from '@/api/search'
import type { SearchHit } from '@/api/search'
import { useBranchStore } from './branches'
import { useChatStore } from './chat'
import { useSessionStore } from './sessions'

/** Hits asked for per query. */
export const SEARCH_LIMIT = 50

/** How opening a hit went: shown, or the message is not in the chat's history any more. */
export type OpenOutcome = 'shown' | 'missing'

export const useSearchStore = defineStore('search', () => {
  const sessions = useSessionStore()
  const chat = useChatStore()

  const open = ref(false)
  const query = ref('')
  /** Only this chat ("" = every chat). */
  const sessionId = ref('')
  /** Local days "YYYY-MM-DD" ("" = open). */
  const fromDay = ref('')
  const toDay = ref('')
  const hits = ref<SearchHit[]>([])
  const loading = ref(false)
  const error = ref<ErrorInfo | null>(null)
  /** The hits are for the current query and filters. */
  const searched = ref(false)
  /** The message the chat window should scroll to; seq changes with every request. */
  const focus = ref<{ sessionId: string; messageId: number; seq: number } | null>(null)
  let runSeq = 0
  let focusSeq = 0

  function show() {
    if (!open.value) void searchApi.prepare().catch(() => {}) // the search reports any error itself
    open.value = true
  }
  function close() {
    open.value = false
  }

  /** Runs the query with the filters; a newer run wins. */
  async function run(): Promise<void> {
    const seq = ++runSeq
    const text = query.value.trim()
    if (!text) {
      hits.value = []
      error.value = null
      searched.value = false
      loading.value = false
      return
    }
    loading.value = true
    try {
      const { from, to } = searchApi.dayRange(fromDay.value, toDay.value)
      const list = await searchApi.search({ query: text, sessionId: sessionId.value, from, to, limit: SEARCH_LIMIT })
      if (seq !== runSeq) return
      hits.value = list
      error.value = null
      searched.value = true
    } catch (e) {
      if (seq !== runSeq) return
      hits.value = []
      error.value = infoOf(e)
      searched.value = true
    } finally {
      if (seq === runSeq) loading.value = false
    }
  }

  const whenLoaded = (): Promise<void> =>
    chat.loading
      ? new Promise((resolve) => {
          const stop = watch(
            () => chat.loading,
            (l) => {
              if (!l) {
                stop()
                resolve()
              }
            },
          )
        })
      : Promise.resolve()

  const shows = (id: number) => chat.stored.some((m) => m.id === id)

  /**
   * Opens the hit's chat and asks the window to scroll to the message. A
   * message on another branch of the conversation (an earlier version of
   * an edited or regenerated turn) switches the chat to that branch.
   */
  async function openHit(hit: SearchHit): Promise<OpenOutcome> {
    close()
    if (sessions.currentId !== hit.sessionId) {
      sessions.select(hit.sessionId)
      await nextTick() // the chat store starts loading the history
    }
    await whenLoaded()
    if (sessions.currentId !== hit.sessionId) return 'missing'
    if (!shows(hit.messageId)) {
      await useBranchStore().switchTo(hit.messageId)
      if (!shows(hit.messageId)) return 'missing'
    }
    focus.value = { sessionId: hit.sessionId, messageId: hit.messageId, seq: ++focusSeq }
    return 'shown'
  }

  return { open, query, sessionId, fromDay, toDay, hits, loading, error, searched, focus, show, close, run, openHit }
})
