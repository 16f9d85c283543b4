// Issue 25: Remove on an unanswered question gives its files back to the
// message box with its text, and a Remove that fails stages nothing.
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { StagedAttachment } from '@/api/attachments'
import { useAttachmentStore, MAX_ATTACHMENTS } from '@/stores/attachments'
import { useBranchStore } from '@/stores/branches'
import { useChatStore } from '@/stores/chat'
import { useDraftStore } from '@/stores/drafts'
import { useSessionStore } from '@/stores/sessions'
import { useToastStore } from '@/stores/toasts'
import { fromStored } from '@/utils/turn'
import { storedMessage, storedSession } from './helpers'

vi.mock('@/api/chat', () => ({
  streamTurn: vi.fn(), regenerateTurn: vi.fn(), editTurn: vi.fn(), removeUnanswered: vi.fn(),
}))
vi.mock('@/api/sessions', () => ({
  list: vi.fn(async () => []),
  messages: vi.fn(async () => []),
  selectBranch: vi.fn(async () => []),
}))
vi.mock('@/api/attachments', () => ({ restage: vi.fn(), discard: vi.fn(async () => {}), takesImages: vi.fn(async () => 'yes') }))
vi.mock('@/api/notes', () => ({ list: vi.fn(async () => []), pins: vi.fn(async () => []), setPins: vi.fn() }))

const chatApi = vi.mocked(await import('@/api/chat'))
const attachmentsApi = vi.mocked(await import('@/api/attachments'))

const session = storedSession
const msg = storedMessage
const file = (name: string, kind = 'text') => ({
  name, kind, mime: kind === 'image' ? 'image/png' : 'text/plain', sha256: name, size: 10, width: 0, height: 0,
  chars: 10, pages: 0, sentPages: 0, sentChars: 0,
})
const staged = (id: string, name: string): StagedAttachment => ({
  id, name, kind: 'text', mime: 'text/plain', size: 10, width: 0, height: 0, chars: 10, pages: 0, thumbnail: '',
})

function setup() {
  setActivePinia(createPinia())
  const sessions = useSessionStore()
  sessions.sessions = [session('s1')]
  sessions.currentId = 's1'
  const chat = useChatStore()
  chat.stored = [
    msg(1, 'user', 'q1'), msg(2, 'assistant', 'r1'),
    msg(3, 'user', 'look at these', { unanswered: true, attachments: [file('a.md'), file('shot.png', 'image')] }),
    msg(4, 'assistant', '', { status: 'error', error: 'HTTP 429' }),
  ].map(fromStored)
  return { chat, branches: useBranchStore(), drafts: useDraftStore(), files: useAttachmentStore() }
}

describe('Remove on an unanswered question with files', () => {
  beforeEach(() => vi.clearAllMocks())

  it('stages its files before removing it and shows them as chips with its text', async () => {
    const { branches, drafts, files } = setup()
    const order: string[] = []
    attachmentsApi.restage.mockImplementationOnce(async () => (order.push('restage'), [staged('x1', 'a.md'), staged('x2', 'shot.png')]))
    chatApi.removeUnanswered.mockImplementationOnce(async () => (order.push('remove'), [msg(1, 'user', 'q1'), msg(2, 'assistant', 'r1')]))
    expect(await branches.removeUnanswered(3)).toBe(true)
    expect(order).toEqual(['restage', 'remove'])
    expect(attachmentsApi.restage).toHaveBeenCalledWith('s1', 3)
    expect(files.list('s1').map((f) => f.id)).toEqual(['x1', 'x2'])
    expect(drafts.get('s1')).toBe('look at these')
  })

  it('when the removal fails, forgets the staged copies and adds no chip', async () => {
    const { branches, files } = setup()
    attachmentsApi.restage.mockResolvedValueOnce([staged('x1', 'a.md'), staged('x2', 'shot.png')])
    chatApi.removeUnanswered.mockRejectedValueOnce(new Error('busy'))
    expect(await branches.removeUnanswered(3)).toBe(false)
    expect(files.list('s1')).toEqual([])
    expect(attachmentsApi.discard).toHaveBeenCalledWith(['x1', 'x2'])
    expect(useToastStore().toasts.length).toBeGreaterThan(0)
  })

  it('brings back no more files than a message may carry', async () => {
    const { branches, files } = setup()
    files.accept('s1', Array.from({ length: MAX_ATTACHMENTS - 1 }, (_, i) => staged(`k${i}`, `k${i}.md`)))
    attachmentsApi.restage.mockResolvedValueOnce([staged('x1', 'a.md'), staged('x2', 'shot.png')])
    chatApi.removeUnanswered.mockResolvedValueOnce([])
    expect(await branches.removeUnanswered(3)).toBe(true)
    expect(files.list('s1').length).toBe(MAX_ATTACHMENTS)
    expect(files.list('s1').at(-1)?.id).toBe('x1')
    expect(attachmentsApi.discard).toHaveBeenCalledWith(['x2'])
  })

  it('does not ask for files when the question has none', async () => {
    const { chat, branches } = setup()
    chat.stored = chat.stored.map((m) => (m.id === 3 ? { ...m, attachments: [] } : m))
    chatApi.removeUnanswered.mockResolvedValueOnce([])
    expect(await branches.removeUnanswered(3)).toBe(true)
    expect(attachmentsApi.restage).not.toHaveBeenCalled()
  })
})
