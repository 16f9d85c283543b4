import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import AttachmentFitOffer from '@/components/chat/AttachmentFitOffer.vue'
import ChatComposer from '@/components/chat/ChatComposer.vue'
import MessageAttachments from '@/components/chat/MessageAttachments.vue'
import type { StagedAttachment } from '@/api/attachments'
import type { TurnEnd } from '@/api/chat'
import type { FitOffer } from '@/stores/chat'
import { flush, testI18n } from './helpers'

// The offer when a message's document does not fit the model (issue 25):
// nothing was sent; the user sends pages 1–N, adds the file to the
// knowledge base, or cancels, and the text and the file stay meanwhile.

vi.mock('@/api/chat', () => ({ streamTurn: vi.fn() }))
vi.mock('@/api/attachments', () => ({
  choose: vi.fn(),
  addFiles: vi.fn(),
  addData: vi.fn(),
  discard: vi.fn(async () => {}),
  dataURL: vi.fn(),
  takesImages: vi.fn(async () => 'unknown'),
  fileToBase64: vi.fn(),
  addToKnowledge: vi.fn(async () => 'report.md'),
}))
const chatApi = vi.mocked(await import('@/api/chat'))
const attachApi = vi.mocked(await import('@/api/attachments'))
const { useAttachmentStore } = await import('@/stores/attachments')
const { useChatStore } = await import('@/stores/chat')
const { useDraftStore } = await import('@/stores/drafts')
const { useSessionStore } = await import('@/stores/sessions')
const { useToastStore } = await import('@/stores/toasts')

const pdf: StagedAttachment = {
  id: 'pdf-1', name: 'report.pdf', kind: 'pdf', mime: 'application/pdf', size: 90_000, width: 0, height: 0,
  chars: 60_000, pages: 40, thumbnail: '',
}
const offer = (o: Partial<FitOffer> = {}): FitOffer => ({
  sessionId: 's1', name: 'report.pdf', pages: 40, fitPages: 12, chars: 60_000, fitChars: 0, docs: 1, ...o,
})
const tooLong = {
  code: 'chat.attachmentTooLong',
  message: 'the attached document report.pdf is too long for this model',
  params: { name: 'report.pdf', used: 9000, limit: 5200, pages: 40, fitPages: 12, chars: 60000, fitChars: 0, docs: 1 },
}

/** The next streamTurn: refused by Send (end given), or one that keeps streaming. */
function nextTurn(end?: TurnEnd) {
  chatApi.streamTurn.mockImplementationOnce(() => {
    const started = end ? Promise.reject(new Error(end.ok ? '' : end.error.message)) : new Promise<never>(() => {})
    started.catch(() => {})
    return { turnId: `T${chatApi.streamTurn.mock.calls.length}`, started, done: end ? Promise.resolve(end) : new Promise(() => {}), stop: vi.fn() }
  })
}

beforeEach(() => {
  setActivePinia(createPinia())
  vi.clearAllMocks()
})

