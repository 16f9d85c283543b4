// The chat window under a flood of streamed chunks: bounded rendering work,
// finished blocks' DOM kept, the complete text at the end.
import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { nextTick } from 'vue'
import type { TurnEnd, TurnHandlers } from '@/api/chat'
import type { TurnStart } from '@/api/types'
import ChatWindow from '@/components/chat/ChatWindow.vue'
import MarkdownContent from '@/components/markdown/MarkdownContent.vue'
import { setChatFrameScheduler, useChatStore } from '@/stores/chat'
import { useSessionStore } from '@/stores/sessions'
import type { FrameScheduler } from '@/utils/frameBatcher'
import { clearMarkdownCache, markdownStats, renderMarkdown } from '@/markdown/markdown'
import { flush, testI18n } from './helpers'
import { longReply } from './markdownSamples'

vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn() }))
vi.mock('@/api/models', () => ({ options: vi.fn(async () => ({ defaultModel: 'openai/x', presets: [], discovered: [], configured: true })) }))
vi.mock('@/api/chat', () => ({ streamTurn: vi.fn() }))
vi.mock('@/api/sessions', () => ({
  list: vi.fn(async () => [{ id: 's1', title: 's1', model: '', createdAt: '', updatedAt: '' }]),
  messages: vi.fn(async () => []),
}))
vi.mock('@/api/notes', () => ({ list: vi.fn(async () => []), pins: vi.fn(async () => []), setPins: vi.fn(async () => {}) }))

const chatApi = vi.mocked(await import('@/api/chat'))
const sessionsApi = vi.mocked(await import('@/api/sessions'))

let frames: (() => void)[] = []
const scheduler: FrameScheduler = {
  frame(cb) {
    frames.push(cb)
    return () => (frames = frames.filter((f) => f !== cb))
  },
  timeout: () => () => {},
}
function runFrame() {
  const fs = frames
  frames = []
  fs.forEach((f) => f())
}

beforeEach(() => {
  setActivePinia(createPinia())
  setChatFrameScheduler(scheduler)
  frames = []
  clearMarkdownCache()
  markdownStats.blockRenders = 0
  // jsdom renders far slower than WebKit: unless a test says otherwise, a
  // render costs nothing, so MarkdownContent never defers one.
  vi.spyOn(performance, 'now').mockReturnValue(0)
})
afterEach(() => {
  setChatFrameScheduler(undefined)
  vi.restoreAllMocks()
})

const norm = (html: string) => html.replace(/>\s+</g, '><').replace(/<!--[^>]*-->/g, '').trim()
// The rendered blocks without what MarkdownContent adds after rendering (a
// copy button on each code block's header), to compare with renderMarkdown.
const blockHtml = (el: Element) =>
  norm(
    Array.from(el.querySelectorAll('.md-block'))
      .map((b) => {
        const c = b.cloneNode(true) as Element
        c.querySelectorAll('.md-copy').forEach((x) => x.remove())
        return c.innerHTML
      })
      .join(''),
  )

describe('MarkdownContent while a reply streams', () => {
  it('keeps finished blocks\' elements and re-renders only the growing one', async () => {
    const head = '# Title\n\nA finished paragraph.\n\n- one\n- two\n\n'
    const w = mount(MarkdownContent, { props: { content: head + 'Gro', streaming: true }, global: { plugins: [testI18n()] } })
    const first = w.findAll('.md-block').map((x) => x.element)
    expect(first).toHaveLength(4)
    const renders = markdownStats.blockRenders
    const tail = 'Growing tail that keeps growing for a while.'
    for (let n = 4; n <= tail.length; n++) {
      await w.setProps({ content: head + tail.slice(0, n) })
    }
    const now = w.findAll('.md-block').map((x) => x.element)
    // The same DOM elements: nothing was re-created, the finished ones not even touched.
    expect(now.slice(0, 3)).toEqual(first.slice(0, 3))
    expect(now[0]).toBe(first[0])
    expect(now[3]).toBe(first[3])
    expect(markdownStats.blockRenders - renders).toBe(tail.length - 3)
    await w.setProps({ content: head + tail, streaming: false })
    expect(blockHtml(w.element)).toBe(norm(renderMarkdown(head + tail)))
  })
})

