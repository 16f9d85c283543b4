// Older replies keep rendered Markdown only while near the visible area.
import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import ChatWindow from '@/components/ChatWindow.vue'
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
    const items = () => w.findAll('[data-test="message"]')
    expect(items()).toHaveLength(40)
    // 12 newest are eager: 6 of them replies; the 14 older replies wait.
    expect(w.findAll('strong')).toHaveLength(6)
    expect(w.findAll('[data-test="md-placeholder"]')).toHaveLength(14)
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
    expect(old.find('[data-test="md-placeholder"]').exists()).toBe(true)

    // Leaving the window leaves nothing observed behind.
    const root = w.get('[data-test="scroller"]').element as HTMLElement
    chat.stored = chat.stored.slice(30)
    await flush()
    expect(observedCount(root)).toBe(10)
    w.unmount()
    expect(observedCount(root)).toBe(0)
    expect(io.targets.size).toBe(0)
  })
})