describe('AttachmentFitOffer', () => {
  it('says which pages fit and offers to send them, to add the file to the knowledge base, or to cancel', async () => {
    const w = mount(AttachmentFitOffer, { props: { offer: offer() }, global: { plugins: [testI18n()] } })
    expect(w.get('[data-testid="fit-offer-text"]').text()).toBe(
      'This document is too long for the model: pages 1–12 of the 40 pages of report.pdf fit.')
    expect(w.get('[data-testid="fit-send"]').text()).toBe('Send pages 1–12')
    expect(w.get('[data-testid="fit-kb"]').text()).toBe('Add to knowledge base')
    await w.get('[data-testid="fit-send"]').trigger('click')
    await w.get('[data-testid="fit-kb"]').trigger('click')
    await w.get('[data-testid="fit-cancel"]').trigger('click')
    expect(Object.keys(w.emitted())).toEqual(expect.arrayContaining(['send', 'kb', 'cancel']))
  })

  it('words it in Japanese, by characters for text without pages, and without Send when nothing fits', () => {
    const ja = mount(AttachmentFitOffer, { props: { offer: offer() }, global: { plugins: [testI18n('ja')] } })
    expect(ja.get('[data-testid="fit-offer-text"]').text()).toContain('40 ページのうち 1〜12 ページが収まります')
    expect(ja.get('[data-testid="fit-send"]').text()).toBe('1〜12 ページを送信')
    const chars = mount(AttachmentFitOffer, {
      props: { offer: offer({ name: 'server.log', pages: 0, chars: 40000, fitChars: 15000 }) },
      global: { plugins: [testI18n()] },
    })
    expect(chars.get('[data-testid="fit-offer-text"]').text()).toContain('the first 15,000 of the 40,000 characters of server.log fit')
    expect(chars.get('[data-testid="fit-send"]').text()).toBe('Send the first 15,000 characters')
    const none = mount(AttachmentFitOffer, { props: { offer: offer({ fitPages: 0 }) }, global: { plugins: [testI18n()] } })
    expect(none.find('[data-testid="fit-send"]').exists()).toBe(false)
    expect(none.find('[data-testid="fit-kb"]').exists()).toBe(true)
    const many = mount(AttachmentFitOffer, { props: { offer: offer({ fitPages: 0, docs: 3 }) }, global: { plugins: [testI18n()] } })
    expect(many.get('[data-testid="fit-offer-text"]').text()).toContain('not all of them fit, even in part (report.pdf and 2 more)')
    expect(many.find('[data-testid="fit-send"]').exists()).toBe(false)
  })
})

