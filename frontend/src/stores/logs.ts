import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import * as api from '@/api/logs'
import type { LogDetail, LogEntry, LogUsage } from '@/api/types'

export const LOG_PAGE_SIZE = 30

export const useLogStore = defineStore('logs', () => {
  const entries = ref<LogEntry[]>([])
  const total = ref(0)
  /** Token usage per chat over every log (not just this page). */
  const usage = ref<LogUsage[]>([])
  const offset = ref(0)
  const loading = ref(false)
  const detail = ref<LogDetail | null>(null)

  const page = computed(() => Math.floor(offset.value / LOG_PAGE_SIZE) + 1)
  const pages = computed(() => Math.max(1, Math.ceil(total.value / LOG_PAGE_SIZE)))
  const hasPrev = computed(() => offset.value > 0)
  const hasNext = computed(() => offset.value + LOG_PAGE_SIZE < total.value)

  async function load(at = offset.value) {
    loading.value = true
    try {
      const res = await api.list(LOG_PAGE_SIZE, Math.max(0, at))
      // Past the end (after deletes): step back to the last page.
      if (res.entries.length === 0 && at > 0 && res.total > 0) {
        return load(Math.floor((res.total - 1) / LOG_PAGE_SIZE) * LOG_PAGE_SIZE)
      }
      entries.value = res.entries
      total.value = res.total
      usage.value = res.usage
      offset.value = Math.max(0, at)
    } finally {
      loading.value = false
    }
  }

  const next = () => (hasNext.value ? load(offset.value + LOG_PAGE_SIZE) : Promise.resolve())
  const prev = () =>
    hasPrev.value ? load(Math.max(0, offset.value - LOG_PAGE_SIZE)) : Promise.resolve()

  async function open(id: number) {
    detail.value = await api.get(id)
  }

  function close() {
    detail.value = null
  }

  async function remove(id: number) {
    await api.remove(id)
    if (detail.value?.id === id) detail.value = null
    await load()
  }

  async function clear() {
    await api.clear()
    detail.value = null
    await load(0)
  }

  return {
    entries, total, usage, offset, loading, detail, page, pages, hasPrev, hasNext,
    load, next, prev, open, close, remove, clear,
  }
})
