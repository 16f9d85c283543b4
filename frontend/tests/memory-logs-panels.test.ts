import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { LogEntry, MemoryStatus } from '@/api/types'
import LogViewer from '@/components/logs/LogViewer.vue'
import MemoryPanel from '@/components/memory/MemoryPanel.vue'
import { useSessionStore } from '@/stores/sessions'
import { testI18n } from './helpers'

vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn() }))
vi.mock('@/api/memory', () => ({
  list: vi.fn(async () => []),
  status: vi.fn(),
  remove: vi.fn(async () => {}),
}))
vi.mock('@/api/logs', () => ({
  list: vi.fn(),
  get: vi.fn(),
  remove: vi.fn(async () => {}),
  clear: vi.fn(async () => {}),
}))
const memoryApi = vi.mocked(await import('@/api/memory'))
const logsApi = vi.mocked(await import('@/api/logs'))

const status = (over: Partial<MemoryStatus>): MemoryStatus => ({
  state: 'idle', failures: 0, lastError: '', nextAttempt: '', ...over,
})

beforeEach(() => {
  vi.clearAllMocks()
  setActivePinia(createPinia())
  useSessionStore().currentId = 's1'
})

describe('MemoryPanel summary state', () => {
  it('shows nothing extra while summaries work', async () => {
    memoryApi.status.mockResolvedValue(status({}))
    const w = mount(MemoryPanel, { global: { plugins: [testI18n()] } })
    await flushPromises()
    expect(w.find('[data-testid="memory-status"]').exists()).toBe(false)
    w.unmount()
  })

  it('says a failing summary backs off, until when, and why (in both languages)', async () => {
    memoryApi.status.mockResolvedValue(status({
      state: 'backoff', failures: 3, lastError: 'context length exceeded', nextAttempt: '2026-11-30T12:04:00Z',
    }))
    for (const [locale, words] of [['en', ['failed 3 times', 'next try']], ['ja', ['3 回続けて失敗', '次の試行']]] as const) {
      const w = mount(MemoryPanel, { global: { plugins: [testI18n(locale)] } })
      await flushPromises()
      const text = w.get('[data-testid="memory-status"]').text()
      for (const word of words) expect(text).toContain(word)
      expect(text).toContain('context length exceeded')
      w.unmount()
    }
    expect(memoryApi.status).toHaveBeenCalledWith('s1')
  })

  it('words the last failure by its code in the UI language', async () => {
    memoryApi.status.mockResolvedValue(status({
      state: 'backoff', failures: 1, nextAttempt: '2026-11-30T12:04:00Z',
      lastError: 'the server returned 500',
      lastErrorInfo: { code: 'llm.providerStatus', params: { status: 500, detail: '' }, message: 'the server returned 500' } as never,
    }))
    const w = mount(MemoryPanel, { global: { plugins: [testI18n('ja')] } })
    await flushPromises()
    const text = w.get('[data-testid="memory-status"]').text()
    expect(text).toContain('500')
    expect(text).not.toContain('the server returned')
    w.unmount()
  })

  it('says when a summary is being written', async () => {
    memoryApi.status.mockResolvedValue(status({ state: 'running' }))
    const w = mount(MemoryPanel, { global: { plugins: [testI18n()] } })
    await flushPromises()
    expect(w.get('[data-testid="memory-status"]').text()).toContain('Summarising')
    w.unmount()
  })
})

describe('LogViewer tokens', () => {
  const entry = (id: number, prompt: number, completion: number): LogEntry => ({
    id, sessionId: 's1', model: 'openai/gpt-4o', purpose: id === 2 ? 'turn' : 'tags', error: '', latencyMs: 10,
    createdAt: '2026-11-30T12:00:00Z', preview: 'ok', promptTokens: prompt, completionTokens: completion,
  })

  it('shows prompt and completion tokens per call and per chat', async () => {
    logsApi.list.mockResolvedValue({
      entries: [entry(2, 1200, 300), entry(1, 0, 0)],
      total: 2,
      usage: [{ sessionId: 's1', title: '旅行の計画', calls: 2, promptTokens: 1200, completionTokens: 300 }],
    })
    const w = mount(LogViewer, { global: { plugins: [testI18n()] } })
    await flushPromises()
    const tokens = w.findAll('[data-testid="log-entry-tokens"]')
    expect(tokens).toHaveLength(1) // a call without reported usage shows no zeros
    expect(tokens[0].text()).toBe('in 1200 / out 300')
    const usage = w.get('[data-testid="log-usage"]').text()
    expect(usage).toContain('旅行の計画')
    expect(usage).toContain('2 calls')
    expect(usage).toContain('in 1200 / out 300')
    // Each call says what it was for (issue 22).
    expect(w.findAll('[data-testid="log-entry-purpose"]').map((p) => p.text())).toEqual(['turn', 'tags'])
  })

  it('marks a call the user stopped as stopped, not as an error', async () => {
    const stopped: LogEntry = {
      ...entry(3, 0, 0), preview: '', error: 'cancelled',
      errorInfo: { code: 'llm.cancelled', params: {}, message: 'cancelled' } as never,
    }
    const failed: LogEntry = {
      ...entry(4, 0, 0), preview: '', error: 'provider returned 500: boom',
      errorInfo: { code: 'llm.providerStatus', params: { status: 500, detail: 'boom' }, message: 'provider returned 500: boom' } as never,
    }
    logsApi.list.mockResolvedValue({ entries: [failed, stopped], total: 2, usage: [] })
    const w = mount(LogViewer, { global: { plugins: [testI18n()] } })
    await flushPromises()
    const [first, second] = w.findAll('[data-testid="log-entry"]')
    expect(first.find('.badge.error').exists()).toBe(true)
    expect(second.find('.badge.error').exists()).toBe(false)
    expect(second.text()).toContain('Stopped')
  })

  it('does not mark a call whose API client disconnected as an error, and says why', async () => {
    const gone: LogEntry = {
      ...entry(5, 0, 0), preview: '', error: 'cancelled (the API client disconnected)',
      errorInfo: { code: 'llm.clientGone', params: {}, message: 'cancelled (the API client disconnected)' } as never,
    }
    logsApi.list.mockResolvedValue({ entries: [gone], total: 1, usage: [] })
    const w = mount(LogViewer, { global: { plugins: [testI18n()] } })
    await flushPromises()
    const row = w.get('[data-testid="log-entry"]')
    expect(row.find('.badge.error').exists()).toBe(false)
    expect(row.text()).toContain('Stopped')
  })
})