describe('ChatComposer: a document too long for the model', () => {
  async function refusedSend() {
    const sessions = useSessionStore()
    sessions.sessions = [{ id: 's1', title: 'a', model: 'openai/fake', createdAt: '', updatedAt: '' }]
    sessions.select('s1')
    useAttachmentStore().restore('s1', [pdf])
    useDraftStore().set('s1', 'What does it say about the budget?')
    const w = mount(ChatComposer, { global: { plugins: [testI18n()] }, attachTo: document.body })
    await flush()
    nextTurn({ ok: false, error: tooLong, started: false })
    await w.get('[data-testid="send"]').trigger('click')
    await flush()
    return w
  }

  it('shows the offer inline, keeps the text and the file, and shows no error toast', async () => {
    const w = await refusedSend()
    expect(w.get('[data-testid="fit-offer"]').text()).toContain('pages 1–12 of the 40 pages of report.pdf fit')
    expect((w.get('textarea').element as HTMLTextAreaElement).value).toBe('What does it say about the budget?')
    expect(w.findAll('[data-testid="attach-chip"]').map((c) => c.text())).toEqual([expect.stringContaining('report.pdf')])
    expect(useToastStore().toasts).toHaveLength(0)
    w.unmount()
  })

  it("ends the offer when the document's chip is removed (its buttons would act on a file no longer there)", async () => {
    const w = await refusedSend()
    expect(w.find('[data-testid="fit-offer"]').exists()).toBe(true)
    useAttachmentStore().remove('s1', 'pdf-1')
    await flush()
    expect(w.find('[data-testid="fit-offer"]').exists()).toBe(false)
    expect((w.get('textarea').element as HTMLTextAreaElement).value).toBe('What does it say about the budget?')
    w.unmount()
  })

  it('ends the offer when another model is picked: its part was for the model it was made for (issue 25)', async () => {
    const w = await refusedSend()
    expect(w.find('[data-testid="fit-offer"]').exists()).toBe(true)
    useSessionStore().sessions = [{ id: 's1', title: 'a', model: 'openai/gpt-4', createdAt: '', updatedAt: '' }]
    await flush()
    expect(w.find('[data-testid="fit-offer"]').exists()).toBe(false)
    expect((w.get('textarea').element as HTMLTextAreaElement).value).toBe('What does it say about the budget?')
    expect(w.findAll('[data-testid="attach-chip"]')).toHaveLength(1)
    w.unmount()
  })

  it('"Send pages 1–N" sends the same text and file with fitAttachments', async () => {
    const w = await refusedSend()
    nextTurn()
    await w.get('[data-testid="fit-send"]').trigger('click')
    await flush()
    expect(chatApi.streamTurn).toHaveBeenCalledTimes(2)
    expect(chatApi.streamTurn.mock.calls[1][0]).toMatchObject({
      sessionId: 's1', text: 'What does it say about the budget?', attachmentIds: ['pdf-1'], fitAttachments: true,
    })
    expect(w.find('[data-testid="fit-offer"]').exists()).toBe(false)
    expect((w.get('textarea').element as HTMLTextAreaElement).value).toBe('')
    w.unmount()
  })

  it('"Add to knowledge base" adds the file, then sends the text without it', async () => {
    const w = await refusedSend()
    nextTurn()
    await w.get('[data-testid="fit-kb"]').trigger('click')
    await flush()
    expect(attachApi.addToKnowledge).toHaveBeenCalledWith('pdf-1')
    expect(chatApi.streamTurn).toHaveBeenCalledTimes(2)
    const input = chatApi.streamTurn.mock.calls[1][0]
    expect(input).toMatchObject({ text: 'What does it say about the budget?', attachmentIds: [] })
    expect(input.fitAttachments).toBeUndefined()
    expect(attachApi.discard).not.toHaveBeenCalled() // Go dropped it already
    expect(useToastStore().toasts.map((t) => t.message)).toEqual(['Added to the knowledge base: report.md'])
    expect(w.find('[data-testid="fit-offer"]').exists()).toBe(false)
    w.unmount()
  })

  it('a failed add keeps the offer, the text and the file, and sends nothing', async () => {
    const w = await refusedSend()
    attachApi.addToKnowledge.mockRejectedValueOnce(new Error('disk full'))
    await w.get('[data-testid="fit-kb"]').trigger('click')
    await flush()
    expect(chatApi.streamTurn).toHaveBeenCalledTimes(1)
    expect(w.find('[data-testid="fit-offer"]').exists()).toBe(true)
    expect(useChatStore().currentFitOffer).not.toBeNull()
    expect(w.findAll('[data-testid="attach-chip"]')).toHaveLength(1)
    expect((w.get('textarea').element as HTMLTextAreaElement).value).toBe('What does it say about the budget?')
    w.unmount()
  })

  it('Cancel closes the offer and keeps the text and the file', async () => {
    const w = await refusedSend()
    await w.get('[data-testid="fit-cancel"]').trigger('click')
    await flush()
    expect(w.find('[data-testid="fit-offer"]').exists()).toBe(false)
    expect(chatApi.streamTurn).toHaveBeenCalledTimes(1)
    expect(w.findAll('[data-testid="attach-chip"]')).toHaveLength(1)
    expect((w.get('textarea').element as HTMLTextAreaElement).value).toBe('What does it say about the budget?')
    w.unmount()
  })
})

describe('MessageAttachments: a document sent in part', () => {
  it('says in the history which part went', () => {
    const base = { mime: 'application/pdf', sha256: 'a'.repeat(64), size: 90_000, width: 0, height: 0, chars: 60_000 }
    const w = mount(MessageAttachments, {
      props: {
        files: [
          { ...base, name: 'report.pdf', kind: 'pdf', pages: 40, sentPages: 12, sentChars: 0 },
          { ...base, sha256: 'b'.repeat(64), name: 'server.log', kind: 'text', mime: 'text/plain', pages: 0, sentPages: 0, sentChars: 15000 },
          { ...base, sha256: 'c'.repeat(64), name: 'whole.pdf', kind: 'pdf', pages: 3, sentPages: 0, sentChars: 0 },
          { ...base, sha256: 'd'.repeat(64), name: 'one.pdf', kind: 'pdf', pages: 20, sentPages: 1, sentChars: 0 },
        ],
      },
      global: { plugins: [testI18n()] },
    })
    expect(w.findAll('[data-testid="attach-part"]').map((p) => p.text())).toEqual([
      'Sent: pages 1–12 of 40', 'Sent: the first 15,000 of 60,000 characters', 'Sent: page 1 of 20',
    ])
  })
})
