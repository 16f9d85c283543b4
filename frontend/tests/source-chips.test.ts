import { mount } from '@vue/test-utils'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import SourceChips from '@/components/chat/SourceChips.vue'
import { isWebURL, sourceHost } from '@/utils/sources'
import { fromStored } from '@/utils/turn'
import type { Message } from '@/api/types'
import { testI18n } from './helpers'

vi.mock('../wailsjs/runtime/runtime', () => ({ BrowserOpenURL: vi.fn() }))
const runtime = vi.mocked(await import('../wailsjs/runtime/runtime'))

const sources = [
  { title: '東京都の天気 - tenki.jp', url: 'https://tenki.jp/forecast/3/16/' },
  { title: '', url: 'http://www.jma.go.jp/bosai/' },
  { title: 'evil', url: 'javascript:alert(1)' },
]

// The pages a reply cited, numbered as the model cites them; a click opens
// http(s) pages in the system browser and nothing else.
describe('SourceChips', () => {
  beforeEach(() => vi.clearAllMocks())

  it('numbers the sources and names each by title and host', () => {
    const w = mount(SourceChips, { props: { sources }, global: { plugins: [testI18n('ja')] } })
    expect(w.get('[data-testid="sources"]').attributes('aria-label')).toBe('出典')
    const chips = w.findAll('[data-testid="source-chip"]')
    const parts = chips.map((c) => c.findAll('span').map((s) => s.text()))
    expect(parts).toEqual([['1', '東京都の天気 - tenki.jp', 'tenki.jp'], ['2', 'jma.go.jp'], ['3', 'evil']])
    expect(chips[0].attributes('title')).toBe('https://tenki.jp/forecast/3/16/')
  })

  it('opens only http and https addresses', async () => {
    const w = mount(SourceChips, { props: { sources }, global: { plugins: [testI18n()] } })
    const chips = w.findAll('[data-testid="source-chip"]')
    await chips[0].trigger('click')
    await chips[1].trigger('click')
    expect(runtime.BrowserOpenURL.mock.calls).toEqual([['https://tenki.jp/forecast/3/16/'], ['http://www.jma.go.jp/bosai/']])
    expect(chips[2].attributes('disabled')).toBeDefined()
    await chips[2].trigger('click')
    expect(runtime.BrowserOpenURL).toHaveBeenCalledTimes(2)
  })
})

describe('source helpers', () => {
  it('accepts absolute http(s) URLs only', () => {
    expect(isWebURL('https://a.example/x')).toBe(true)
    expect(isWebURL('http://a.example')).toBe(true)
    for (const u of ['javascript:alert(1)', 'file:///etc/passwd', 'mailto:a@b.c', '/relative', '']) expect(isWebURL(u), u).toBe(false)
    expect(sourceHost('https://www.example.com/a')).toBe('example.com')
    expect(sourceHost('not a url')).toBe('')
  })

  it('keeps a stored reply’s sources after a reload', () => {
    const m = { id: 3, sessionId: 's', role: 'assistant', content: 'x [1]', status: 'complete', error: '', model: 'm',
      createdAt: '2026-12-01T00:00:00Z', archived: false, forgotten: false, sources: [sources[0]] } as Message
    expect(fromStored(m).sources).toEqual([sources[0]])
    expect(fromStored({ ...m, sources: undefined }).sources).toEqual([])
  })
})
