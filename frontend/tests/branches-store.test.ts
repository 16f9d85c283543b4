import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { TurnEnd, TurnHandle, TurnHandlers } from '@/api/chat'
import type { Message, Session, TurnStart } from '@/api/types'
import { useBranchStore } from '@/stores/branches'
import { setChatFrameScheduler, useChatStore } from '@/stores/chat'
import { useDraftStore } from '@/stores/drafts'
import { useSessionStore } from '@/stores/sessions'
import type { FrameScheduler } from '@/utils/frameBatcher'
import { fromStored } from '@/utils/turn'
import { flush } from './helpers'

vi.mock('@/api/chat', () => ({ streamTurn: vi.fn(), regenerateTurn: vi.fn(), editTurn: vi.fn() }))
vi.mock('@/api/sessions', () => ({
  list: vi.fn(async () => []),
  messages: vi.fn(async () => []),
  selectBranch: vi.fn(async () => []),
}))
vi.mock('@/api/notes', () => ({ list: vi.fn(async () => []), pins: vi.fn(async () => []), setPins: vi.fn() }))

const chatApi = vi.mocked(await import('@/api/chat'))
const sessionsApi = vi.mocked(await import('@/api/sessions'))

const session = (id: string, model = ''): Session => ({
  id, title: id, model, createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z',
})
const msg = (id: number, role: string, content: string, extra: Partial<Message> = {}): Message => ({
  id, sessionId: 's1', role, content, status: 'complete', error: '', model: 'openai/x',
  createdAt: '2025-01-01T00:00:00Z', archived: false, forgotten: false, ...extra,
})

/** A turn handle the test ends by hand. */
function fakeHandle() {
  let resolveDone!: (e: TurnEnd) => void
  let rejectStart!: (e: Error) => void
  const started = new Promise<TurnStart>((_res, rej) => (rejectStart = rej))
  started.catch(() => {})
  const done = new Promise<TurnEnd>((r) => (resolveDone = r))
  const handle: TurnHandle = { turnId: 'T', started, done, stop: vi.fn(async () => {}) }
  return { handle, end: (e: TurnEnd) => resolveDone(e), failStart: (e: string) => rejectStart(new Error(e)) }
}

const immediate: FrameScheduler = { frame: (cb) => (cb(), () => {}), timeout: () => () => {} }

function setup() {
  setActivePinia(createPinia())
  const sessions = useSessionStore()
  sessions.sessions = [session('s1', 'openai/a')]
  sessions.currentId = 's1'
  const chat = useChatStore()
  chat.stored = [
    msg(1, 'user', 'q1'), msg(2, 'assistant', 'r1'), msg(3, 'user', 'q2'), msg(4, 'assistant', 'r2'),
  ].map(fromStored)
  return { chat, branches: useBranchStore(), drafts: useDraftStore() }
}

beforeEach(() => {
  vi.clearAllMocks()
  setChatFrameScheduler(immediate)
  // After a turn the store refreshes the list; it must still hold the open session.
  sessionsApi.list.mockResolvedValue([session('s1', 'openai/a')])
})

describe('branch store', () => {
  it('regenerates with the chosen model, showing the question and a new pending reply in place of the old one', async () => {
    const { chat, branches } = setup()
    const t = fakeHandle()
    let handlers: TurnHandlers = {}
    chatApi.regenerateTurn.mockImplementationOnce((_i, h) => ((handlers = h ?? {}), t.handle))
    expect(branches.regenerate('anthropic/b')).toBe(true)
    expect(chatApi.regenerateTurn).toHaveBeenCalledWith({ sessionId: 's1', model: 'anthropic/b' }, expect.anything())
    handlers.onChunk!('new answer')
    expect(chat.messages.map((m) => m.content)).toEqual(['q1', 'r1', 'q2', 'new answer'])
    expect(chat.messages[3]).toMatchObject({ role: 'assistant', pending: true, model: 'anthropic/b' })

    sessionsApi.messages.mockResolvedValueOnce([
      msg(1, 'user', 'q1'), msg(2, 'assistant', 'r1'), msg(3, 'user', 'q2'),
      msg(5, 'assistant', 'new answer', { siblingIds: [4, 5] }),
    ])
    t.end({ ok: true })
    await flush()
    expect(chat.messages.map((m) => m.content)).toEqual(['q1', 'r1', 'q2', 'new answer'])
    expect(chat.messages[3].siblingIds).toEqual([4, 5])
  })

  it('resends an edited question under the same parent, hiding the old version below it', () => {
    const { chat, branches } = setup()
    branches.startEdit(3)
    expect(branches.editingId).toBe(3)
    chatApi.editTurn.mockImplementationOnce(() => fakeHandle().handle)
    expect(branches.resend(3, '  q2 edited  ')).toBe(true)
    expect(branches.editingId).toBe(0)
    expect(chatApi.editTurn).toHaveBeenCalledWith(
      { sessionId: 's1', messageId: 3, text: 'q2 edited', model: 'openai/a' }, expect.anything(),
    )
    expect(chat.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'q1'], ['assistant', 'r1'], ['user', 'q2 edited'], ['assistant', ''],
    ])
    expect(branches.resend(1, 'again')).toBe(false) // a reply is streaming
  })

  it('gives a refused edit back to the message box and shows the branch again', async () => {
    const { branches, drafts } = setup()
    const t = fakeHandle()
    chatApi.editTurn.mockImplementationOnce(() => t.handle)
    branches.resend(3, 'q2 edited')
    t.end({ ok: false, error: { code: '', message: 'summarised' }, started: false })
    await flush()
    expect(drafts.get('s1')).toBe('q2 edited')
    expect(sessionsApi.messages).toHaveBeenCalledWith('s1')
  })

  it('edits the last of the user\u2019s messages on Up, but not a summarised one', () => {
    const { chat, branches } = setup()
    expect(branches.editLast()).toBe(true)
    expect(branches.editingId).toBe(3)
    branches.cancelEdit()
    chat.stored = [msg(1, 'user', 'q1', { archived: true }), msg(2, 'assistant', 'r1', { archived: true })].map(fromStored)
    expect(branches.editLast()).toBe(false)
    expect(branches.editingId).toBe(0)
  })

  it('switches to another version and shows the branch the backend returns', async () => {
    const { chat, branches } = setup()
    sessionsApi.selectBranch.mockResolvedValueOnce([
      msg(1, 'user', 'q1'), msg(2, 'assistant', 'r1'), msg(6, 'user', 'other', { siblingIds: [3, 6] }),
    ])
    await branches.switchTo(6)
    expect(sessionsApi.selectBranch).toHaveBeenCalledWith('s1', 6)
    expect(chat.messages.map((m) => m.content)).toEqual(['q1', 'r1', 'other'])
    expect(chat.messages[0]).toBe(chat.stored[0]) // unchanged messages keep their objects
  })
})
