import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { KnowledgeEntry } from '@/api/knowledge'
import ConfirmDialog from '@/components/common/ConfirmDialog.vue'
import LearnedPanel from '@/components/knowledge/LearnedPanel.vue'
import { testI18n } from './helpers'

vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn() }))
vi.mock('@/api/knowledge', () => ({ list: vi.fn(), get: vi.fn(), remove: vi.fn(), refresh: vi.fn(), summarize: vi.fn() }))
const api = vi.mocked(await import('@/api/knowledge'))

const entry = (over: Partial<KnowledgeEntry> = {}): KnowledgeEntry => ({
  id: 1, query: '東京 天気', heading: '東京の天気', body: '## Key points\n\n- 晴れ [1]\n', model: 'openai/m',
  provider: 'tavily', file: 'web_search/knowledge-1.md', fetchedAt: '2026-11-30T10:00:00Z', createdAt: '2026-11-30T10:00:00Z',
  sources: [], summarised: true, ...over,
})

// The Learned knowledge panel: entries newest first with search; an entry's
// text and sources; delete after asking; refresh keeping the id.
describe('LearnedPanel', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    vi.clearAllMocks()
    vi.useFakeTimers()
    api.list.mockResolvedValue([entry({ id: 2, heading: 'Go generics', query: 'go generics' }), entry()])
    api.get.mockResolvedValue(entry({ sources: [{ title: 'tenki.jp', url: 'https://tenki.jp/' }] }))
  })
  afterEach(() => vi.useRealTimers())

  const mountPanel = async (locale: 'ja' | 'en' = 'en') => {
    const w = mount({ components: { LearnedPanel, ConfirmDialog }, template: '<LearnedPanel /><ConfirmDialog />' },
      { attachTo: document.body, global: { plugins: [testI18n(locale)] } })
    await flushPromises()
    return w
  }

  it('lists the entries newest first and searches as you type', async () => {
    const w = await mountPanel()
    expect(api.list).toHaveBeenCalledWith('')
    expect(w.findAll('[data-testid="learned-entry"]').map((e) => e.find('.heading').text())).toEqual(['Go generics', '東京の天気'])
    api.list.mockResolvedValue([])
    await w.get('[data-testid="learned-search"]').setValue('  晴れ ')
    await vi.advanceTimersByTimeAsync(300)
    await flushPromises()
    expect(api.list).toHaveBeenLastCalledWith('晴れ')
    expect(w.get('[data-testid="learned-empty"]').text()).toContain('No entry holds all of these words')
    w.unmount()
  })

  it('shows an entry’s text and numbered sources, and deletes it after asking', async () => {
    const w = await mountPanel('ja')
    await w.findAll('[data-testid="learned-entry"]')[1].trigger('click')
    await flushPromises()
    const d = w.get('[data-testid="learned-detail"]')
    expect(d.text()).toContain('[1] 東京の天気')
    expect(d.text()).toContain('検索語「東京 天気」')
    expect(d.text()).toContain('晴れ')
    expect(d.findAll('[data-testid="source-chip"]')).toHaveLength(1)
    api.remove.mockResolvedValue()
    await w.get('[data-testid="learned-delete"]').trigger('click')
    await flushPromises()
    expect(document.body.textContent).toContain('「東京の天気」と Markdown ファイルを削除しますか？')
    const ok = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === '削除' && b.closest('[role="dialog"], [role="alertdialog"]'))
    ok!.click()
    await flushPromises()
    expect(api.remove).toHaveBeenCalledWith(1)
    expect(w.find('[data-testid="learned-detail"]').exists()).toBe(false)
    expect(w.findAll('[data-testid="learned-entry"]')).toHaveLength(1)
    w.unmount()
  })

  it('refreshes an entry in place, or shows why it could not', async () => {
    const w = await mountPanel()
    await w.findAll('[data-testid="learned-entry"]')[1].trigger('click')
    await flushPromises()
    api.refresh.mockResolvedValue(entry({ heading: '東京は雨', fetchedAt: '2026-12-01T09:00:00Z' }))
    await w.get('[data-testid="learned-refresh"]').trigger('click')
    await flushPromises()
    expect(api.refresh).toHaveBeenCalledWith(1)
    expect(w.get('[data-testid="learned-detail"] h3').text()).toBe('[1] 東京は雨')
    api.refresh.mockRejectedValue(new Error(JSON.stringify({ code: 'websearch.notConfigured', params: {},
      message: 'web search is not set up: choose a provider and give its key or URL in Settings' })))
    await w.get('[data-testid="learned-refresh"]').trigger('click')
    await flushPromises()
    expect(w.get('[data-testid="learned-error"]').text()).toContain('Web search is not set up')
    w.unmount()
  })

  it('marks an entry saved unsummarised and summarises it without searching again', async () => {
    api.list.mockResolvedValue([entry({ summarised: false, heading: '東京 天気' })])
    api.get.mockResolvedValue(entry({ summarised: false, heading: '東京 天気' }))
    api.summarize.mockResolvedValue(entry({ summarised: true, heading: '東京の天気（12月1日）' }))
    const w = await mountPanel()
    expect(w.find('[data-testid="learned-unsummarised"]').text()).toBe('not summarised')
    await w.get('[data-testid="learned-entry"]').trigger('click')
    await flushPromises()
    expect(w.get('[data-testid="learned-unsummarised-note"]').text()).toContain('search results themselves')
    api.list.mockResolvedValue([entry({ summarised: true, heading: '東京の天気（12月1日）' })])
    await w.get('[data-testid="learned-summarize"]').trigger('click')
    await flushPromises()
    expect(api.summarize).toHaveBeenCalledWith(1)
    expect(api.refresh).not.toHaveBeenCalled()
    expect(w.get('[data-testid="learned-detail"] h3').text()).toContain('東京の天気（12月1日）')
    expect(w.find('[data-testid="learned-summarize"]').exists()).toBe(false)
    w.unmount()
  })
})
