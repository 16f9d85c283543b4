import { mount } from '@vue/test-utils'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ref } from 'vue'
import type { Attachment } from '@/api/types'
import { flush, testI18n } from './helpers'

// Images in the history (issue 25) are read only while near the visible
// area and let go when they leave it: a chat with hundreds of pictures
// holds only the ones around where the user is.

const near = ref(false)
vi.mock('@/composables/useNearViewport', () => ({ useNearViewport: () => near }))
vi.mock('@/api/attachments', () => ({ dataURL: vi.fn(async (sha: string) => `data:image/png;base64,${sha}`) }))
const api = vi.mocked(await import('@/api/attachments'))
const MessageAttachments = (await import('@/components/chat/MessageAttachments.vue')).default

const picture = (sha: string): Attachment => ({
  sha256: sha, name: `${sha}.png`, kind: 'image', mime: 'image/png', size: 1000, width: 1280, height: 960,
  chars: 0, pages: 0, sentPages: 0, sentChars: 0,
})

beforeEach(() => {
  near.value = false
  vi.clearAllMocks()
})

describe('MessageAttachments: images near the visible area only', () => {
  it('reads nothing while far, shows the images when near, and lets them go when far again (the box keeps its size)', async () => {
    const w = mount(MessageAttachments, { props: { files: [picture('aa'), picture('bb')] }, global: { plugins: [testI18n()] } })
    await flush()
    expect(api.dataURL).not.toHaveBeenCalled()
    expect(w.findAll('img')).toHaveLength(0)
    expect(w.findAll('[data-testid="attachment-image"]').map((b) => b.attributes('style'))).toEqual([
      'aspect-ratio: 1280 / 960;', 'aspect-ratio: 1280 / 960;'])

    near.value = true
    await flush()
    expect(w.findAll('img').map((i) => i.attributes('src'))).toEqual(['data:image/png;base64,aa', 'data:image/png;base64,bb'])

    near.value = false
    await flush()
    expect(w.findAll('img')).toHaveLength(0)
    expect(w.findAll('[data-testid="attachment-image"]')).toHaveLength(2)

    near.value = true
    await flush()
    expect(w.findAll('img')).toHaveLength(2)
    expect(api.dataURL).toHaveBeenCalledTimes(4)
  })

  it('keeps no image read after it scrolled away', async () => {
    let release!: (v: string) => void
    api.dataURL.mockImplementationOnce(() => new Promise((r) => (release = r)))
    const w = mount(MessageAttachments, { props: { files: [picture('cc')] }, global: { plugins: [testI18n()] } })
    near.value = true
    await flush()
    near.value = false
    await flush()
    release('data:image/png;base64,cc')
    await flush()
    expect(w.findAll('img')).toHaveLength(0)
  })
})
