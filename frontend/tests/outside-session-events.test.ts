import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent } from 'vue'
import type { Message, Session } from '@/api/types'
import { useOutsideSessionEvents } from '@/composables/useOutsideSessionEvents'
import { useChatStore } from '@/stores/chat'
import { REFRESH_DEBOUNCE_MS, useSessionStore } from '@/stores/sessions'

const handlers = new Map<string, (v: unknown) => void>()
vi.mock('../wailsjs/runtime/runtime', () => ({
  EventsOn: vi.fn((name: string, fn: (v: unknown) => void) => {
    handlers.set(name, fn)
    return () => handlers.delete(name)
  }),
  BrowserOpenURL: vi.fn(),
}))
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

const s = (id: string, updatedAt: string): Session => ({
  id, title: 'Discord #general', model: '', createdAt: '2026-12-01T00:00:00Z', updatedAt,
})
const m = (id: number, role: 'user' | 'assistant', content: string) =>
  ({ id, sessionId: 'd1', role, content, createdAt: '2026-12-01T00:00:00Z' }) as unknown as Message

const Host = defineComponent({ setup: () => useOutsideSessionEvents(), template: '<div />' })

beforeEach(() => {
  setActivePinia(createPinia())
  vi.clearAllMocks()
  handlers.clear()
  vi.useFakeTimers()
})
afterEach(() => vi.useRealTimers())

// A Discord mention runs a turn in its channel's session outside the
// window: the chat list picks it up and the open chat shows the reply.
describe('useOutsideSessionEvents', () => {
  it('refreshes the chat list and reloads the open chat on sessions:changed', async () => {
    const sessions = useSessionStore()
    const chat = useChatStore()
    api.list.mockResolvedValue([s('d1', '2026-12-01T00:00:00Z')])
    await sessions.load()
    sessions.select('d1')
    await flushPromises()
    const w = mount(Host)

    api.list.mockResolvedValue([s('d1', '2026-12-01T00:05:00Z'), s('d2', '2026-12-01T00:06:00Z')])
    api.messages.mockResolvedValue([m(1, 'user', '天気は？'), m(2, 'assistant', '明日は晴れ')] as never)
    handlers.get('sessions:changed')!('d1')
    await flushPromises()
    expect(chat.stored.map((x) => x.content)).toEqual(['天気は？', '明日は晴れ'])

    vi.advanceTimersByTime(REFRESH_DEBOUNCE_MS + 10)
    await flushPromises()
    expect(sessions.sorted.map((x) => x.id)).toEqual(['d2', 'd1'])

    // Another chat's change refreshes only the list.
    api.messages.mockClear()
    handlers.get('sessions:changed')!('d2')
    await flushPromises()
    expect(api.messages).not.toHaveBeenCalled()

    w.unmount()
    expect(handlers.has('sessions:changed')).toBe(false)
  })
})
