import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { SearchHit, SearchRequest } from '@/api/search'
import { dayRange } from '@/api/search'
import ChatWindow from '@/components/chat/ChatWindow.vue'
import SearchDialog from '@/components/search/SearchDialog.vue'
import { useBranchStore } from '@/stores/branches'
import { useChatStore } from '@/stores/chat'
import { useSearchStore } from '@/stores/search'
import { useSessionStore } from '@/stores/sessions'
import { fromStored } from '@/utils/turn'
import { flush, keydown, testI18n } from './helpers'

// The bubbles' Markdown is not what these tests look at.
vi.mock('@/components/markdown/MarkdownContent.vue', () => ({ default: { props: ['content'], template: '<div>{{ content }}</div>' } }))
vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn() }))
vi.mock('@/api/models', () => ({ options: vi.fn(async () => ({ defaultModel: 'openai/x', presets: [], discovered: [], configured: true })) }))
const searchCalls: SearchRequest[] = []
let nextHits: SearchHit[] = []
vi.mock('@/api/search', async (orig) => ({
  ...(await orig<typeof import('@/api/search')>()),
  search: vi.fn(async (req: SearchRequest) => {
    searchCalls.push(req)
    return nextHits
  }),
}))
const stored = (i: number, sessionId = 's1') =>
  ({ id: i + 1, sessionId, role: i % 2 ? 'assistant' : 'user', content: `message ${i}`, status: 'complete', error: '',
    model: '', createdAt: '2026-01-01T00:00:00Z', archived: false, forgotten: false, tools: [] }) as never
const messagesOf = vi.fn(async (_id: string) => Array.from({ length: 130 }, (_, i) => stored(i)))
vi.mock('@/api/sessions', async (orig) => ({
  ...(await orig<typeof import('@/api/sessions')>()),
  messages: (id: string) => messagesOf(id),
}))

beforeEach(() => {
  setActivePinia(createPinia())
  searchCalls.length = 0
  nextHits = []
  document.body.innerHTML = ''
})

const hit = (id: number, excerpt: SearchHit['excerpt'], sessionId = 's1'): SearchHit => ({
  sessionId, sessionTitle: 'Cats', messageId: id, role: 'assistant', createdAt: '2026-11-20T09:00:00Z',
  archived: false, excerpt,
})

describe('SearchDialog', () => {
  it('searches with the filters and shows excerpts as text with the matches marked', async () => {
    nextHits = [
      hit(7, [{ text: '<img src=x onerror="alert(1)"> a ', match: false }, { text: 'ワガハイ', match: true }]),
      hit(9, [{ text: 'second', match: false }]),
    ]
    const search = useSearchStore()
    search.open = true
    const w = mount(SearchDialog, { global: { plugins: [testI18n()] }, attachTo: document.body })
    await flush()
    search.query = 'ﾜｶﾞﾊｲ'
    search.sessionId = 's1'
    search.fromDay = '2026-11-01'
    await flush()
    await search.run()
    await flush()
    const req = searchCalls.at(-1)!
    expect(req.query).toBe('ﾜｶﾞﾊｲ')
    expect(req.sessionId).toBe('s1')
    expect(req.from).toBe(dayRange('2026-11-01', '').from)
    expect(req.to).toBe('')
    const hits = w.findAll('[data-testid="search-hit"]')
    expect(hits).toHaveLength(2)
    const ex = hits[0].get('[data-testid="search-excerpt"]')
    expect(ex.find('img').exists()).toBe(false)
    expect(ex.text()).toContain('<img src=x onerror="alert(1)">')
    expect(ex.get('mark').text()).toBe('ワガハイ')
    expect(hits[0].attributes('aria-selected')).toBe('true')
  })

  it('moves with the arrows, opens with Enter, and leaves keys to the IME while it converts', async () => {
    nextHits = [hit(7, [{ text: 'a', match: true }]), hit(9, [{ text: 'b', match: true }])]
    const search = useSearchStore()
    const openHit = vi.spyOn(search, 'openHit').mockImplementation(async () => 'shown')
    search.open = true
    search.query = 'a'
    const w = mount(SearchDialog, { global: { plugins: [testI18n()] }, attachTo: document.body })
    await flush()
    await search.run()
    await flush()
    const input = w.get('[data-testid="search-input"]').element
    input.dispatchEvent(keydown({ key: 'ArrowDown' }))
    await flush()
    expect(w.findAll('[data-testid="search-hit"]')[1].attributes('aria-selected')).toBe('true')
    input.dispatchEvent(keydown({ key: 'Enter', isComposing: true }))
    input.dispatchEvent(keydown({ key: 'Enter', keyCode: 229 }))
    input.dispatchEvent(keydown({ key: 'Escape', isComposing: true }))
    await flush()
    expect(openHit).not.toHaveBeenCalled()
    expect(search.open).toBe(true)
    input.dispatchEvent(keydown({ key: 'Enter' }))
    await flush()
    expect(openHit).toHaveBeenCalledWith(expect.objectContaining({ messageId: 9 }))
    input.dispatchEvent(keydown({ key: 'Escape' }))
    expect(search.open).toBe(false)
  })
})

describe('opening a hit', () => {
  it('opens the chat and scrolls to a message older than the newest 100 shown', async () => {
    const sessions = useSessionStore()
    sessions.sessions = [{ id: 's1', title: 'Cats', model: '', createdAt: '', updatedAt: '' } as never]
    const chat = useChatStore()
    const w = mount(ChatWindow, { global: { plugins: [testI18n()] }, attachTo: document.body })
    const search = useSearchStore()
    const outcome = await search.openHit(hit(5, []))
    await flush()
    expect(outcome).toBe('shown')
    expect(sessions.currentId).toBe('s1')
    expect(chat.stored).toHaveLength(130)
    const el = w.find('[data-message-id="5"]')
    expect(el.exists()).toBe(true)
    expect(el.classes()).toContain('search-hit')
    expect(w.findAll('[data-testid="message"]').length).toBeGreaterThanOrEqual(126)
  }, 30_000)

  it('switches to the branch holding a message the selected branch does not show', async () => {
    const sessions = useSessionStore()
    sessions.sessions = [{ id: 's1', title: 'Cats', model: '', createdAt: '', updatedAt: '' } as never]
    const chat = useChatStore()
    const branches = useBranchStore()
    const switchTo = vi.spyOn(branches, 'switchTo').mockImplementation(async (id: number) => {
      chat.stored = [fromStored(stored(id - 1))]
    })
    const search = useSearchStore()
    expect(await search.openHit(hit(900, []))).toBe('shown')
    expect(switchTo).toHaveBeenCalledWith(900)
    expect(search.focus?.messageId).toBe(900)
    switchTo.mockImplementation(async () => {})
    expect(await search.openHit(hit(901, []))).toBe('missing')
  })
})
