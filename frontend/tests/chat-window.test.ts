import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import ChatWindow from '@/components/chat/ChatWindow.vue'
import { useChatStore } from '@/stores/chat'
import { fromStored } from '@/utils/turn'
import { flush, testI18n } from './helpers'

vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn() }))
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
})
