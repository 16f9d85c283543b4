import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Message, ToolActivity } from '@/api/types'
import MessageItem from '@/components/chat/MessageItem.vue'
import ToolActivityList from '@/components/chat/ToolActivityList.vue'
import { draftMessage, fromStored, mergeTool } from '@/utils/turn'
import { testI18n } from './helpers'

vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn() }))

beforeEach(() => setActivePinia(createPinia()))

const mountList = (tools: ToolActivity[], locale: 'ja' | 'en' = 'en') =>
  mount(ToolActivityList, { props: { tools }, global: { plugins: [testI18n(locale)] } })

const rows = (w: ReturnType<typeof mountList>) =>
  w.findAll('[data-testid="tool-row"]').map((r) => ({
    state: r.get('[data-testid="tool-state"]').attributes('data-state'),
    label: r.get('[data-testid="tool-label"]').text(),
    detail: r.find('[data-testid="tool-detail"]').exists() ? r.get('[data-testid="tool-detail"]').text() : '',
  }))

describe('ToolActivityList', () => {
  it('shows a spinner while running and a check once the end event is merged', async () => {
    let tools = mergeTool([], { id: 'c1', name: 'write_note', label: 'Write note', detail: 'create → Plan', status: 'running' })
    const w = mountList(tools)
    expect(rows(w)).toEqual([{ state: 'running', label: 'Write note', detail: 'create → Plan' }])
    expect(w.find('.spinner').exists()).toBe(true)
    expect(w.find('[data-testid="tool-toggle"]').exists()).toBe(false)

    tools = mergeTool(tools, { id: 'c1', status: 'done', result: 'created page 7 “Plan”' })
    await w.setProps({ tools })
    expect(rows(w)).toEqual([{ state: 'done', label: 'Write note', detail: 'create → Plan' }])
    expect(w.find('.spinner').exists()).toBe(false)
    expect(w.get('[data-testid="tool-state"]').text()).toBe('✓')
    // The result is collapsed until asked for.
    expect(w.find('[data-testid="tool-result"]').exists()).toBe(false)
    await w.get('[data-testid="tool-toggle"]').trigger('click')
    expect(w.get('[data-testid="tool-result"]').text()).toBe('created page 7 “Plan”')
    await w.get('[data-testid="tool-toggle"]').trigger('click')
    expect(w.find('[data-testid="tool-result"]').exists()).toBe(false)
  })

  it('keeps one row per call id, in start order', async () => {
    let tools: ToolActivity[] = []
    tools = mergeTool(tools, { id: 'a', name: 'read_note', label: 'Read note', detail: 'Plan', status: 'running' })
    tools = mergeTool(tools, { id: 'b', name: 'web_search', label: 'Web search', detail: 'tokyo', status: 'running' })
    tools = mergeTool(tools, { id: 'b', status: 'done', result: '3 hits' })
    tools = mergeTool(tools, { id: 'a', status: 'done', result: '# Plan' })
    const w = mountList(tools)
    expect(rows(w).map((r) => [r.label, r.state])).toEqual([['Read note', 'done'], ['Web search', 'done']])
  })

  it('shows an error with a cross and its message as the result', async () => {
    const w = mountList([
      { id: 'x', name: 'read_note', label: 'Read note', detail: '#42', status: 'error', result: 'error: note page 42 not found' },
    ])
    expect(rows(w)[0].state).toBe('error')
    expect(w.get('[data-testid="tool-state"]').text()).toBe('✕')
    await w.get('[data-testid="tool-toggle"]').trigger('click')
    expect(w.get('[data-testid="tool-result"]').text()).toContain('not found')
  })

  it('says why a call failed in the UI language, keeping the English for a tooltip', () => {
    const w = mountList([
      {
        id: 'u', name: 'fly', label: 'fly', status: 'error', result: 'error: unknown tool "fly"',
        error: { code: 'tool.unknown', params: { name: 'fly' }, message: 'unknown tool "fly"' },
      },
    ], 'ja')
    const failure = w.get('[data-testid="tool-failure"]')
    expect(failure.text()).toBe('「fly」というツールはありません')
    expect(failure.attributes('title')).toBe('unknown tool "fly"')
  })

  it('translates known tool names and falls back to the backend label', () => {
    const tools: ToolActivity[] = [
      { id: '1', name: 'read_note', label: 'Read note', status: 'done' },
      { id: '2', name: 'write_note', label: 'Write note', status: 'done' },
      { id: '3', name: 'weather', label: 'Weather lookup', status: 'done' },
      {
        id: '4', name: 'write_note', label: 'Write note', detail: 'arguments truncated', status: 'error', result: 'truncated: not run',
        error: { code: 'tool.argumentsTruncated', message: 'arguments truncated' },
      },
    ]
    expect(rows(mountList(tools, 'ja')).map((r) => r.label)).toEqual([
      'ノートを読む', 'ノートに書く', 'Weather lookup', 'ノートに書く',
    ])
    expect(rows(mountList(tools, 'ja'))[3].detail).toBe('引数が途中で切れたため実行されませんでした')
    expect(rows(mountList(tools, 'en')).map((r) => r.label)).toEqual([
      'Read note', 'Write note', 'Weather lookup', 'Write note',
    ])
  })
})

describe('MessageItem with tool activity', () => {
  const stored = (over: Partial<Message>): Message => ({
    id: 2, sessionId: 's', role: 'assistant', content: 'Done, I wrote it down.', status: 'complete',
    error: '', model: 'm', createdAt: '2025-01-01T00:00:00Z', archived: false, forgotten: false, ...over,
  })
  const mountItem = (message: ReturnType<typeof fromStored>) =>
    mount(MessageItem, { props: { message }, global: { plugins: [testI18n()] } })

  it('shows the stored activity of a reloaded reply above the bubble', () => {
    const w = mountItem(fromStored(stored({
      tools: [{ id: 'c1', name: 'write_note', label: 'Write note', detail: 'create → Plan', status: 'done', result: 'ok' }],
    })))
    const list = w.get('[data-testid="tool-activity"]')
    expect(list.text()).toContain('Write note')
    expect(list.text()).toContain('create → Plan')
    // Above the bubble.
    const children = Array.from(w.element.children)
    expect(children.indexOf(list.element)).toBeLessThan(children.indexOf(w.get('.body').element))
  })

  it('shows no list for a reply without tools (or stored before tools existed)', () => {
    expect(mountItem(fromStored(stored({ tools: [] }))).find('[data-testid="tool-activity"]').exists()).toBe(false)
    expect(mountItem(fromStored(stored({ tools: null }))).find('[data-testid="tool-activity"]').exists()).toBe(false)
    expect(mountItem(fromStored(stored({}))).find('[data-testid="tool-activity"]').exists()).toBe(false)
  })

  it('shows the live activity while the reply streams', () => {
    const live = draftMessage('k', 'assistant', '', 'm', 's')
    live.tools = mergeTool(live.tools, { id: 'c1', name: 'read_note', label: 'Read note', detail: 'Plan', status: 'running' })
    const w = mountItem(live)
    expect(w.find('.spinner').exists()).toBe(true)
    expect(w.text()).toContain('Thinking')
  })
})
