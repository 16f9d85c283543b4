// Older replies keep rendered Markdown only while near the visible area.
import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import ChatWindow from '@/components/chat/ChatWindow.vue'
import { observedCount } from '@/composables/useNearViewport'
import { useChatStore } from '@/stores/chat'
import { fromStored } from '@/utils/turn'
import { flush, testI18n } from './helpers'

vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn() }))
vi.mock('@/api/models', () => ({ options: vi.fn(async () => ({ defaultModel: 'openai/x', presets: [], discovered: [], configured: true })) }))

/** An IntersectionObserver the test drives: it says which elements are near. */
class FakeIO {
  static all: FakeIO[] = []
  targets = new Set<Element>()
  constructor(private cb: IntersectionObserverCallback) {
    FakeIO.all.push(this)
  }
  observe(el: Element) {
    this.targets.add(el)
  }
  unobserve(el: Element) {
    this.targets.delete(el)
  }
  disconnect() {
    this.targets.clear()
  }
  report(el: Element, near: boolean) {
    this.cb([{ target: el, isIntersecting: near } as IntersectionObserverEntry], this as never)
  }
}

beforeEach(() => {
  setActivePinia(createPinia())
  FakeIO.all = []
  vi.stubGlobal('IntersectionObserver', FakeIO)
})
afterEach(() => vi.unstubAllGlobals())

const stored = (i: number) =>
  fromStored({
    id: i + 1, sessionId: 's', role: i % 2 ? 'assistant' : 'user', content: `**reply ${i}**`,
    status: 'complete', error: '', model: '', createdAt: '2026-01-01T00:00:00Z', archived: false, tools: [],
  } as never)

describe('ChatWindow with a long chat', () => {
  it('renders the newest replies at once and older ones only while near the visible area', async () => {
    const chat = useChatStore()
    chat.stored = Array.from({ length: 40 }, (_, i) => stored(i))
    const w = mount(ChatWindow, { global: { plugins: [testI18n()] } })
    await flush()
    const items = () => w.findAll('[data-testid="message"]')
    expect(items()).toHaveLength(40)
    // 12 newest are eager: 6 of them replies; the 14 older replies wait.
    expect(w.findAll('strong')).toHaveLength(6)
    expect(w.findAll('[data-testid="md-placeholder"]')).toHaveLength(14)
    const io = FakeIO.all[0]
    expect(FakeIO.all).toHaveLength(1) // one observer for all messages
    expect(io.targets.size).toBe(40)

    const old = items()[5] // reply 5
    io.report(old.element, true)
    await flush()
    expect(old.find('strong').text()).toBe('reply 5')
    io.report(old.element, false)
    await flush()
    expect(old.find('strong').exists()).toBe(false)
    expect(old.find('[data-testid="md-placeholder"]').exists()).toBe(true)

    // Leaving the window leaves nothing observed behind.
    const root = w.get('[data-testid="scroller"]').element as HTMLElement
    chat.stored = chat.stored.slice(30)
    await flush()
    expect(observedCount(root)).toBe(10)
    w.unmount()
    expect(observedCount(root)).toBe(0)
    expect(io.targets.size).toBe(0)
  })
})

// Issue 21: a 1 MiB reply shown whole kept every section in the DOM, and
// each of WebKit's memory releases then held the window for 20–30 s; its
// sections now render only near the visible area, like older replies.
describe('a long reply shown whole', () => {
  it('renders only the sections near the visible area and keeps the height of the others', async () => {
    const chat = useChatStore()
    const para = (i: number) => `Paragraph ${i}: ` + 'the quick brown fox jumps over the lazy dog. '.repeat(8)
    const content = Array.from({ length: 1500 }, (_, i) => para(i)).join('\n\n') + '\n\nLONGEND'
    chat.stored = [stored(0), fromStored({
      id: 2, sessionId: 's', role: 'assistant', content, status: 'complete', error: '', model: '',
      createdAt: '2026-01-01T00:00:00Z', archived: false, tools: [],
    } as never)]
    const w = mount(ChatWindow, { global: { plugins: [testI18n()] }, attachTo: document.body })
    await flush()
    await w.get('[data-testid="show-all"]').trigger('click')
    for (let i = 0; i < 400 && w.find('[data-testid="md-more"]').exists(); i++) await flush()
    const sections = () => w.findAll('[data-testid="md-section"]')
    expect(sections().length).toBeGreaterThan(20)
    // Nothing has been reported near yet: only placeholders, with a height.
    const io = FakeIO.all[0]
    for (const s of sections()) io.report(s.element, false)
    await flush()
    expect(w.findAll('[data-testid="md-section"][data-rendered]')).toHaveLength(0)
    expect(w.text()).not.toContain('LONGEND')
    const ph = w.get('.md-section-placeholder').attributes('style')
    expect(ph).toMatch(/height: [1-9]\d*px/)
    // The last section comes near (the chat scrolled to its end): it renders.
    const last = sections()[sections().length - 1]
    io.report(last.element, true)
    await flush()
    expect(w.findAll('[data-testid="md-section"][data-rendered]')).toHaveLength(1)
    expect(w.text()).toContain('LONGEND')
    // Leaving the chat leaves no observed element behind.
    const root = w.get('[data-testid="scroller"]').element as HTMLElement
    expect(observedCount(root)).toBeGreaterThan(20)
    w.unmount()
    expect(observedCount(root)).toBe(0)
  }, 30_000)
})
