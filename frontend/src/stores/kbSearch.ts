// The knowledge-base browser's search box: the same retrieval the chat uses,
// debounced, and never run on an IME composition that is not committed yet
// (the query is searched on compositionend, or on input outside one).
import { defineStore } from 'pinia'
import { ref } from 'vue'
import * as api from '@/api/kb'
import { infoOf, type ErrorInfo } from '@/api/errors'
import type { KBHit } from '@/api/types'

export const KB_SEARCH_DEBOUNCE_MS = 250
export const KB_SEARCH_LIMIT = 20

export const useKBSearchStore = defineStore('kbSearch', () => {
  const query = ref('')
  const hits = ref<KBHit[]>([])
  /** The query `hits` answer ("" = no search yet). */
  const searchedQuery = ref('')
  const searching = ref(false)
  const error = ref<ErrorInfo | null>(null)
  let composing = false
  let timer: ReturnType<typeof setTimeout> | null = null
  let seq = 0

  function cancelTimer() {
    if (timer !== null) clearTimeout(timer)
    timer = null
  }

  /** Forgets the results and any search on its way. */
  function reset() {
    cancelTimer()
    seq++
    hits.value = []
    searchedQuery.value = ''
    searching.value = false
    error.value = null
  }

  /** Searches the current query now; `force` repeats a query already answered. */
  async function run(force = false) {
    cancelTimer()
    const q = query.value.trim()
    if (!q) return reset()
    const mine = ++seq // a newer call makes any answer still on its way stale
    if (!force && q === searchedQuery.value && !error.value) {
      searching.value = false
      return
    }
    searching.value = true
    try {
      const res = await api.search(q, KB_SEARCH_LIMIT)
      if (mine !== seq) return
      hits.value = res
      error.value = null
    } catch (e) {
      if (mine !== seq) return
      hits.value = []
      error.value = infoOf(e)
    } finally {
      if (mine === seq) {
        searchedQuery.value = q
        searching.value = false
      }
    }
  }

  function schedule() {
    cancelTimer()
    if (!query.value.trim()) return reset()
    timer = setTimeout(() => void run(), KB_SEARCH_DEBOUNCE_MS)
  }

  /** The search box changed; nothing is searched while an IME composition is open. */
  function setQuery(text: string, isComposing = false) {
    query.value = text
    if (composing || isComposing) return cancelTimer()
    schedule()
  }
  function compositionStart() {
    composing = true
    cancelTimer()
  }
  function compositionEnd(text: string) {
    composing = false
    setQuery(text)
  }
  function clear() {
    composing = false
    query.value = ''
    reset()
  }

  /** The index changed: search the shown query again. */
  const refresh = () => (query.value.trim() ? run(true) : Promise.resolve())

  /** The browser closed: drop a pending search (the query and results stay). */
  function pause() {
    cancelTimer()
    composing = false
  }

  return {
    query, hits, searchedQuery, searching, error,
    run, setQuery, compositionStart, compositionEnd, clear, refresh, pause,
  }
})
