import { defineStore } from 'pinia'
import { ref } from 'vue'
import * as api from '@/api/memory'
import type { Memory } from '@/api/types'

export const useMemoryStore = defineStore('memory', () => {
  const items = ref<Memory[]>([])
  const sessionId = ref<string | null>(null)
  const loading = ref(false)

  async function load(id: string | null) {
    sessionId.value = id
    if (!id) {
      items.value = []
      return
    }
    loading.value = true
    try {
      const list = await api.list(id)
      if (sessionId.value === id) items.value = list
    } finally {
      loading.value = false
    }
  }

  async function remove(id: number) {
    await api.remove(id)
    items.value = items.value.filter((m) => m.id !== id)
  }

  return { items, sessionId, loading, load, remove }
})
