import { flushPromises, mount } from '@vue/test-utils'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import WebSearchTest from '@/components/settings/WebSearchTest.vue'
import { testI18n } from './helpers'

vi.mock('../wailsjs/go/app/WebSearchService', () => ({ TestSearch: vi.fn() }))
const bound = vi.mocked(await import('../wailsjs/go/app/WebSearchService'))

// The Settings button runs one search with the saved settings and shows
// the count, or the backend's coded error in the UI language.
describe('WebSearchTest', () => {
  beforeEach(() => vi.clearAllMocks())

  it('shows how many results the provider returned, with the first titles', async () => {
    bound.TestSearch.mockResolvedValue({ provider: 'brave', query: 'playchat', count: 3, titles: ['A', 'B', 'C'] } as never)
    const w = mount(WebSearchTest, { global: { plugins: [testI18n()] } })
    await w.get('[data-testid="web-search-test-run"]').trigger('click')
    await flushPromises()
    expect(bound.TestSearch).toHaveBeenCalledWith('')
    const r = w.get('[data-testid="web-search-test-result"]')
    expect(r.text()).toContain('3 results from brave')
    expect(r.text()).toContain('A · B · C')
    expect(w.find('[data-testid="web-search-test-error"]').exists()).toBe(false)
  })

  it('words a coded error in Japanese and keeps the English text as the tooltip', async () => {
    const info = { code: 'websearch.rateLimited', params: { provider: 'tavily', retryAfter: '30' },
      message: 'the search provider tavily says there were too many requests (429); try again later' }
    bound.TestSearch.mockRejectedValue(JSON.stringify(info))
    const w = mount(WebSearchTest, { global: { plugins: [testI18n('ja')] } })
    await w.get('[data-testid="web-search-test-run"]').trigger('click')
    await flushPromises()
    const e = w.get('[data-testid="web-search-test-error"]')
    expect(e.text()).toContain('検索プロバイダー tavily へのリクエストが多すぎます（429）')
    expect(e.attributes('title')).toBe(info.message)
    expect(w.find('[data-testid="web-search-test-result"]').exists()).toBe(false)
  })

  it('says the test uses the saved settings while there are unsaved edits', () => {
    const w = mount(WebSearchTest, { props: { unsaved: true }, global: { plugins: [testI18n()] } })
    expect(w.text()).toContain('save your changes first')
  })
})
