import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import * as api from '@/api/assistants'
import type { Assistant, AssistantDraft } from '@/api/assistants'

const LAST_KEY = 'playchat.lastAssistant'

function readLast(): number {
  try {
    const v = Number(globalThis.localStorage?.getItem(LAST_KEY) ?? 0)
    return Number.isInteger(v) && v > 0 ? v : 0
  } catch {
    return 0
  }
}

/**
 * The user's assistants, and which one the next new chat starts from: the
 * one picked on "New chat" (`draftId`), which becomes the last one, so
 * Ctrl+N starts from it again (`startNew`).
 */
export const useAssistantStore = defineStore('assistants', () => {
  const items = ref<Assistant[]>([])
  const loaded = ref(false)
  /** The assistant the open new chat will start from (0: none). */
  const draftId = ref(0)
  /** The last assistant picked for a new chat (0: none). */
  const lastId = ref(readLast())

  const byId = (id: number) => items.value.find((a) => a.id === id)
  const draft = computed(() => (draftId.value ? byId(draftId.value) ?? null : null))

  async function load() {
    items.value = await api.list()
    loaded.value = true
    if (draftId.value && !byId(draftId.value)) draftId.value = 0
  }

  /** Picks the assistant of the new chat (0: none) and remembers it as the last. */
  function pick(id: number) {
    draftId.value = id
    lastId.value = id
    try {
      globalThis.localStorage?.setItem(LAST_KEY, String(id))
    } catch {
      /* a full or missing storage only forgets the choice */
    }
  }

  /** A new chat (Ctrl+N): it starts from the last assistant, if it still exists. */
  function startNew() {
    draftId.value = lastId.value && byId(lastId.value) ? lastId.value : 0
  }

  async function create(d: AssistantDraft) {
    const a = await api.create(d)
    items.value = [...items.value, a]
    return a
  }
  async function update(id: number, d: AssistantDraft) {
    const a = await api.update(id, d)
    items.value = items.value.map((x) => (x.id === id ? a : x))
    return a
  }
  async function duplicate(id: number, suffix: string) {
    const a = await api.duplicate(id, suffix)
    items.value = [...items.value, a]
    return a
  }
  async function remove(id: number) {
    await api.remove(id)
    items.value = items.value.filter((x) => x.id !== id)
    if (draftId.value === id) draftId.value = 0
  }
  /** Moves assistant id by delta places (−1 up, +1 down). */
  async function move(id: number, delta: number) {
    const ids = items.value.map((a) => a.id)
    const i = ids.indexOf(id)
    const j = i + delta
    if (i < 0 || j < 0 || j >= ids.length) return
    ;[ids[i], ids[j]] = [ids[j], ids[i]]
    items.value = await api.reorder(ids)
  }
  async function importFile() {
    const added = await api.importFromFile()
    if (added.length) items.value = [...items.value, ...added]
    return added
  }

  return { items, loaded, draftId, lastId, draft, byId, load, pick, startNew, create, update, duplicate, remove, move, importFile }
})
