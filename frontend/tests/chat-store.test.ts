import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { watch } from 'vue'
import type { TurnEnd, TurnHandlers } from '@/api/chat'
import type { Message, Session, TurnStart } from '@/api/types'
import { setChatFrameScheduler, useChatStore } from '@/stores/chat'
import { useDraftStore } from '@/stores/drafts'
import { useSessionStore } from '@/stores/sessions'
import { useToastStore } from '@/stores/toasts'
import type { FrameScheduler } from '@/utils/frameBatcher'
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

/** Frames that come at once: every chunk is applied as it arrives. */
const immediateFrames: FrameScheduler = { frame: (cb) => (cb(), () => {}), timeout: () => () => {} }

/** Frames the test runs by hand; counts how many were asked for. */
function manualFrames() {
  let queued: (() => void)[] = []
  let requested = 0
  const scheduler: FrameScheduler = {
    frame(cb) {
      requested++
      queued.push(cb)
      return () => (queued = queued.filter((f) => f !== cb))
    },
    timeout: () => () => {},
  }
  setChatFrameScheduler(scheduler)
  return {
    get requested() { return requested },
    run() {
      const fs = queued
      queued = []
      fs.forEach((f) => f())
    },
  }
}

beforeEach(() => {
  vi.clearAllMocks()
  setChatFrameScheduler(immediateFrames)
  sessionsApi.messages.mockResolvedValue([])
  // After a turn the store refreshes the list; it must still hold the open session.
  sessionsApi.list.mockResolvedValue([session('s1'), session('s2')])
})

