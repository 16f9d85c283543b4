import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import AttachmentChips from '@/components/chat/AttachmentChips.vue'
import MessageInput from '@/components/chat/MessageInput.vue'
import type { StagedAttachment } from '@/api/attachments'
import { flush, testI18n } from './helpers'

vi.mock('@/api/attachments', () => ({
  choose: vi.fn(),
  addFiles: vi.fn(),
  addData: vi.fn(),
  discard: vi.fn(async () => {}),
  dataURL: vi.fn(),
  takesImages: vi.fn(async () => 'unknown'),
  fileToBase64: vi.fn(async () => 'aGVsbG8='),
}))
const api = vi.mocked(await import('@/api/attachments'))
const { useAttachmentStore, pastedName } = await import('@/stores/attachments')
const { useToastStore } = await import('@/stores/toasts')

const image: StagedAttachment = {
  id: 'img-1', name: 'shot.png', kind: 'image', mime: 'image/png', size: 2048, width: 640, height: 480, chars: 0, pages: 0,
  thumbnail: 'data:image/png;base64,AAAA',
}
const doc: StagedAttachment = {
  id: 'doc-1', name: 'notes.md', kind: 'text', mime: 'text/markdown', size: 120, width: 0, height: 0, chars: 118, pages: 0,
  thumbnail: '',
}

beforeEach(() => {
  setActivePinia(createPinia())
  vi.clearAllMocks()
})

describe('AttachmentChips', () => {
  it('shows a thumbnail for an image, the name and size, and a document’s length', () => {
    const w = mount(AttachmentChips, { props: { files: [image, doc] }, global: { plugins: [testI18n()] } })
    const chips = w.findAll('[data-testid="attach-chip"]')
    expect(chips).toHaveLength(2)
    expect(chips[0].find('img.thumb').attributes('src')).toBe(image.thumbnail)
    expect(chips[0].text()).toContain('shot.png')
    expect(chips[0].text()).toContain('2.0 KB')
    expect(chips[0].text()).toContain('640×480')
    expect(chips[1].find('img').exists()).toBe(false)
    expect(chips[1].text()).toContain('118 characters')
  })

  it('shows a PDF’s pages', () => {
    const pdf = { ...doc, id: 'pdf-1', name: 'report.pdf', kind: 'pdf', mime: 'application/pdf', pages: 3 }
    const w = mount(AttachmentChips, { props: { files: [pdf] }, global: { plugins: [testI18n()] } })
    expect(w.get('[data-testid="attach-chip"]').text()).toContain('3 pages')
  })

  it('emits remove with the file’s id from its ×', async () => {
    const w = mount(AttachmentChips, { props: { files: [image, doc] }, global: { plugins: [testI18n()] } })
    const buttons = w.findAll('[data-testid="attach-remove"]')
    expect(buttons[1].attributes('aria-label')).toBe('Remove notes.md')
    await buttons[1].trigger('click')
    expect(w.emitted('remove')).toEqual([['doc-1']])
  })

  it('shows the warning that the model cannot see images', () => {
    const w = mount(AttachmentChips, {
      props: { files: [image], warning: 'openai/gpt-3.5-turbo cannot see images' },
      global: { plugins: [testI18n()] },
    })
    expect(w.get('[data-testid="attach-warning"]').text()).toContain('gpt-3.5-turbo')
  })

  it('renders nothing without files', () => {
    const w = mount(AttachmentChips, { props: { files: [] }, global: { plugins: [testI18n()] } })
    expect(w.find('[data-testid="attach-chips"]').exists()).toBe(false)
  })
})

function pasteEvent(items: { kind: string; file?: File }[]): Event {
  const e = new Event('paste', { bubbles: true, cancelable: true })
  Object.defineProperty(e, 'clipboardData', {
    value: {
      items: items.map((i) => ({ kind: i.kind, getAsFile: () => i.file ?? null })),
      files: [],
      types: items.map((i) => (i.kind === 'file' ? 'Files' : 'text/plain')),
    },
  })
  return e
}