describe('ChatWindow under a flood of chunks', () => {
  it('renders 20,000 one-character chunks in a bounded number of block renders and shows the complete text', async () => {
    const sessions = useSessionStore()
    sessions.sessions = [{ id: 's1', title: 's1', model: '', createdAt: '', updatedAt: '' }]
    sessions.currentId = 's1'
    const chat = useChatStore()
    let handlers: TurnHandlers = {}
    let resolveDone!: (e: TurnEnd) => void
    const done = new Promise<TurnEnd>((r) => (resolveDone = r))
    const started = Promise.resolve({ turnId: 'T', sessionId: 's1', model: 'm', userMessage: { id: 1 } } as unknown as TurnStart)
    chatApi.streamTurn.mockImplementationOnce((_i, h) => {
      handlers = h ?? {}
      return { turnId: 'T', started, done, stop: vi.fn(async () => {}) }
    })
    const w = mount(ChatWindow, { global: { plugins: [testI18n()] } })
    await flush()
    chat.send('flood please')
    await flush()

    const text = longReply(20_000)
    const CHUNKS_PER_FRAME = 100 // 20,000 chunks over 200 frames
    let frameCount = 0
    for (let i = 0; i < text.length; i++) {
      handlers.onChunk!(text[i])
      if (i % CHUNKS_PER_FRAME === CHUNKS_PER_FRAME - 1) {
        runFrame()
        frameCount++
        await nextTick()
      }
    }
    runFrame()
    await nextTick()
    const blocks = text.split(/\n{2,}/).length
    // One render of the growing block per frame, plus each block once when it is finished.
    expect(markdownStats.blockRenders).toBeLessThanOrEqual(frameCount + 1 + blocks)
    const reply = w.findAll('[data-testid="message"]').at(-1)!
    expect(blockHtml(reply.element)).toBe(norm(renderMarkdown(text)))
    // every code block got its copy button once
    expect(reply.findAll('.md-copy').length).toBe(reply.findAll('.md-code-head').length)

    // The stored copy replaces the live reply: rendered from the cache, not parsed again.
    sessionsApi.messages.mockResolvedValueOnce([
      { id: 1, sessionId: 's1', role: 'user', content: 'flood please', status: 'complete', error: '', model: 'm', createdAt: '2026-01-01T00:00:00Z', archived: false, forgotten: false },
      { id: 2, sessionId: 's1', role: 'assistant', content: text, status: 'complete', error: '', model: 'm', createdAt: '2026-01-01T00:00:00Z', archived: false, forgotten: false },
    ] as never)
    const before = markdownStats.blockRenders
    resolveDone({ ok: true })
    await flush()
    expect(chat.isStreaming).toBe(false)
    expect(markdownStats.blockRenders - before).toBeLessThanOrEqual(1)
    const stored = w.findAll('[data-testid="message"]').at(-1)!
    expect(blockHtml(stored.element)).toBe(norm(renderMarkdown(text)))
  }, 60_000)
})

describe('MessageItem while stopping', () => {
  it('says "stopping" on a reply that already has text, the moment Stop is pressed', async () => {
    const { default: MessageItem } = await import('@/components/chat/MessageItem.vue')
    const { draftMessage } = await import('@/utils/turn')
    const m = { ...draftMessage('k', 'assistant', 'some text', 'm', 's1') }
    const w = mount(MessageItem, { props: { message: m, stopping: false }, global: { plugins: [testI18n()] } })
    expect(w.find('[data-testid="stopping"]').exists()).toBe(false)
    await w.setProps({ stopping: true })
    expect(w.get('[data-testid="stopping"]').text()).toMatch(/stopping/i)
  })
})

describe('MarkdownContent with a costly growing block', () => {
  it('renders it less often (at most every 4× its cost), and at once when the stream ends', async () => {
    vi.useFakeTimers()
    let now = 0
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (now += 25)) // every render "takes" 25 ms
    try {
      const w = mount(MarkdownContent, { props: { content: 'big', streaming: true }, global: { plugins: [testI18n()] } })
      const renders = markdownStats.blockRenders
      for (let i = 1; i <= 10; i++) await w.setProps({ content: 'big' + 'g'.repeat(i) })
      expect(markdownStats.blockRenders).toBe(renders) // deferred: nothing rendered yet
      vi.advanceTimersByTime(100)
      await nextTick()
      expect(markdownStats.blockRenders).toBe(renders + 1) // one render with the newest text
      expect(w.text()).toBe('big' + 'g'.repeat(10))
      await w.setProps({ content: 'big!' + 'g'.repeat(10) })
      await w.setProps({ content: 'the end', streaming: false })
      expect(w.text()).toBe('the end')
    } finally {
      clock.mockRestore()
      vi.useRealTimers()
    }
  })
})
