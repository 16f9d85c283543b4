import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { TurnEnd, TurnHandlers } from '@/api/chat'
import type { Message, Session, TurnStart } from '@/api/types'
import { useChatStore } from '@/stores/chat'
import { useDraftStore } from '@/stores/drafts'
import { useSessionStore } from '@/stores/sessions'
import { useToastStore } from '@/stores/toasts'
import { flush } from './helpers'

vi.mock('@/api/chat', () => ({ streamTurn: vi.fn() }))
vi.mock('@/api/sessions', () => ({
  list: vi.fn(async () => []),
  messages: vi.fn(async () => []),
  create: vi.fn(),
  rename: vi.fn(),
  setModel: vi.fn(),
  remove: vi.fn(),
  exportToFile: vi.fn(),
  importFromFile: vi.fn(),
}))

vi.mock('@/api/notes', () => ({
  list: vi.fn(async () => []),
  pins: vi.fn(async () => []),
  setPins: vi.fn(async () => {}),
}))

const chatApi = vi.mocked(await import('@/api/chat'))
const sessionsApi = vi.mocked(await import('@/api/sessions'))

const session = (id: string, model = ''): Session => ({
  id, title: id, model, createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z',
})
const msg = (id: number, role: string, content: string, status = 'complete'): Message => ({
  id, sessionId: 's1', role, content, status, error: '', model: 'openai/x', createdAt: '2025-01-01T00:00:00Z', archived: false, forgotten: false,
})

/** A turn the test drives by hand: events, Send's answer, and the end. */
function fakeTurn(turnId = 'T1') {
  let handlers: TurnHandlers = {}
  let input: unknown
  let resolveStart!: (s: TurnStart) => void
  let rejectStart!: (e: Error) => void
  let resolveDone!: (e: TurnEnd) => void
  const started = new Promise<TurnStart>((res, rej) => {
    resolveStart = res
    rejectStart = rej
  })
  started.catch(() => {})
  const done = new Promise<TurnEnd>((r) => (resolveDone = r))
  const stop = vi.fn(async () => {})
  chatApi.streamTurn.mockImplementationOnce((i, h) => {
    input = i
    handlers = h ?? {}
    return { turnId, started, done, stop }
  })
  return {
    get handlers() { return handlers },
    get input() { return input },
    stop,
    start: (s: Partial<TurnStart>) =>
      resolveStart({ turnId, sessionId: 's1', model: '', userMessage: msg(1, 'user', 'hi'), ...s }),
    failStart: (e: string) => rejectStart(new Error(e)),
    end: (e: TurnEnd) => resolveDone(e),
  }
}

function setup(current: string | null = 's1') {
  setActivePinia(createPinia())
  const sessions = useSessionStore()
  sessions.sessions = [session('s1', 'openai/gpt-4o-mini')]
  sessions.currentId = current
  return { chat: useChatStore(), sessions, toasts: useToastStore(), drafts: useDraftStore() }
}

beforeEach(() => {
  vi.clearAllMocks()
  sessionsApi.messages.mockResolvedValue([])
  // After a turn the store refreshes the list; it must still hold the open session.
  sessionsApi.list.mockResolvedValue([session('s1'), session('s2')])
})

