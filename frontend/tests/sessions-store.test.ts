import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Session } from '@/api/types'
import { useDraftStore } from '@/stores/drafts'
import { REFRESH_DEBOUNCE_MS, useSessionStore } from '@/stores/sessions'

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

/** The counts of an import of a playchat session file (one session). */
const nativeCounts = { format: 'native', sessions: 1, placeholders: 0, skipped: 0, skippedConversations: 0, branches: 0, truncated: 0 }
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
      session: s('imp', '2025-01-05T00:00:00Z'), messages: 4, memories: 1, ...nativeCounts,
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

/** A promise the test resolves by hand. */
function deferred<T>() {
  let resolve!: (v: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

describe('sessions store: refreshing the list', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('coalesces a burst of refresh requests (focus storms) into one read', async () => {
    const store = useSessionStore()
    api.list.mockResolvedValue([s('a', '2025-01-01T00:00:00Z'), s('cli', '2025-01-03T00:00:00Z')])
    for (let i = 0; i < 5; i++) {
      store.refreshSoon()
      await vi.advanceTimersByTimeAsync(REFRESH_DEBOUNCE_MS / 4)
    }
    expect(api.list).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(REFRESH_DEBOUNCE_MS)
    expect(api.list).toHaveBeenCalledTimes(1)
    expect(store.sorted.map((x) => x.id)).toEqual(['cli', 'a']) // created by the CLI
  })

  it('keeps the selection when the list is refreshed', async () => {
    const store = useSessionStore()
    store.sessions = [s('a', '2025-01-01T00:00:00Z')]
    store.select('a')
    api.list.mockResolvedValue([s('a', '2025-01-01T00:00:00Z'), s('b', '2025-01-02T00:00:00Z')])
    store.refreshSoon()
    await vi.advanceTimersByTimeAsync(REFRESH_DEBOUNCE_MS)
    expect(store.currentId).toBe('a')
    expect(store.sessions).toHaveLength(2)
  })

  it('refreshes after a rename, a delete, an import and New chat', async () => {
    const store = useSessionStore()
    store.sessions = [s('a', '2025-01-01T00:00:00Z'), s('b', '2025-01-02T00:00:00Z')]
    api.list.mockResolvedValue([s('a', '2025-01-01T00:00:00Z')])
    api.rename.mockResolvedValue(s('a', '2025-01-02T00:00:00Z', { title: 'x' }))
    await store.rename('a', 'x')
    await vi.advanceTimersByTimeAsync(REFRESH_DEBOUNCE_MS)
    expect(api.list).toHaveBeenCalledTimes(1)
    await store.remove('b')
    await vi.advanceTimersByTimeAsync(REFRESH_DEBOUNCE_MS)
    expect(api.list).toHaveBeenCalledTimes(2)
    api.importFromFile.mockResolvedValueOnce({ session: s('imp', '2025-01-05T00:00:00Z'), messages: 1, memories: 0, ...nativeCounts })
    api.list.mockResolvedValue([s('a', '2025-01-01T00:00:00Z'), s('imp', '2025-01-05T00:00:00Z')])
    await store.importFromFile()
    await vi.advanceTimersByTimeAsync(REFRESH_DEBOUNCE_MS)
    expect(api.list).toHaveBeenCalledTimes(3)
    expect(store.currentId).toBe('imp')
    store.startDraft()
    await vi.advanceTimersByTimeAsync(REFRESH_DEBOUNCE_MS)
    expect(api.list).toHaveBeenCalledTimes(4)
  })

  it('does not drop a session created here while an older list was being read', async () => {
    const store = useSessionStore()
    const first = deferred<Session[]>()
    api.list.mockReturnValueOnce(first.promise)
    api.list.mockResolvedValue([s('a', '2025-01-01T00:00:00Z'), s('new', '2025-01-04T00:00:00Z')])
    const loading = store.load()
    // The first message of a new chat created "new" meanwhile.
    await store.adopt('new')
    first.resolve([s('a', '2025-01-01T00:00:00Z')]) // read before "new" existed
    await loading
    expect(store.currentId).toBe('new')
    expect(store.sessions.map((x) => x.id).sort()).toEqual(['a', 'new'])
  })

  it('reads again when a session was created here during the read, and never drops it', async () => {
    const store = useSessionStore()
    const first = deferred<Session[]>()
    api.list.mockReturnValueOnce(first.promise)
    api.list.mockResolvedValueOnce([s('a', '2025-01-01T00:00:00Z'), s('c1', '2025-01-04T00:00:00Z')])
    const loading = store.load()
    api.create.mockResolvedValue(s('c1', '2025-01-04T00:00:00Z'))
    await store.create('openai/x')
    first.resolve([s('a', '2025-01-01T00:00:00Z')])
    await loading
    expect(api.list).toHaveBeenCalledTimes(2)
    expect(store.currentId).toBe('c1')
    expect(store.sessions.map((x) => x.id).sort()).toEqual(['a', 'c1'])

    // Still changing after the retries: the local session is kept anyway.
    let n = 0
    api.list.mockImplementation(async () => {
      store.touch('c1') // a change here during every read
      return [s('a', '2025-01-01T00:00:00Z'), s('other' + n++, '2025-01-01T00:00:00Z')]
    })
    await store.load()
    expect(store.currentId).toBe('c1')
    expect(store.sessions.map((x) => x.id)).toContain('c1')
  })

  it('runs one read at a time and once more for requests made during it', async () => {
    const store = useSessionStore()
    const first = deferred<Session[]>()
    api.list.mockReturnValueOnce(first.promise)
    api.list.mockResolvedValue([s('b', '2025-01-02T00:00:00Z')])
    const a = store.refresh()
    const b = store.refresh()
    const c = store.refresh()
    expect(api.list).toHaveBeenCalledTimes(1)
    first.resolve([s('a', '2025-01-01T00:00:00Z')])
    await Promise.all([a, b, c])
    expect(api.list).toHaveBeenCalledTimes(2)
    expect(store.sessions.map((x) => x.id)).toEqual(['b'])
  })

  it('stays quiet when a background refresh fails', async () => {
    const store = useSessionStore()
    store.sessions = [s('a', '2025-01-01T00:00:00Z')]
    api.list.mockRejectedValue(new Error('backend not ready'))
    store.refreshSoon()
    await vi.advanceTimersByTimeAsync(REFRESH_DEBOUNCE_MS)
    expect(store.sessions.map((x) => x.id)).toEqual(['a'])
  })
})

describe('sessions store: drafts', () => {
  it('gives the new chat\'s draft to the session its first message created', async () => {
    const store = useSessionStore()
    const drafts = useDraftStore()
    api.list.mockResolvedValue([s('new', '2025-01-04T00:00:00Z')])
    drafts.set(null, 'typed while the reply streams')
    await store.adopt('new')
    expect(drafts.get('new')).toBe('typed while the reply streams')
    expect(drafts.get(null)).toBe('')
  })

  it('drops the draft of a deleted session', async () => {
    const store = useSessionStore()
    const drafts = useDraftStore()
    store.sessions = [s('a', '2025-01-01T00:00:00Z')]
    drafts.set('a', 'never sent')
    await store.remove('a')
    expect(drafts.get('a')).toBe('')
  })
})
