// Issue 21: a question whose reply failed is shown as unanswered, with Retry
// and Remove, and a draft too long for the model cannot be sent.
import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { TurnEnd, TurnHandle, TurnHandlers } from '@/api/chat'
import type { ContextReport } from '@/api/context'
import type { TurnStart } from '@/api/types'
import UnansweredActions from '@/components/branches/UnansweredActions.vue'
import ContextReportPanel from '@/components/context/ContextReportPanel.vue'
import MessageInput from '@/components/chat/MessageInput.vue'
import { useBranchStore } from '@/stores/branches'
import { setChatFrameScheduler, useChatStore } from '@/stores/chat'
import { useDraftStore } from '@/stores/drafts'
import { useSessionStore } from '@/stores/sessions'
import type { FrameScheduler } from '@/utils/frameBatcher'
import { fromStored } from '@/utils/turn'
import { flush, storedMessage, storedSession, testI18n } from './helpers'

vi.mock('@/api/chat', () => ({
  streamTurn: vi.fn(), regenerateTurn: vi.fn(), editTurn: vi.fn(), removeUnanswered: vi.fn(),
}))
vi.mock('@/api/sessions', () => ({
  list: vi.fn(async () => []),
  messages: vi.fn(async () => []),
  selectBranch: vi.fn(async () => []),
}))
vi.mock('@/api/notes', () => ({ list: vi.fn(async () => []), pins: vi.fn(async () => []), setPins: vi.fn() }))

const chatApi = vi.mocked(await import('@/api/chat'))
const sessionsApi = vi.mocked(await import('@/api/sessions'))

const session = storedSession
const msg = storedMessage
const immediate: FrameScheduler = { frame: (cb) => (cb(), () => {}), timeout: () => () => {} }

function handle(): { handle: TurnHandle; end: (e: TurnEnd) => void } {
  let resolveDone!: (e: TurnEnd) => void
  const started = new Promise<TurnStart>(() => {})
  const done = new Promise<TurnEnd>((r) => (resolveDone = r))
  return { handle: { turnId: 'T', started, done, stop: vi.fn(async () => {}) }, end: (e) => resolveDone(e) }
}

function setup() {
  setActivePinia(createPinia())
  const sessions = useSessionStore()
  sessions.sessions = [session('s1')]
  sessions.currentId = 's1'
  const chat = useChatStore()
  chat.stored = [
    msg(1, 'user', 'q1'), msg(2, 'assistant', 'r1'),
    msg(3, 'user', 'the failed question', { unanswered: true }),
    msg(4, 'assistant', '', { status: 'error', error: 'HTTP 429' }),
    msg(5, 'user', 'q3'), msg(6, 'assistant', 'r3'),
  ].map(fromStored)
  return { chat, branches: useBranchStore(), drafts: useDraftStore() }
}

beforeEach(() => {
  vi.clearAllMocks()
  localStorage.clear()
  setChatFrameScheduler(immediate)
  sessionsApi.list.mockResolvedValue([session('s1')])
})

describe('an unanswered question', () => {
  it('Retry answers that question again, showing the branch up to it', async () => {
    const { chat, branches } = setup()
    const t = handle()
    let handlers: TurnHandlers = {}
    chatApi.regenerateTurn.mockImplementationOnce((_i, h) => ((handlers = h ?? {}), t.handle))
    expect(branches.retry(3)).toBe(true)
    expect(chatApi.regenerateTurn).toHaveBeenCalledWith({ sessionId: 's1', model: 'openai/a', questionId: 3 }, expect.anything())
    handlers.onChunk!('an answer at last')
    expect(chat.messages.map((m) => m.content)).toEqual(['q1', 'r1', 'the failed question', 'an answer at last'])
    expect(chat.messages[2].unanswered).toBe(false)
    t.end({ ok: true })
    await flush()
  })

  it('Remove takes it away, keeps the later messages and gives its text back to an empty box', async () => {
    const { chat, branches, drafts } = setup()
    chatApi.removeUnanswered.mockResolvedValueOnce([
      msg(1, 'user', 'q1'), msg(2, 'assistant', 'r1'), msg(5, 'user', 'q3'), msg(6, 'assistant', 'r3'),
    ])
    expect(await branches.removeUnanswered(3)).toBe(true)
    expect(chatApi.removeUnanswered).toHaveBeenCalledWith('s1', 3)
    expect(chat.stored.map((m) => m.content)).toEqual(['q1', 'r1', 'q3', 'r3'])
    expect(drafts.get('s1')).toBe('the failed question')
  })

  it('Remove never overwrites what the user is typing', async () => {
    const { branches, drafts } = setup()
    drafts.set('s1', 'something new')
    chatApi.removeUnanswered.mockResolvedValueOnce([])
    await branches.removeUnanswered(3)
    expect(drafts.get('s1')).toBe('something new')
  })

  it('shows its mark with Retry and Remove buttons that call the store', async () => {
    const { chat, branches } = setup()
    const retry = vi.spyOn(branches, 'retry').mockReturnValue(true)
    const remove = vi.spyOn(branches, 'removeUnanswered').mockResolvedValue(true)
    const w = mount(UnansweredActions, { props: { message: chat.stored[2] }, global: { plugins: [testI18n()] } })
    expect(w.text()).toContain('Not answered')
    await w.get('[data-testid="unanswered-retry"]').trigger('click')
    await w.get('[data-testid="unanswered-remove"]').trigger('click')
    expect(retry).toHaveBeenCalledWith(3)
    expect(remove).toHaveBeenCalledWith(3)
  })
})

describe('a draft too long for the model', () => {
  it('cannot be sent: Send is disabled with the reason and Enter keeps the text', async () => {
    setActivePinia(createPinia())
    const w = mount(MessageInput, {
      props: { modelValue: 'x'.repeat(50), blocked: 'Too long to send: shorten it by about 12k tokens' },
      global: { plugins: [testI18n()] },
    })
    const send = w.get('[data-testid="send"]')
    expect(send.attributes('disabled')).toBeDefined()
    expect(send.attributes('title')).toContain('shorten it')
    await w.get('[data-testid="message-input"]').trigger('keydown', { key: 'Enter' })
    expect(w.emitted('send')).toBeUndefined()
  })

  it('the meter says how much to cut, never "nothing was left out"', () => {
    const report = {
      model: 'openai/a', window: 8192, output: 1024, input: 6800, used: 52000, prompt: 60, message: 51940,
      layers: [], history: { sent: 0, tokens: 0, leftOut: 3 }, preview: true, tooLong: true,
    } as unknown as ContextReport
    const w = mount(ContextReportPanel, { props: { report, title: 'Next' }, global: { plugins: [testI18n()] } })
    expect(w.get('[data-testid="context-too-long"]').text()).toContain('at most 6.7k fit')
    expect(w.find('[data-testid="context-nothing-left-out"]').exists()).toBe(false)
    expect(w.find('[data-testid="context-left-out"]').exists()).toBe(false)
  })
})
