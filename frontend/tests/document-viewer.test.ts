import { mount } from '@vue/test-utils'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ref } from 'vue'
import type { Attachment } from '@/api/types'
import { flush, testI18n } from './helpers'

// A document chip in the history opens a viewer of the text that went to
// the model (issue 25): name, type, size and pages, the text selectable,
// Copy; Esc and ✕ close it.

vi.mock('@/composables/useNearViewport', () => ({ useNearViewport: () => ref(true) }))
vi.mock('@/api/attachments', () => ({
  dataURL: vi.fn(async () => 'data:image/png;base64,AA'),
  text: vi.fn(async () => '[page 1]\n灯台の点検は三月です\n[page 2]\nSecond page'),
}))
vi.mock('@/api/clipboard', () => ({ copyText: vi.fn(async () => {}) }))
const api = vi.mocked(await import('@/api/attachments'))
const clipboard = vi.mocked(await import('@/api/clipboard'))
const MessageAttachments = (await import('@/components/chat/MessageAttachments.vue')).default

const pdf: Attachment = {
  sha256: 'f'.repeat(64), name: 'lighthouse.pdf', kind: 'pdf', mime: 'application/pdf', size: 1900, width: 0, height: 0,
  chars: 92, pages: 2, sentPages: 0, sentChars: 0,
}

beforeEach(() => vi.clearAllMocks())

describe('a document chip in the history', () => {
  it('shows its pages and opens a viewer with the text that went to the model; Copy copies it; ✕ closes', async () => {
    const w = mount(MessageAttachments, { props: { files: [pdf] }, global: { plugins: [testI18n()] }, attachTo: document.body })
    const chip = w.get('[data-testid="attachment-doc"]')
    expect(chip.text()).toContain('2 pages')
    expect(w.find('[data-testid="document-viewer"]').exists()).toBe(false)
    await chip.trigger('click')
    await flush()
    expect(api.text).toHaveBeenCalledWith(pdf.sha256)
    const viewer = w.get('[data-testid="document-viewer"]')
    expect(viewer.text()).toContain('lighthouse.pdf')
    expect(viewer.text()).toContain('application/pdf')
    expect(w.get('[data-testid="document-text"]').text()).toBe('[page 1]\n灯台の点検は三月です\n[page 2]\nSecond page')
    await w.get('[data-testid="document-copy"]').trigger('click')
    expect(clipboard.copyText).toHaveBeenCalledWith('[page 1]\n灯台の点検は三月です\n[page 2]\nSecond page')
    await w.get('[data-testid="document-close"]').trigger('click')
    await flush()
    expect(w.find('[data-testid="document-viewer"]').exists()).toBe(false)
    w.unmount()
  })

  it('names the part the model got when only part of the document was sent (issue 25)', async () => {
    // The viewer said "the model got only the part named above" and named
    // none: the chip and the viewer now say which pages.
    const part = { ...pdf, pages: 40, sentPages: 20 }
    const w = mount(MessageAttachments, { props: { files: [part] }, global: { plugins: [testI18n()] }, attachTo: document.body })
    expect(w.get('[data-testid="attach-part"]').text()).toBe('Sent: pages 1–20 of 40')
    await w.get('[data-testid="attachment-doc"]').trigger('click')
    await flush()
    expect(w.get('[data-testid="document-sent-part"]').text()).toContain('Sent: pages 1–20 of 40')
    w.unmount()
    const ja = mount(MessageAttachments, { props: { files: [{ ...pdf, sentPages: 0, sentChars: 30 }] }, global: { plugins: [testI18n('ja')] }, attachTo: document.body })
    await ja.get('[data-testid="attachment-doc"]').trigger('click')
    await flush()
    expect(ja.get('[data-testid="document-sent-part"]').text()).toContain('送信したのは 92 文字中 最初の 30 文字')
    ja.unmount()
  })

  it('Esc closes it, and a file that is gone says why (in Japanese too)', async () => {
    api.text.mockRejectedValueOnce({ code: 'attach.missing', message: 'missing', params: { sha: 'f' } })
    const w = mount(MessageAttachments, { props: { files: [pdf] }, global: { plugins: [testI18n('ja')] }, attachTo: document.body })
    await w.get('[data-testid="attachment-doc"]').trigger('click')
    await flush()
    expect(w.get('[role="alert"]').text()).toContain('lighthouse.pdf を表示できません')
    document.activeElement?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    await flush()
    expect(w.find('[data-testid="document-viewer"]').exists()).toBe(false)
    w.unmount()
  })
})