describe('chat store', () => {
  it('sends with the session and its model, and accumulates chunks in the pending reply', async () => {
    const { chat } = setup()
    const turn = fakeTurn()
    expect(chat.send('  hello  ')).toBe(true)
    expect(turn.input).toEqual({ sessionId: 's1', text: 'hello', model: 'openai/gpt-4o-mini', notePageIds: [] })
    expect(chat.isStreaming).toBe(true)

    turn.handlers.onChunk!('Hel')
    turn.handlers.onChunk!('lo, ')
    turn.handlers.onChunk!('world')
    const [user, reply] = chat.messages
    expect(user).toMatchObject({ role: 'user', content: 'hello' })
    expect(reply).toMatchObject({ role: 'assistant', content: 'Hello, world', pending: true })
  })

  it('reloads the stored messages when the turn is done', async () => {
    const { chat } = setup()
    const turn = fakeTurn()
    chat.send('hi')
    turn.start({})
    turn.handlers.onChunk!('partial text')
    sessionsApi.messages.mockResolvedValue([msg(1, 'user', 'hi'), msg(2, 'assistant', 'full reply')])
    turn.end({ ok: true })
    await flush()
    expect(sessionsApi.messages).toHaveBeenCalledWith('s1')
    expect(chat.isStreaming).toBe(false)
    expect(chat.turns).toHaveLength(0)
    expect(chat.messages.map((m) => [m.role, m.content, m.pending])).toEqual([
      ['user', 'hi', false],
      ['assistant', 'full reply', false],
    ])
  })

  it('on an error event sets the error state, shows a toast and reloads', async () => {
    const { chat, toasts } = setup()
    const turn = fakeTurn()
    chat.send('hi')
    turn.start({})
    sessionsApi.messages.mockResolvedValue([
      msg(1, 'user', 'hi'),
      { ...msg(2, 'assistant', '', 'error'), error: 'rate limited' },
    ])
    turn.end({ ok: false, error: 'rate limited', started: true })
    await flush()
    expect(chat.lastError).toBe('rate limited')
    expect(toasts.toasts.map((t) => [t.kind, t.message])).toEqual([['error', 'rate limited']])
    expect(sessionsApi.messages).toHaveBeenCalledWith('s1')
    expect(chat.messages[1]).toMatchObject({ status: 'error', error: 'rate limited' })
    expect(chat.isStreaming).toBe(false)
  })

  it('keeps the text that arrived before a failure as a partial reply with the error', async () => {
    const { chat } = setup()
    const turn = fakeTurn()
    chat.send('hi')
    turn.start({})
    turn.handlers.onChunk!('half an ans')
    // The history cannot be read right now: the live reply must not vanish.
    sessionsApi.messages.mockRejectedValueOnce(new Error('db busy'))
    turn.end({ ok: false, error: 'connection reset', started: true })
    await flush()
    expect(chat.isStreaming).toBe(false)
    expect(chat.messages.map((m) => [m.role, m.content, m.status, m.error])).toEqual([
      ['user', 'hi', 'complete', ''],
      ['assistant', 'half an ans', 'partial', 'connection reset'],
    ])
    // Once the history can be read, the stored copy replaces it.
    sessionsApi.messages.mockResolvedValue([
      msg(1, 'user', 'hi'),
      { ...msg(2, 'assistant', 'half an ans', 'partial'), error: 'connection reset' },
    ])
    await chat.loadMessages('s1')
    expect(chat.messages).toHaveLength(2)
    expect(chat.messages[1]).toMatchObject({ key: 'm2', status: 'partial', error: 'connection reset' })
  })

  it('an error before any text is an error reply', async () => {
    const { chat } = setup()
    const turn = fakeTurn()
    chat.send('hi')
    turn.start({})
    sessionsApi.messages.mockRejectedValueOnce(new Error('db busy'))
    turn.end({ ok: false, error: 'rate limited', started: true })
    await flush()
    expect(chat.messages[1]).toMatchObject({ content: '', status: 'error', error: 'rate limited' })
  })

  it('when Send itself fails, gives the text back to that chat\'s draft and does not reload', async () => {
    const { chat, toasts, drafts } = setup()
    const turn = fakeTurn()
    chat.send('keep me')
    turn.failStart('no model configured')
    turn.end({ ok: false, error: 'no model configured', started: false })
    await flush()
    expect(drafts.get('s1')).toBe('keep me')
    expect(drafts.get(null)).toBe('')
    expect(toasts.toasts[0].message).toBe('no model configured')
    expect(chat.messages).toHaveLength(0)
    expect(sessionsApi.messages).not.toHaveBeenCalled()
  })

  it('a failed first message of a new chat goes back to the new chat\'s draft, unless something new was typed', async () => {
    const { chat, drafts } = setup(null)
    const turn = fakeTurn()
    chat.send('first try')
    turn.failStart('offline')
    turn.end({ ok: false, error: 'offline', started: false })
    await flush()
    expect(drafts.get(null)).toBe('first try')

    const again = fakeTurn('T2')
    drafts.set(null, '')
    chat.send('second try')
    drafts.set(null, 'typed meanwhile')
    again.failStart('offline')
    again.end({ ok: false, error: 'offline', started: false })
    await flush()
    expect(drafts.get(null)).toBe('typed meanwhile')
  })

  it('stop calls the adapter and marks the turn as stopping', async () => {
    const { chat } = setup()
    const turn = fakeTurn()
    chat.send('long question')
    await chat.stop()
    expect(turn.stop).toHaveBeenCalledTimes(1)
    expect(chat.currentTurn?.status).toBe('stopping')
    // The backend saves the partial reply and sends done.
    sessionsApi.messages.mockResolvedValue([msg(1, 'user', 'long question'), msg(2, 'assistant', 'par', 'partial')])
    turn.end({ ok: true })
    await flush()
    expect(chat.isStreaming).toBe(false)
    expect(chat.messages[1].status).toBe('partial')
  })

  it('a turn from a new chat adopts the session id it is given', async () => {
    const { chat, sessions } = setup(null)
    sessions.draftModel = 'ollama/llama3.1'
    const turn = fakeTurn()
    chat.send('first message')
    expect(turn.input).toEqual({ sessionId: '', text: 'first message', model: 'ollama/llama3.1', notePageIds: [] })
    sessionsApi.list.mockResolvedValue([session('s1'), session('new1')])
    turn.handlers.onSessionId!('new1')
    await flush()
    expect(sessions.currentId).toBe('new1')
    expect(chat.turns[0].sessionId).toBe('new1')
    expect(chat.isStreaming).toBe(true)
    turn.handlers.onChunk!('answer')
    expect(chat.messages.at(-1)?.content).toBe('answer')
    turn.end({ ok: true })
    await flush()
    expect(sessionsApi.messages).toHaveBeenLastCalledWith('new1')
  })

  it('merges tool events by id and keeps sources on the reply', () => {
    const { chat } = setup()
    const turn = fakeTurn()
    chat.send('search it')
    turn.handlers.onTool!({ id: 'a', name: 'web_search', label: 'Searching', detail: 'q', status: 'running' })
    turn.handlers.onTool!({ id: 'a', status: 'done', result: '3 hits' })
    turn.handlers.onSources!([{ title: 'T', url: 'https://e.example' }])
    const reply = chat.messages.at(-1)!
    expect(reply.tools).toEqual([
      { id: 'a', name: 'web_search', label: 'Searching', detail: 'q', status: 'done', result: '3 hits' },
    ])
    expect(reply.sources).toEqual([{ title: 'T', url: 'https://e.example' }])
  })

  it('ignores empty input and a second send while streaming', () => {
    const { chat } = setup()
    expect(chat.send('   ')).toBe(false)
    fakeTurn()
    expect(chat.send('one')).toBe(true)
    expect(chat.send('two')).toBe(false)
    expect(chatApi.streamTurn).toHaveBeenCalledTimes(1)
  })

  it('keeps a turn streaming while another session is open', async () => {
    const { chat, sessions } = setup()
    sessions.sessions = [session('s1'), session('s2')]
    const turn = fakeTurn()
    chat.send('hi')
    sessions.select('s2')
    await flush()
    expect(chat.isStreaming).toBe(false)
    expect(chat.messages).toHaveLength(0)
    turn.handlers.onChunk!('still going')
    sessions.select('s1')
    await flush()
    expect(chat.isStreaming).toBe(true)
    expect(chat.messages.at(-1)?.content).toBe('still going')
  })
})
