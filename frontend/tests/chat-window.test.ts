import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import ChatWindow from '@/components/chat/ChatWindow.vue'
import { useChatStore } from '@/stores/chat'
import { useSessionStore } from '@/stores/sessions'
import { fromStored } from '@/utils/turn'
import { flush, testI18n } from './helpers'

vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn() }))
vi.mock('@/api/sessions', async (orig) => ({ ...(await orig<typeof import('@/api/sessions')>()), messages: vi.fn(async () => []) }))
vi.mock('@/api/models', () => ({ options: vi.fn(async () => ({ defaultModel: 'openai/x', presets: [], discovered: [], configured: true })) }))

beforeEach(() => setActivePinia(createPinia()))

const stored = (i: number) =>
  fromStored({
    id: i + 1, sessionId: 's', role: i % 2 ? 'assistant' : 'user', content: `message ${i}`,
    status: 'complete', error: '', model: '', createdAt: '2026-01-01T00:00:00Z', archived: false, tools: [],
  } as never)

describe('ChatWindow', () => {
  it('renders only the newest 100 messages of a long session and shows earlier ones on request', async () => {
    const chat = useChatStore()
    chat.stored = Array.from({ length: 250 }, (_, i) => stored(i))
    const w = mount(ChatWindow, { global: { plugins: [testI18n()] } })
    await flush()
    const bubbles = () => w.findAll('[data-testid="message"]')
    expect(bubbles()).toHaveLength(100)
    expect(w.text()).toContain('message 249')
    expect(w.text()).not.toContain('message 149 ')
    await w.get('[data-testid="show-earlier"]').trigger('click')
    expect(bubbles()).toHaveLength(200)
    await w.get('[data-testid="show-earlier"]').trigger('click')
    expect(bubbles()).toHaveLength(250)
    expect(w.find('[data-testid="show-earlier"]').exists()).toBe(false)
  })

  it('opens a long chat with its newest 6 messages, then grows to 100 between frames (issue 22: start-up)', async () => {
    // Mounting 100 bubbles at once held the main thread for ~430 ms when a
    // 1,000-message chat opened at start-up: a key typed meanwhile waited.
    vi.useFakeTimers()
    try {
      const sessionsApi = vi.mocked(await import('@/api/sessions'))
      sessionsApi.messages.mockResolvedValueOnce(Array.from({ length: 250 }, (_, i) => stored(i)) as never)
      const sessions = useSessionStore()
      const w = mount(ChatWindow, { global: { plugins: [testI18n()] } })
      sessions.currentId = 's' // the chat store loads its messages
      await vi.advanceTimersByTimeAsync(0)
      const bubbles = () => w.findAll('[data-testid="message"]')
      expect(bubbles()).toHaveLength(6)
      expect(w.text()).toContain('message 249')
      expect(w.find('[data-testid="show-earlier"]').exists()).toBe(false) // not while it grows
      await vi.advanceTimersByTimeAsync(40)
      expect(bubbles()).toHaveLength(16)
      // The view stays at the end while it grows and when "Show earlier"
      // appears above the messages at the end (it settled 60 px short).
      const scroller = w.get('[data-testid="scroller"]').element as HTMLElement
      Object.defineProperty(scroller, 'scrollHeight', {
        configurable: true,
        get: () => 100 * w.findAll('[data-testid="message"]').length + (w.find('[data-testid="show-earlier"]').exists() ? 60 : 0),
      })
      await vi.runAllTimersAsync()
      expect(bubbles()).toHaveLength(100)
      expect(w.find('[data-testid="show-earlier"]').exists()).toBe(true)
      expect(scroller.scrollTop).toBe(100 * 100 + 60)
      w.unmount()
    } finally {
      vi.useRealTimers()
    }
  })
})
