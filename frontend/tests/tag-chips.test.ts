import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import MessageItem from '@/components/chat/MessageItem.vue'
import { toTagsUpdate } from '@/api/tags'
import type { Message } from '@/api/types'
import { useChatStore } from '@/stores/chat'
import { useSearchStore } from '@/stores/search'
import { useSessionStore } from '@/stores/sessions'
import { fromStored } from '@/utils/turn'
import { reuseMessages } from '@/utils/reuseMessages'
import { flush, testI18n } from './helpers'

vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn() }))
const stored: Message[] = []
vi.mock('@/api/sessions', () => ({ messages: vi.fn(async () => stored), list: vi.fn(async () => []) }))
vi.mock('@/api/search', () => ({ prepare: vi.fn(async () => {}), search: vi.fn(async () => []) }))

const base = {
  id: 7, sessionId: 's1', role: 'user', content: '京都の紅葉', status: 'complete', error: '', model: '',
  createdAt: '2026-12-01T00:00:00Z', archived: false, forgotten: false,
} as Message

beforeEach(() => setActivePinia(createPinia()))

// A message's automatic tags show as small chips under it, named for
// screen readers in the UI language; an untagged message has none.
describe('tag chips', () => {
  it('shows each tag under the message with a localised label', () => {
    for (const [locale, label] of [['ja', 'タグ'], ['en', 'Tags']] as const) {
      const w = mount(MessageItem, {
        props: { message: fromStored({ ...base, tags: ['京都', '紅葉', '旅行'] }) },
        global: { plugins: [testI18n(locale)] },
      })
      expect(w.get('[data-testid="tags"]').attributes('aria-label')).toBe(label)
      expect(w.findAll('[data-testid="tag-chip"]').map((c) => c.text())).toEqual(['#京都', '#紅葉', '#旅行'])
    }
    const none = mount(MessageItem, { props: { message: fromStored(base) }, global: { plugins: [testI18n()] } })
    expect(none.find('[data-testid="tags"]').exists()).toBe(false)
  })

  it('searches every chat for a tag when clicked', async () => {
    const w = mount(MessageItem, {
      props: { message: fromStored({ ...base, tags: ['京都', '紅葉'] }) },
      global: { plugins: [testI18n('ja')] },
    })
    const chip = w.findAll('[data-testid="tag-chip"]')[1]
    expect(chip.attributes('title')).toBe('タグ「紅葉」ですべてのチャットを検索')
    await chip.trigger('click')
    const search = useSearchStore()
    expect(search.open).toBe(true)
    expect(search.query).toBe('#紅葉 ')
  })

  it('appear when tags:updated names a message of the open chat', async () => {
    stored.splice(0, stored.length, base, { ...base, id: 8, role: 'assistant', content: '嵐山へどうぞ' })
    const sessions = useSessionStore()
    const chat = useChatStore()
    sessions.currentId = 's1'
    await flush()
    expect(chat.stored.map((m) => m.id)).toEqual([7, 8])
    const before = chat.stored[1]
    chat.applyTags('other', 7, ['x']) // another chat: nothing changes
    expect(chat.stored[0].tags ?? []).toEqual([])
    chat.applyTags('s1', 7, ['京都', '紅葉', '旅行'])
    expect(chat.stored[0].tags).toEqual(['京都', '紅葉', '旅行'])
    expect(chat.stored[1]).toBe(before) // the other message keeps its object
  })

  it('make a reloaded message new when its tags changed', () => {
    const a = fromStored(base)
    const b = fromStored({ ...base, tags: ['京都'] })
    expect(reuseMessages([a], [b])[0]).toBe(b)
    expect(reuseMessages([b], [fromStored({ ...base, tags: ['京都'] })])[0]).toBe(b)
  })

  it('make a reloaded message new when the part of a document it sends changed (issue 25)', () => {
    // A regenerate that sent only the pages that fit records them on its
    // question: the reloaded question must show "Sent: pages 1–N".
    const file = { sha256: 'a'.repeat(64), name: 'r.pdf', kind: 'pdf', mime: 'application/pdf', size: 9, width: 0, height: 0, chars: 900, pages: 300, sentPages: 0, sentChars: 0 }
    const whole = fromStored({ ...base, attachments: [file] })
    const part = fromStored({ ...base, attachments: [{ ...file, sentPages: 234 }] })
    expect(reuseMessages([whole], [part])[0]).toBe(part)
    expect(reuseMessages([part], [fromStored({ ...base, attachments: [{ ...file, sentPages: 234 }] })])[0]).toBe(part)
  })

  it('reads only well-formed tags:updated payloads', () => {
    expect(toTagsUpdate({ sessionId: 's', messageId: 3, tags: ['a', 2, 'b'] })).toEqual({ sessionId: 's', messageId: 3, memoryId: 0, tags: ['a', 'b'] })
    expect(toTagsUpdate({ messageId: 3 })).toBeNull()
    expect(toTagsUpdate(null)).toBeNull()
  })
})
