import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import * as api from '@/api/sessions'
import type { ImportResult, Session } from '@/api/types'
import { debounce } from '@/utils/debounce'
import { timeValue } from '@/utils/time'
import { useAssistantStore } from './assistants'
import { useDraftStore } from './drafts'

/** How long a burst of refresh requests (focus events, edits) is coalesced. */
export const REFRESH_DEBOUNCE_MS = 400
/** How often a list read is retried when the list changed here while it was read. */
const STALE_RETRIES = 2

export const useSessionStore = defineStore('sessions', () => {
  const sessions = ref<Session[]>([])
  /** The open session; null is a new, not yet saved chat (the first send creates it). */
  const currentId = ref<string | null>(null)
  /** The model picked for the new chat before it exists ("" = the default model). */
  const draftModel = ref('')
  const loaded = ref(false)
  const drafts = useDraftStore()
  /** Bumped by every change made here, so a list read before it is not applied. */
  let version = 0
  let loadSeq = 0

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
    version++
    const i = sessions.value.findIndex((x) => x.id === s.id)
    if (i < 0) sessions.value = [s, ...sessions.value]
    else sessions.value = sessions.value.map((x) => (x.id === s.id ? s : x))
  }

  /**
   * Reads the list from the backend (sessions may come from the CLI or another
   * process on the same data folder). A read that a change made here overtook
   * is retried, so the open chat is never dropped for a stale list; only a
   * session deleted elsewhere closes.
   */
  async function load() {
    const seq = ++loadSeq
    let list: Session[]
    let stale: boolean
    let tries = 0
    do {
      const v = version
      list = await api.list()
      stale = v !== version
    } while (stale && tries++ < STALE_RETRIES)
    if (seq !== loadSeq) return // a newer read applies its own list
    const keep = stale ? sessions.value.filter((s) => !list.some((x) => x.id === s.id)) : []
    sessions.value = [...keep, ...list]
    loaded.value = true
    if (currentId.value && !sessions.value.some((s) => s.id === currentId.value)) {
      currentId.value = null
    }
  }

  let refreshing: Promise<void> | null = null
  let refreshAgain = false

  /** load(), one at a time: a request made during a read runs once more after it. */
  async function refresh(): Promise<void> {
    if (refreshing) {
      refreshAgain = true
      return refreshing
    }
    refreshing = (async () => {
      try {
        do {
          refreshAgain = false
          await load()
        } while (refreshAgain)
      } finally {
        refreshing = null
      }
    })()
    return refreshing
  }

  /**
   * Refreshes the list soon (debounced): on window focus and after changes
   * here. Failures are quiet, the next refresh tries again.
   */
  const refreshSoon = debounce(() => {
    refresh().catch(() => {})
  }, REFRESH_DEBOUNCE_MS)

  function select(id: string | null) {
    currentId.value = id
  }

  /**
   * Opens a new, empty chat (saved on its first message), keeping the
   * current model; it starts from the last assistant picked (Ctrl+N too),
   * whose model, when it names one, is the new chat's.
   */
  function startDraft() {
    draftModel.value = currentModel.value
    const assistants = useAssistantStore()
    assistants.startNew()
    if (assistants.draft?.settings?.model) draftModel.value = assistants.draft.settings.model
    currentId.value = null
    refreshSoon()
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
    refreshSoon()
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
    version++
    sessions.value = sessions.value.filter((s) => s.id !== id)
    drafts.forget(id)
    if (currentId.value === id) currentId.value = null
    refreshSoon()
  }

  /**
   * A turn started from the new chat created session `id`: refresh the list
   * and open it, unless the user has moved to another chat meanwhile.
   */
  async function adopt(id: string) {
    version++
    if (currentId.value === null) {
      // What the user typed meanwhile belongs to the chat it was typed in.
      drafts.move(null, id)
      currentId.value = id
    }
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
    refreshSoon()
    return res
  }

  return {
    sessions, currentId, draftModel, loaded, sorted, current, currentModel,
    load, refresh, refreshSoon, select, startDraft, create, rename, setModel, setCurrentModel, remove, adopt, touch,
    exportToFile, importFromFile,
  }
})
