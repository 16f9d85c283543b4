import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import KBDropZone from '@/components/kb/KBDropZone.vue'
import type { DropReport } from '@/api/kbDrop'
import { attachablePaths, baseName, dropPaths, summarizeDrop } from '@/utils/kbDrop'
import { flush, testI18n } from './helpers'

let dropHandler: ((paths: string[]) => void) | null = null
const off = vi.fn()
vi.mock('@/api/kbDrop', () => ({
  importDropped: vi.fn(),
  onFileDrop: vi.fn((h: (paths: string[]) => void) => {
    dropHandler = h
    return off
  }),
}))
vi.mock('@/api/kb', () => ({ status: vi.fn(async () => ({})), tree: vi.fn(async () => ({ children: [] })) }))
const api = vi.mocked(await import('@/api/kbDrop'))

const report = (over: Partial<DropReport> = {}): DropReport =>
  ({
    copied: ['a.md', 'notes/b.md'],
    skipped: [
      { path: '/home/u/photo.png', reason: 'unsupported', detail: '' },
      { path: 'C:\\Users\\u\\big.md', reason: 'too_big', detail: '' },
      { path: '/home/u/a.md', reason: 'duplicate', detail: '' },
      { path: '/home/u/x.pdf', reason: 'unsupported', detail: '' },
    ],
    skippedMore: 0,
    bytes: 10,
    ...over,
  }) as DropReport

describe('drop logic', () => {
  it('sends each dropped path once, trimmed, and nothing that is not a path', () => {
    expect(dropPaths(['/a.md', ' /a.md ', '', '/dir', null, 3, '/dir'])).toEqual(['/a.md', '/dir'])
    expect(dropPaths(null)).toEqual([])
  })

  it('attaches from a drop on the message box only the files: a link gives none (issue 25)', () => {
    // Wails hands a link dragged from a browser over as an empty path: the
    // message box says that only files can be attached instead of doing nothing.
    expect(attachablePaths([''])).toEqual([])
    expect(attachablePaths(['https://example.com/a.pdf'])).toEqual([])
    expect(attachablePaths(['/home/u/報告書.pdf', 'https://example.com', ''])).toEqual(['/home/u/報告書.pdf'])
  })

  it('groups the skipped files by reason, known reasons first, with their names', () => {
    const s = summarizeDrop(report({ skippedMore: 12, skipped: [...report().skipped, { path: '/z.bin', reason: 'odd', detail: '' }] }))
    expect(s.copied).toBe(2)
    expect(s.skipped).toBe(5 + 12)
    expect(s.groups.map((g) => [g.reason, g.count])).toEqual([
      ['unsupported', 2], ['too_big', 1], ['duplicate', 1], ['odd', 1], ['more', 12],
    ])
    expect(s.groups[0].names).toEqual(['photo.png', 'x.pdf'])
    expect(s.groups[1].names).toEqual(['big.md'])
    expect(baseName('/a/b/')).toBe('b')
  })
})

describe('KBDropZone', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    api.importDropped.mockReset()
    dropHandler = null
  })

  it('copies a drop with progress and then reports what was skipped and why', async () => {
    let finish!: (r: DropReport) => void
    api.importDropped.mockImplementation((_paths, onProgress) => {
      onProgress?.({ done: 1, total: 4 })
      return new Promise((r) => (finish = r))
    })
    const w = mount(KBDropZone, { global: { plugins: [testI18n()] } })
    expect(dropHandler).not.toBeNull()
    dropHandler!(['/home/u/a.md', '/home/u/a.md', '/home/u/notes', '/home/u/photo.png'])
    await flush()
    expect(api.importDropped).toHaveBeenCalledWith(['/home/u/a.md', '/home/u/notes', '/home/u/photo.png'], expect.any(Function))
    expect(w.get('[data-testid="kb-drop-progress"]').text()).toContain('1 / 4')

    // A second drop while copying is not taken, and says so.
    dropHandler!(['/home/u/c.md'])
    await flush()
    expect(api.importDropped).toHaveBeenCalledTimes(1)
    expect(w.find('[data-testid="kb-drop-busy"]').exists()).toBe(true)

    finish(report())
    await flush()
    expect(w.find('[data-testid="kb-drop-progress"]').exists()).toBe(false)
    expect(w.get('[data-testid="kb-drop-copied"]').text()).toContain('Copied 2 documents')
    expect(w.get('[data-testid="kb-drop-copied"]').text()).toContain('(4 skipped)')
    const groups = w.findAll('[data-testid="kb-drop-skip-group"]')
    expect(groups.map((g) => g.attributes('data-reason'))).toEqual(['unsupported', 'too_big', 'duplicate'])
    expect(groups[0].text()).toContain('.md and .txt only')
    expect(groups[0].text()).toContain('photo.png, x.pdf')
    w.unmount()
    expect(off).toHaveBeenCalled()
  })

  it('ignores an empty drop and shows a failed import in Japanese', async () => {
    api.importDropped.mockRejectedValue(new Error('disk full'))
    const w = mount(KBDropZone, { global: { plugins: [testI18n('ja')] } })
    dropHandler!([])
    await flush()
    expect(api.importDropped).not.toHaveBeenCalled()
    dropHandler!(['/x.md'])
    await flush()
    expect(w.get('[data-testid="kb-drop-report"]').text()).toContain('取り込めませんでした')
    expect(w.get('[data-testid="kb-drop-report"]').text()).toContain('disk full')
  })
})
