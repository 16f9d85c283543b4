import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Session } from '@/api/types'
import { useSessionStore } from '@/stores/sessions'

vi.mock('@/api/sessions', () => ({
  list: vi.fn(),
  messages: vi.fn(async () => []),
  create: vi.fn(),
  rename: vi.fn(),
  setModel: vi.fn(),
  remove: vi.fn(async () => {}),
  exportToFile: vi.fn(),
  importFromFile: vi.fn(),
}))
const api = vi.mocked(await import('@/api/sessions'))

const s = (id: string, updatedAt: string, extra: Partial<Session> = {}): Session => ({
  id, title: 'Chat ' + id, model: '', createdAt: '2025-01-01T00:00:00Z', updatedAt, ...extra,
})

beforeEach(() => {
  setActivePinia(createPinia())
  vi.clearAllMocks()
})

describe('sessions store', () => {
  it('lists the most recently updated first, whatever order the backend uses', async () => {
    api.list.mockResolvedValue([
      s('a', '2025-01-01T10:00:00Z'),
      s('b', '2025-03-01T09:00:00+09:00'),
      s('c', '2025-02-01T00:00:00Z'),
    ])
    const store = useSessionStore()
    await store.load()
    expect(store.sorted.map((x) => x.id)).toEqual(['b', 'c', 'a'])
  })

  it('renames through the backend and keeps its answer', async () => {
    const store = useSessionStore()
    store.sessions = [s('a', '2025-01-01T00:00:00Z')]
    api.rename.mockResolvedValue(s('a', '2025-01-02T00:00:00Z', { title: 'Trip plans' }))
    await store.rename('a', '  Trip plans ')
    expect(api.rename).toHaveBeenCalledWith('a', 'Trip plans')
    expect(store.sessions[0].title).toBe('Trip plans')
  })

  it('deletes a session and leaves it if it was open', async () => {
    const store = useSessionStore()
    store.sessions = [s('a', '2025-01-01T00:00:00Z'), s('b', '2025-01-02T00:00:00Z')]
    store.select('a')
    await store.remove('a')
    expect(api.remove).toHaveBeenCalledWith('a')
    expect(store.sessions.map((x) => x.id)).toEqual(['b'])
    expect(store.currentId).toBeNull()
  })

  it('keeps the open session when another one is deleted', async () => {
    const store = useSessionStore()
    store.sessions = [s('a', '2025-01-01T00:00:00Z'), s('b', '2025-01-02T00:00:00Z')]
    store.select('b')
    await store.remove('a')
    expect(store.currentId).toBe('b')
  })

  it('changes the model with SetModel for a saved session, locally for a new chat', async () => {
    const store = useSessionStore()
    store.sessions = [s('a', '2025-01-01T00:00:00Z')]
    store.select('a')
    api.setModel.mockResolvedValue(s('a', '2025-01-01T00:00:00Z', { model: 'anthropic/claude' }))
    await store.setCurrentModel('anthropic/claude')
    expect(api.setModel).toHaveBeenCalledWith('a', 'anthropic/claude')
    expect(store.currentModel).toBe('anthropic/claude')

    store.startDraft()
    expect(store.currentId).toBeNull()
    expect(store.draftModel).toBe('anthropic/claude') // the new chat keeps the model
    await store.setCurrentModel('ollama/llama3.1')
    expect(api.setModel).toHaveBeenCalledTimes(1)
    expect(store.currentModel).toBe('ollama/llama3.1')
  })

  it('moves a touched session to the top', () => {
    const store = useSessionStore()
    store.sessions = [s('a', '2025-01-01T00:00:00Z'), s('b', '2025-01-02T00:00:00Z')]
    store.touch('a')
    expect(store.sorted[0].id).toBe('a')
  })

  it('treats a cancelled import as nothing, and opens an imported session', async () => {
    const store = useSessionStore()
    api.importFromFile.mockResolvedValueOnce(null)
    expect(await store.importFromFile()).toBeNull()
    expect(store.sessions).toHaveLength(0)

    api.importFromFile.mockResolvedValueOnce({
      session: s('imp', '2025-01-05T00:00:00Z'), messages: 4, memories: 1,
    })
    const res = await store.importFromFile()
    expect(res?.messages).toBe(4)
    expect(store.currentId).toBe('imp')
    expect(store.sessions.map((x) => x.id)).toEqual(['imp'])
  })

  it('closes the open session when a reload no longer lists it', async () => {
    const store = useSessionStore()
    store.select('gone')
    api.list.mockResolvedValue([s('a', '2025-01-01T00:00:00Z')])
    await store.load()
    expect(store.currentId).toBeNull()
  })
})
