import { defineStore } from 'pinia'
import { ref } from 'vue'
import * as api from '@/api/memory'
import type { Memory, MemoryStatus } from '@/api/types'

export const useMemoryStore = defineStore('memory', () => {
  const items = ref<Memory[]>([])
  const sessionId = ref<string | null>(null)
  const loading = ref(false)
  /** The current chat's summary state (idle, running, backoff). */
  const status = ref<MemoryStatus | null>(null)

  async function load(id: string | null) {
    sessionId.value = id
    if (!id) {
      items.value = []
      status.value = null
      return
    }
    loading.value = true
    try {
      const [list, st] = await Promise.all([api.list(id), api.status(id)])
      if (sessionId.value === id) {
        items.value = list
        status.value = st
      }
    } finally {
      loading.value = false
    }
  }

  async function remove(id: number) {
    await api.remove(id)
    items.value = items.value.filter((m) => m.id !== id)
  }

  return { items, sessionId, loading, status, load, remove }
})
