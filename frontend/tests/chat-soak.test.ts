// 100 streamed turns through the real adapter, store and window, switching
// sessions now and then: nothing a turn creates outlives it (event listeners,
// per-turn stream state, scheduled frames, observed elements), and what is
// kept for rendering stays bounded.
import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Message } from '@/api/types'
import ChatWindow from '@/components/chat/ChatWindow.vue'
import { observedCount } from '@/composables/useNearViewport'
import { setChatFrameScheduler, useChatStore } from '@/stores/chat'
import { useSessionStore } from '@/stores/sessions'
import type { FrameScheduler } from '@/utils/frameBatcher'
import { BLOCK_CACHE_CHARS, BLOCK_CACHE_ENTRIES, markdownCacheStats } from '@/markdown/markdown'
import { flush, testI18n } from './helpers'

const listeners = new Map<string, (ev: unknown) => void>()
vi.mock('../wailsjs/runtime/runtime', () => ({
  EventsOn: vi.fn((name: string, cb: (ev: unknown) => void) => {
    listeners.set(name, cb)
    return () => listeners.delete(name)
  }),
  BrowserOpenURL: vi.fn(),
}))
vi.mock('../wailsjs/go/app/ChatService', () => ({ Send: vi.fn(), Stop: vi.fn() }))
vi.mock('@/api/models', () => ({ options: vi.fn(async () => ({ defaultModel: 'openai/x', presets: [], discovered: [], configured: true })) }))
vi.mock('@/api/sessions', () => ({ list: vi.fn(), messages: vi.fn() }))
vi.mock('@/api/notes', () => ({ list: vi.fn(async () => []), pins: vi.fn(async () => []), setPins: vi.fn(async () => {}) }))

const ChatService = vi.mocked(await import('../wailsjs/go/app/ChatService'))
const sessionsApi = vi.mocked(await import('@/api/sessions'))

let frames: (() => void)[] = []
const scheduler: FrameScheduler = {
  frame(cb) {
    frames.push(cb)
    return () => (frames = frames.filter((f) => f !== cb))
  },
  timeout: () => () => {},
}

/** The backend's history, per session. */
const db = new Map<string, Message[]>()
let nextId = 1
const row = (sessionId: string, role: string, content: string): Message => ({
  id: nextId++, sessionId, role, content, status: 'complete', error: '', model: 'm',
  createdAt: '2026-01-01T00:00:00Z', archived: false, forgotten: false,
})

/** An IntersectionObserver that never reports: older replies stay placeholders. */
class SilentIO {
  observe() {}
  unobserve() {}
  disconnect() {}
}

beforeEach(() => {
  vi.stubGlobal('IntersectionObserver', SilentIO)
  setActivePinia(createPinia())
  setChatFrameScheduler(scheduler)
  vi.spyOn(performance, 'now').mockReturnValue(0)
  db.set('s1', [])
  db.set('s2', [row('s2', 'user', 'other'), row('s2', 'assistant', 'other reply')])
  sessionsApi.list.mockResolvedValue(['s1', 's2'].map((id) => ({ id, title: id, model: '', createdAt: '', updatedAt: '' })))
  sessionsApi.messages.mockImplementation(async (id: string) => (db.get(id) ?? []).slice())
  ChatService.Send.mockImplementation(async (req) => {
    const user = row(req.sessionId, 'user', req.text)
    db.get(req.sessionId)!.push(user)
    return { turnId: req.turnId, sessionId: req.sessionId, model: 'm', userMessage: user } as never
  })
})
afterEach(() => {
  vi.unstubAllGlobals()
  setChatFrameScheduler(undefined)
  vi.restoreAllMocks()
})

describe('a long-running chat window', () => {
  it('keeps nothing per turn after 100 streamed turns and session switches', async () => {
    const sessions = useSessionStore()
    sessions.sessions = (await sessionsApi.list()) as never
    sessions.currentId = 's1'
    const chat = useChatStore()
    const w = mount(ChatWindow, { global: { plugins: [testI18n()] } })
    await flush()
    const root = w.get('[data-testid="scroller"]').element as HTMLElement

    for (let turn = 1; turn <= 100; turn++) {
      expect(chat.send(`question ${turn}`)).toBe(true)
      await flush(2)
      expect(listeners.size).toBe(1)
      const emit = [...listeners.values()][0]
      const reply = `Answer ${turn}\n\n- a point\n- another\n\n` + 'word '.repeat(40)
      for (const ch of reply) emit({ type: 'chunk', value: ch })
      frames.splice(0).forEach((f) => f())
      db.get('s1')!.push(row('s1', 'assistant', reply))
      emit({ type: 'done' })
      await flush()

      expect(listeners.size).toBe(0) // the turn's event listener is gone
      expect(frames).toHaveLength(0) // and its batcher left nothing scheduled
      expect(chat.turns).toHaveLength(0)
      if (turn % 10 === 0) {
        sessions.select('s2')
        await flush()
        expect(w.findAll('[data-testid="message"]')).toHaveLength(2)
        sessions.select('s1')
        await flush()
        // A chat opens with its newest 6 messages and grows to 100 between frames.
        // (The wait is a safety net for a loaded machine, not a speed check.)
        await vi.waitFor(() => expect(w.findAll('[data-testid="message"]')).toHaveLength(Math.min(turn * 2, 100)), { timeout: 20000 })
      }
      const shown = w.findAll('[data-testid="message"]').length
      expect(shown).toBe(Math.min(turn * 2, 100))
      // Every shown message is observed once; those of earlier turns and sessions are not.
      expect(observedCount(root)).toBe(shown)
      // Only the newest replies keep rendered Markdown; the rest wait until scrolled near.
      expect(w.findAll('.md').length).toBeLessThanOrEqual(7)
    }
    const { entries, chars } = markdownCacheStats()
    expect(entries).toBeLessThanOrEqual(BLOCK_CACHE_ENTRIES)
    expect(chars).toBeLessThanOrEqual(BLOCK_CACHE_CHARS)
    w.unmount()
    expect(observedCount(root)).toBe(0)
  }, 120_000)
})
