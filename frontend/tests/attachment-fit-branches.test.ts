import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import ChatComposer from '@/components/chat/ChatComposer.vue'
import type { TurnEnd } from '@/api/chat'
import { fromStored } from '@/utils/turn'
import { flush, storedMessage, testI18n } from './helpers'

// A regenerate with a smaller model, or an edit sent to one, whose
// question's document no longer fits (issue 25): the same offer as a
// send's, above the message box, with "send the part that fits" only (the
// file is in the history, not the box); its answer makes the same turn
// again with fitAttachments. An edit's text stays in its editor (found
// trying it: sent from the box, it replaced the edit with another draft).

vi.mock('@/api/chat', () => ({ streamTurn: vi.fn(), regenerateTurn: vi.fn(), editTurn: vi.fn() }))
vi.mock('@/api/sessions', () => ({ messages: vi.fn(async () => []) }))
vi.mock('@/api/attachments', () => ({
  choose: vi.fn(), addFiles: vi.fn(), addData: vi.fn(), discard: vi.fn(async () => {}), dataURL: vi.fn(),
  takesImages: vi.fn(async () => 'unknown'), fileToBase64: vi.fn(), addToKnowledge: vi.fn(),
}))
const chatApi = vi.mocked(await import('@/api/chat'))
const sessionsApi = vi.mocked(await import('@/api/sessions'))
const { useBranchStore } = await import('@/stores/branches')
const { useChatStore } = await import('@/stores/chat')
const { useDraftStore } = await import('@/stores/drafts')
const { useSessionStore } = await import('@/stores/sessions')
const { useToastStore } = await import('@/stores/toasts')

const tooLong = {
  code: 'chat.attachmentTooLong',
  message: 'the attached document report.pdf is too long for this model',
  params: { name: 'report.pdf', used: 12000, limit: 7000, pages: 80, fitPages: 30, chars: 0, fitChars: 0, docs: 1 },
}

/** A turn handle: refused (end given) or one that keeps streaming. */
function handle(n: number, end?: TurnEnd) {
  const started = end ? Promise.reject(new Error('refused')) : new Promise<never>(() => {})
  started.catch(() => {})
  return { turnId: `T${n}`, started, done: end ? Promise.resolve(end) : new Promise<TurnEnd>(() => {}), stop: vi.fn() }
}

const history = [
  storedMessage(1, 'user', 'Summarise the report'),
  storedMessage(2, 'assistant', 'It is about the budget.'),
]

async function openChat() {
  const sessions = useSessionStore()
  sessions.sessions = [{ id: 's1', title: 'a', model: 'openai/gpt-4o', createdAt: '', updatedAt: '' }]
  sessions.select('s1')
  sessionsApi.messages.mockResolvedValue(history)
  useChatStore().stored = history.map(fromStored)
  const w = mount(ChatComposer, { global: { plugins: [testI18n()] }, attachTo: document.body })
  await flush()
  return w
}

beforeEach(() => {
  setActivePinia(createPinia())
  vi.clearAllMocks()
})

describe('a regenerate or an edit whose document no longer fits', () => {
  it('a regenerate with another model shows the offer without "add to knowledge base" and no toast', async () => {
    const w = await openChat()
    chatApi.regenerateTurn.mockImplementationOnce(() => handle(1, { ok: false, error: tooLong, started: false }))
    expect(useBranchStore().regenerate('openai/gpt-4')).toBe(true)
    await flush()
    expect(w.get('[data-testid="fit-offer"]').text()).toContain('pages 1–30 of the 80 pages of report.pdf fit')
    expect(w.find('[data-testid="fit-kb"]').exists()).toBe(false)
    expect(useToastStore().toasts).toHaveLength(0)

    chatApi.regenerateTurn.mockImplementationOnce(() => handle(2))
    await w.get('[data-testid="fit-send"]').trigger('click')
    await flush()
    expect(chatApi.regenerateTurn).toHaveBeenCalledTimes(2)
    expect(chatApi.regenerateTurn.mock.calls[0][0]).toEqual({ sessionId: 's1', model: 'openai/gpt-4' })
    expect(chatApi.regenerateTurn.mock.calls[1][0]).toEqual({ sessionId: 's1', model: 'openai/gpt-4', fitAttachments: true })
    expect(w.find('[data-testid="fit-offer"]').exists()).toBe(false)
    w.unmount()
  })

  it("an edit keeps its text in its editor, not the box's draft; \"send the part\" sends that text as the edit, with fitAttachments", async () => {
    const w = await openChat()
    useSessionStore().sessions[0].model = 'openai/gpt-4'
    useDraftStore().set('s1', 'unsent draft here')
    await flush()
    chatApi.editTurn.mockImplementationOnce(() => handle(1, { ok: false, error: tooLong, started: false }))
    expect(useBranchStore().resend(1, 'Summarise it briefly')).toBe(true)
    await flush()
    expect(w.find('[data-testid="fit-offer"]').exists()).toBe(true)
    expect((w.get('textarea').element as HTMLTextAreaElement).value).toBe('unsent draft here')
    const branches = useBranchStore()
    expect(branches.editingId).toBe(1)
    expect(branches.editorText(useChatStore().stored[0])).toBe('Summarise it briefly')

    chatApi.editTurn.mockImplementationOnce(() => handle(2))
    await w.get('[data-testid="fit-send"]').trigger('click')
    await flush()
    expect(chatApi.editTurn.mock.calls[1][0]).toEqual({
      sessionId: 's1', messageId: 1, text: 'Summarise it briefly', model: 'openai/gpt-4', fitAttachments: true,
    })
    expect(chatApi.streamTurn).not.toHaveBeenCalled()
    expect((w.get('textarea').element as HTMLTextAreaElement).value).toBe('unsent draft here')
    expect(useDraftStore().get('s1')).toBe('unsent draft here')
    w.unmount()
  })

  it("Cancel closes the offer, sends nothing, and leaves the edit's text in its open editor", async () => {
    const w = await openChat()
    chatApi.editTurn.mockImplementationOnce(() => handle(1, { ok: false, error: tooLong, started: false }))
    useBranchStore().resend(1, 'Summarise it briefly')
    await flush()
    await w.get('[data-testid="fit-cancel"]').trigger('click')
    await flush()
    expect(w.find('[data-testid="fit-offer"]').exists()).toBe(false)
    expect(chatApi.editTurn).toHaveBeenCalledTimes(1)
    expect((w.get('textarea').element as HTMLTextAreaElement).value).toBe('')
    const branches = useBranchStore()
    expect(branches.editingId).toBe(1)
    expect(branches.editorText(useChatStore().stored[0])).toBe('Summarise it briefly')
    branches.cancelEdit()
    expect(branches.editorText(useChatStore().stored[0])).toBe('Summarise the report')
    w.unmount()
  })
})