describe('chat store', () => {
  it('sends with the session and its model, and accumulates chunks in the pending reply', async () => {
    const { chat } = setup()
    const turn = fakeTurn()
    expect(chat.send('  hello  ')).toBe(true)
    expect(turn.input).toEqual({ sessionId: 's1', text: 'hello', model: 'openai/gpt-4o-mini', notePageIds: [], assistantId: 0, attachmentIds: [] })
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
    turn.end({ ok: false, error: { code: '', message: 'rate limited' }, started: true })
    await flush()
    expect(chat.lastError?.message).toBe('rate limited')
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
    turn.end({ ok: false, error: { code: '', message: 'connection reset' }, started: true })
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
    turn.end({ ok: false, error: { code: '', message: 'rate limited' }, started: true })
    await flush()
    expect(chat.messages[1]).toMatchObject({ content: '', status: 'error', error: 'rate limited' })
  })

  it('when Send itself fails, gives the text back to that chat\'s draft and does not reload', async () => {
    const { chat, toasts, drafts } = setup()
    const turn = fakeTurn()
    chat.send('keep me')
    turn.failStart('no model configured')
    turn.end({ ok: false, error: { code: '', message: 'no model configured' }, started: false })
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
    turn.end({ ok: false, error: { code: '', message: 'offline' }, started: false })
    await flush()
    expect(drafts.get(null)).toBe('first try')

    const again = fakeTurn('T2')
    drafts.set(null, '')
    chat.send('second try')
    drafts.set(null, 'typed meanwhile')
    again.failStart('offline')
    again.end({ ok: false, error: { code: '', message: 'offline' }, started: false })
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
    expect(turn.input).toEqual({ sessionId: '', text: 'first message', model: 'ollama/llama3.1', notePageIds: [], assistantId: 0, attachmentIds: [] })
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

describe('chat store under a flood of chunks', () => {
  it('applies 20,000 one-character chunks once per frame and ends with the complete text', async () => {
    const frames = manualFrames()
    const { chat } = setup()
    const turn = fakeTurn()
    chat.send('flood')
    turn.start({})
    await flush()
    const reply = () => chat.messages.at(-1)!
    let applies = 0
    const stopWatch = watch(() => reply().content, () => applies++, { flush: 'sync' })
    const text = Array.from({ length: 20000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('')
    for (let i = 0; i < text.length; i++) {
      turn.handlers.onChunk!(text[i])
      if (i % 1000 === 999) frames.run() // ~20 frames while the flood lasts
    }
    expect(applies).toBe(20)
    expect(frames.requested).toBe(20)
    expect(reply().content).toBe(text)
    // The last chunks, still waiting for a frame, are applied when the turn ends.
    turn.handlers.onChunk!('!')
    sessionsApi.messages.mockRejectedValueOnce(new Error('db busy')) // keep the live copy
    turn.end({ ok: true })
    await flush()
    expect(chat.messages.at(-1)!.content).toBe(text + '!')
    expect(applies).toBe(21)
    stopWatch()
  })

  it('a reply that ends before any frame comes still shows all its text', async () => {
    manualFrames() // frames never run: a hidden window with no timers either
    const { chat } = setup()
    const turn = fakeTurn()
    chat.send('hi')
    turn.start({})
    for (const ch of 'complete text') turn.handlers.onChunk!(ch)
    sessionsApi.messages.mockRejectedValueOnce(new Error('db busy'))
    turn.end({ ok: false, error: { code: '', message: 'connection reset' }, started: true })
    await flush()
    expect(chat.messages.at(-1)).toMatchObject({ content: 'complete text', status: 'partial' })
  })

  it('Stop during a flood shows stopping at once and the reply stops moving', async () => {
    const frames = manualFrames()
    const { chat } = setup()
    const turn = fakeTurn()
    chat.send('flood')
    turn.start({})
    await flush()
    for (let i = 0; i < 500; i++) turn.handlers.onChunk!('x')
    frames.run()
    for (let i = 0; i < 30; i++) turn.handlers.onChunk!('y')
    const stopping = chat.stop()
    // Synchronously: what arrived up to the click is shown, the turn is stopping.
    expect(chat.currentTurn?.status).toBe('stopping')
    expect(chat.messages.at(-1)!.content).toBe('x'.repeat(500) + 'y'.repeat(30))
    await stopping
    expect(turn.stop).toHaveBeenCalledTimes(1)
    // The backend is still sending while it cancels: nothing more moves.
    for (let i = 0; i < 5000; i++) turn.handlers.onChunk!('z')
    frames.run()
    expect(chat.messages.at(-1)!.content).toBe('x'.repeat(500) + 'y'.repeat(30))
    // The stored partial reply replaces the live one.
    sessionsApi.messages.mockResolvedValue([msg(1, 'user', 'flood'), { ...msg(2, 'assistant', 'xxxx', 'partial'), error: 'stopped' }])
    turn.end({ ok: true })
    await flush()
    expect(chat.isStreaming).toBe(false)
    expect(chat.messages.at(-1)).toMatchObject({ content: 'xxxx', status: 'partial' })
  })

  it('a Stop that fails shows the text held back meanwhile and streams on', async () => {
    const frames = manualFrames()
    const { chat, toasts } = setup()
    const turn = fakeTurn()
    chat.send('flood')
    turn.start({})
    await flush()
    let failStop!: (e: Error) => void
    turn.stop.mockImplementationOnce(() => new Promise<void>((_, rej) => (failStop = rej)))
    turn.handlers.onChunk!('a')
    const stopping = chat.stop()
    turn.handlers.onChunk!('b')
    frames.run()
    expect(chat.messages.at(-1)!.content).toBe('a')
    failStop(new Error('stop failed'))
    await stopping
    expect(chat.currentTurn?.status).toBe('streaming')
    expect(chat.messages.at(-1)!.content).toBe('ab')
    expect(toasts.toasts.map((t) => t.message)).toEqual(['stop failed'])
    turn.handlers.onChunk!('c')
    frames.run()
    expect(chat.messages.at(-1)!.content).toBe('abc')
  })
})

describe('reloading the history after a turn', () => {
  it('keeps the objects of messages that did not change, so their bubbles do not render again', async () => {
    const { chat } = setup()
    const history = [msg(1, 'user', 'a'), msg(2, 'assistant', 'b'), msg(3, 'user', 'c'), msg(4, 'assistant', 'd')]
    sessionsApi.messages.mockResolvedValue(history)
    await chat.loadMessages('s1')
    const before = chat.stored
    // Nothing changed: the very same array.
    await chat.loadMessages('s1')
    expect(chat.stored).toBe(before)
    // A turn added two messages and the summariser archived the first two.
    sessionsApi.messages.mockResolvedValue([
      { ...history[0], archived: true }, { ...history[1], archived: true }, history[2], history[3],
      msg(5, 'user', 'e'), msg(6, 'assistant', 'f'),
    ])
    await chat.loadMessages('s1')
    expect(chat.stored).toHaveLength(6)
    expect(chat.stored[0]).not.toBe(before[0])
    expect(chat.stored[0].archived).toBe(true)
    expect(chat.stored[2]).toBe(before[2])
    expect(chat.stored[3]).toBe(before[3])
  })
})

describe('a reply being written by another playchat (issue 21)', () => {
  it('is read again until its writer finished or ended', async () => {
    vi.useFakeTimers()
    try {
      const { chat } = setup()
      sessionsApi.messages
        .mockResolvedValueOnce([msg(1, 'user', 'q'), msg(2, 'assistant', 'so far', 'streaming')])
        .mockResolvedValueOnce([msg(1, 'user', 'q'), msg(2, 'assistant', 'so far, and more', 'streaming')])
        .mockResolvedValueOnce([msg(1, 'user', 'q'), { ...msg(2, 'assistant', 'so far, and more', 'partial'), error: 'interrupted' }])
      await chat.loadMessages('s1')
      expect(chat.messages.map((m) => m.status)).toEqual(['complete', 'streaming'])
      await vi.advanceTimersByTimeAsync(2000)
      expect(chat.messages[1].content).toBe('so far, and more')
      await vi.advanceTimersByTimeAsync(2000)
      expect(chat.messages[1].status).toBe('partial')
      const calls = sessionsApi.messages.mock.calls.length
      await vi.advanceTimersByTimeAsync(10000)
      expect(sessionsApi.messages.mock.calls.length).toBe(calls) // no more reads once it ended
    } finally {
      vi.useRealTimers()
    }
  })
})
