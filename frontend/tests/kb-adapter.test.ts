import { describe, expect, it, vi } from 'vitest'
import { indexedAt, status } from '@/api/kb'

// KBService.Status returns Go's kb.Status as it is: progress nested, the
// zero time for an index that never changed.
vi.mock('../wailsjs/go/app/KBService', () => ({ Status: vi.fn() }))
const KBService = vi.mocked(await import('../wailsjs/go/app/KBService'))

const goStatus = (over: Record<string, unknown> = {}) =>
  ({
    root: '/kb', indexed: 2, pending: 1, failed: [{ path: 'a.md', error: 'bad' }],
    lastIndexedAt: '2026-01-02T03:04:05Z', indexing: true, progress: { done: 3, total: 9 },
    watching: true, watchError: '', embeddingModel: 'e', embedded: 1, embeddingPending: 4, embeddingError: '',
    ...over,
  }) as never

describe('kb adapter', () => {
  it('passes kb.Status through with its nested progress', async () => {
    KBService.Status.mockResolvedValue(goStatus())
    const s = await status()
    expect(s.progress).toEqual({ done: 3, total: 9 })
    expect(s.lastIndexedAt).toBe('2026-01-02T03:04:05Z')
    expect(s.failed).toEqual([{ path: 'a.md', error: 'bad' }])
    expect(s.embeddingPending).toBe(4)
  })

  it('shows Go\'s zero time as "never indexed" (an empty string)', async () => {
    KBService.Status.mockResolvedValue(goStatus({ lastIndexedAt: '0001-01-01T00:00:00Z', progress: null, failed: null }))
    const s = await status()
    expect(s.lastIndexedAt).toBe('')
    expect(s.progress).toEqual({ done: 0, total: 0 })
    expect(s.failed).toEqual([])
    expect(indexedAt(undefined)).toBe('')
    expect(indexedAt('2025-01-01T00:00:00Z')).toBe('2025-01-01T00:00:00Z')
  })
})
