import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import * as api from '@/api/sessions'
import type { ImportResult, Session } from '@/api/types'
import { timeValue } from '@/utils/time'

export const useSessionStore = defineStore('sessions', () => {
  const sessions = ref<Session[]>([])
  /** The open session; null is a new, not yet saved chat (the first send creates it). */
  const currentId = ref<string | null>(null)
  /** The model picked for the new chat before it exists ("" = the default model). */
  const draftModel = ref('')
  const loaded = ref(false)

  /** Most recently updated first. */
  const sorted = computed(() =>
    [...sessions.value].sort(
      (a, b) => timeValue(b.updatedAt) - timeValue(a.updatedAt) || b.id.localeCompare(a.id),
    ),
  )
  const current = computed(() => sessions.value.find((s) => s.id === currentId.value) ?? null)
  /** The model of the open chat: the session's, or the draft's. */
  const currentModel = computed(() =>
    currentId.value ? (current.value?.model ?? '') : draftModel.value,
  )

  function upsert(s: Session) {
    const i = sessions.value.findIndex((x) => x.id === s.id)
    if (i < 0) sessions.value = [s, ...sessions.value]
    else sessions.value = sessions.value.map((x) => (x.id === s.id ? s : x))
  }

  async function load() {
    sessions.value = await api.list()
    loaded.value = true
    if (currentId.value && !sessions.value.some((s) => s.id === currentId.value)) {
      currentId.value = null
    }
  }

  function select(id: string | null) {
    currentId.value = id
  }

  /** Opens a new, empty chat (saved on its first message), keeping the current model. */
  function startDraft() {
    draftModel.value = currentModel.value
    currentId.value = null
  }

  async function create(model: string): Promise<Session> {
    const s = await api.create(model)
    upsert(s)
    currentId.value = s.id
    return s
  }

  async function rename(id: string, title: string): Promise<Session> {
    const s = await api.rename(id, title.trim())
    upsert(s)
    return s
  }

  async function setModel(id: string, model: string): Promise<Session> {
    const s = await api.setModel(id, model)
    upsert(s)
    return s
  }

  /** Sets the model of the open chat: SetModel for a saved session, else the draft's. */
  async function setCurrentModel(model: string) {
    if (currentId.value) await setModel(currentId.value, model)
    else draftModel.value = model
  }

  async function remove(id: string) {
    await api.remove(id)
    sessions.value = sessions.value.filter((s) => s.id !== id)
    if (currentId.value === id) currentId.value = null
  }

  /**
   * A turn started from the new chat created session `id`: refresh the list
   * and open it, unless the user has moved to another chat meanwhile.
   */
  async function adopt(id: string) {
    if (currentId.value === null) currentId.value = id
    if (!sessions.value.some((s) => s.id === id)) await load()
  }

  /** Marks a session as just used, so it moves to the top before the next reload. */
  function touch(id: string) {
    const s = sessions.value.find((x) => x.id === id)
    if (s) upsert({ ...s, updatedAt: new Date().toISOString() })
  }

  const exportToFile = (id: string): Promise<string> => api.exportToFile(id)

  async function importFromFile(): Promise<ImportResult | null> {
    const res = await api.importFromFile()
    if (!res) return null
    upsert(res.session)
    currentId.value = res.session.id
    return res
  }

  return {
    sessions, currentId, draftModel, loaded, sorted, current, currentModel,
    load, select, startDraft, create, rename, setModel, setCurrentModel, remove, adopt, touch,
    exportToFile, importFromFile,
  }
})