describe('MessageInput with attachments', () => {
  it('emits the pasted image and keeps it out of the text', async () => {
    const w = mount(MessageInput, { global: { plugins: [testI18n()] }, attachTo: document.body })
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'image.png', { type: 'image/png' })
    const e = pasteEvent([{ kind: 'file', file }])
    w.get('textarea').element.dispatchEvent(e)
    expect(e.defaultPrevented).toBe(true)
    expect(w.emitted('pasteFiles')).toEqual([[[file]]])
    w.unmount()
  })

  it('asks the async clipboard when the paste carries nothing (WebKitGTK and a pasted image)', async () => {
    const blob = new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' })
    const read = vi.fn(async () => [{ types: ['image/png'], getType: async () => blob }])
    Object.defineProperty(navigator, 'clipboard', { value: { read }, configurable: true })
    const w = mount(MessageInput, { global: { plugins: [testI18n()] }, attachTo: document.body })
    const e = new Event('paste', { bubbles: true, cancelable: true })
    Object.defineProperty(e, 'clipboardData', { value: { items: [], files: [], types: [] } })
    w.get('textarea').element.dispatchEvent(e)
    await flush()
    expect(read).toHaveBeenCalled()
    const got = w.emitted('pasteFiles')?.[0]?.[0] as File[]
    expect(got).toHaveLength(1)
    expect(got[0].type).toBe('image/png')
    w.unmount()
  })

  it('leaves a paste of text to the textarea', () => {
    const w = mount(MessageInput, { global: { plugins: [testI18n()] }, attachTo: document.body })
    const e = pasteEvent([{ kind: 'string' }])
    w.get('textarea').element.dispatchEvent(e)
    expect(e.defaultPrevented).toBe(false)
    expect(w.emitted('pasteFiles')).toBeUndefined()
    w.unmount()
  })

  it('sends a message of attachments alone, and the paperclip asks for files', async () => {
    const w = mount(MessageInput, { props: { attachments: 0 }, global: { plugins: [testI18n()] }, attachTo: document.body })
    expect(w.get('[data-testid="send"]').attributes('disabled')).toBeDefined()
    await w.setProps({ attachments: 1 })
    expect(w.get('[data-testid="send"]').attributes('disabled')).toBeUndefined()
    await w.get('[data-testid="attach"]').trigger('click')
    expect(w.emitted('attach')).toHaveLength(1)
    w.unmount()
  })
})

describe('the attachments store', () => {
  it('lists the files taken and shows why the others were refused', async () => {
    api.choose.mockResolvedValueOnce([
      image,
      { ...doc, id: '', error: { code: 'attach.unsupported', params: { name: 'a.exe', type: 'application/octet-stream' }, message: 'no' } },
    ])
    const s = useAttachmentStore()
    const toasts = useToastStore()
    await s.choose('sess', 'Files to attach')
    expect(s.list('sess').map((f) => f.id)).toEqual(['img-1'])
    expect(toasts.toasts).toHaveLength(1)
    expect(s.list(null)).toEqual([]) // another chat's box is untouched
  })

  it('refuses the files past ten as they are added, not at Send (issue 25)', async () => {
    // A new-user try dropped twelve files: twelve chips, then a refused Send.
    const many = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ ...doc, id: `doc-${from + i}` }))
    api.addFiles.mockResolvedValueOnce(many(8)).mockResolvedValueOnce(many(4, 8))
    const s = useAttachmentStore()
    const toasts = useToastStore()
    await s.addPaths('sess', ['/tmp/a'])
    expect(toasts.toasts).toHaveLength(0)
    await s.addPaths('sess', ['/tmp/b'])
    expect(s.list('sess').map((f) => f.id)).toEqual(many(10).map((f) => f.id))
    expect(api.discard).toHaveBeenCalledWith(['doc-10', 'doc-11'])
    expect(toasts.toasts).toHaveLength(1)
    expect(toasts.toasts[0].error).toMatchObject({ code: 'attach.tooManyStaged', params: { max: 10, refused: 2, names: 'notes.md, notes.md' } })
  })

  it('reads pasted files as base64 and names a nameless one', async () => {
    api.addData.mockResolvedValueOnce(image)
    const s = useAttachmentStore()
    await s.addBlobs(null, [new File([new Uint8Array([1])], '', { type: 'image/png' })])
    expect(api.addData).toHaveBeenCalledWith('pasted-image.png', 'aGVsbG8=')
    expect(s.list(null)).toHaveLength(1)
    expect(pastedName('image/jpeg')).toBe('pasted-image.jpg')
  })

  it('removes a file and tells Go to forget it', async () => {
    api.addFiles.mockResolvedValueOnce([image, doc])
    const s = useAttachmentStore()
    await s.addPaths('sess', ['/tmp/shot.png', '/tmp/notes.md'])
    s.remove('sess', 'img-1')
    await flush()
    expect(s.list('sess').map((f) => f.id)).toEqual(['doc-1'])
    expect(api.discard).toHaveBeenCalledWith(['img-1'])
  })

  it('takes the files for a send and puts them back when it fails', async () => {
    api.addFiles.mockResolvedValueOnce([image])
    const s = useAttachmentStore()
    await s.addPaths('sess', ['/tmp/shot.png'])
    const taken = s.take('sess')
    expect(taken).toHaveLength(1)
    expect(s.list('sess')).toEqual([])
    s.restore('sess', taken)
    expect(s.list('sess').map((f) => f.id)).toEqual(['img-1'])
  })
})
