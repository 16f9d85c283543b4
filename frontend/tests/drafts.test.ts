import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import ChatComposer from '@/components/chat/ChatComposer.vue'
import { useDraftStore } from '@/stores/drafts'
import { useSessionStore } from '@/stores/sessions'
import { textareaSize, wantsShortPlaceholder } from '@/utils/autosize'
import { testI18n } from './helpers'

vi.mock('@/api/chat', () => ({
  streamTurn: vi.fn(() => ({
    turnId: 'T', started: new Promise(() => {}), done: new Promise(() => {}), stop: vi.fn(),
  })),
}))
const chatApi = vi.mocked(await import('@/api/chat'))

beforeEach(() => setActivePinia(createPinia()))

describe('drafts store', () => {
  it('keeps one draft per chat and one for the new chat', () => {
    const d = useDraftStore()
    d.set('s1', 'for s1')
    d.set(null, 'for the new chat')
    expect(d.get('s1')).toBe('for s1')
    expect(d.get('s2')).toBe('')
    expect(d.get(null)).toBe('for the new chat')
    d.set('s1', '   ')
    expect(d.texts.has('s1')).toBe(false) // blank drafts are not kept
  })

  it('restores unsent text only into an empty draft', () => {
    const d = useDraftStore()
    d.restore('s1', 'failed to send')
    expect(d.get('s1')).toBe('failed to send')
    d.restore('s1', 'another')
    expect(d.get('s1')).toBe('failed to send')
  })

  it('moves the new chat\'s draft to its session and forgets deleted ones', () => {
    const d = useDraftStore()
    d.set(null, 'next question')
    d.move(null, 'new1')
    expect(d.get(null)).toBe('')
    expect(d.get('new1')).toBe('next question')
    d.forget('new1')
    expect(d.get('new1')).toBe('')
  })
})

describe('ChatComposer: a draft per chat', () => {
  it('does not carry text over to another chat or New chat, and brings it back on return', async () => {
    const sessions = useSessionStore()
    sessions.sessions = [
      { id: 's1', title: 'a', model: '', createdAt: '', updatedAt: '' },
      { id: 's2', title: 'b', model: '', createdAt: '', updatedAt: '' },
    ]
    sessions.select('s1')
    const w = mount(ChatComposer, { global: { plugins: [testI18n()] }, attachTo: document.body })
    const box = w.get('textarea').element as HTMLTextAreaElement
    box.value = 'half-written for s1'
    box.dispatchEvent(new Event('input'))
    await w.vm.$nextTick()

    sessions.select('s2')
    await w.vm.$nextTick()
    expect(box.value).toBe('')
    sessions.startDraft()
    await w.vm.$nextTick()
    expect(box.value).toBe('')
    box.value = 'new chat idea'
    box.dispatchEvent(new Event('input'))
    await w.vm.$nextTick()

    sessions.select('s1')
    await w.vm.$nextTick()
    expect(box.value).toBe('half-written for s1')
    // Sending clears that chat's draft only.
    await w.get('form').trigger('submit')
    await w.vm.$nextTick()
    expect(chatApi.streamTurn).toHaveBeenCalledWith(
      expect.objectContaining({ sessionId: 's1', text: 'half-written for s1' }),
      expect.anything(),
    )
    expect(box.value).toBe('')
    expect(useDraftStore().get('s1')).toBe('')
    sessions.select(null)
    await w.vm.$nextTick()
    expect(box.value).toBe('new chat idea')
    w.unmount()
  })
})

describe('textareaSize', () => {
  it('stays one line without a scrollbar while empty, whatever the placeholder needs', () => {
    expect(textareaSize(90, true, 32, 240)).toEqual({ height: 32, overflowY: 'hidden' })
  })

  it('grows with the text and scrolls only past the maximum', () => {
    expect(textareaSize(20, false, 32, 240)).toEqual({ height: 32, overflowY: 'hidden' })
    expect(textareaSize(115.4, false, 32, 240)).toEqual({ height: 116, overflowY: 'hidden' })
    expect(textareaSize(240, false, 32, 240)).toEqual({ height: 240, overflowY: 'hidden' })
    expect(textareaSize(600, false, 32, 240)).toEqual({ height: 240, overflowY: 'auto' })
  })

  it('picks the short placeholder for a narrow box only once it is laid out', () => {
    expect(wantsShortPlaceholder(0)).toBe(false)
    expect(wantsShortPlaceholder(280)).toBe(true)
    expect(wantsShortPlaceholder(600)).toBe(false)
  })
})
