import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { KBDoc, KBNode, KBStatus } from '@/api/types'
import { useKBStore } from '@/stores/kb'
import { KB_SEARCH_DEBOUNCE_MS, KB_SEARCH_LIMIT, useKBSearchStore } from '@/stores/kbSearch'

vi.mock('@/api/kb', () => ({
  status: vi.fn(),
  tree: vi.fn(),
  read: vi.fn(),
  search: vi.fn(async () => []),
  reindex: vi.fn(async () => {}),
  openFolder: vi.fn(async () => {}),
}))
const api = vi.mocked(await import('@/api/kb'))

const status = (over: Partial<KBStatus> = {}): KBStatus => ({
  root: '/data/knowledge_base', indexed: 3, pending: 0, failed: [], lastIndexedAt: '2025-01-01T00:00:00Z',
  indexing: false, progress: { done: 0, total: 0 }, watching: true, watchError: '', embeddingModel: '', embedded: 0,
  embeddingPending: 0, embeddingError: '', ...over,
})
const dir = (path: string, count = 1): KBNode => ({
  name: path.split('/').pop()!, path, dir: true, title: '', size: 0, error: '', count, children: [],
})
const file = (path: string, title = ''): KBNode => ({
  name: path.split('/').pop()!, path, dir: false, title, size: 10, error: '', count: 0, children: [],
})
const doc = (path: string, content = '# ' + path): KBDoc => ({
  path, title: path, content, size: content.length, modTime: '2025-01-01T00:00:00Z',
})

/** A Tree answer per folder. */
const TREE: Record<string, KBNode[]> = {
  '': [dir('guides', 2), file('readme.md', 'Read me')],
  guides: [dir('guides/deep', 1), file('guides/a.md', 'A')],
  'guides/deep': [file('guides/deep/b.md', 'B')],
}

const tick = (ms = 0) => vi.advanceTimersByTimeAsync(ms)

beforeEach(() => {
  vi.useFakeTimers()
  vi.clearAllMocks()
  setActivePinia(createPinia())
  api.status.mockResolvedValue(status())
  api.tree.mockImplementation(async (path: string) => ({ ...dir(path), children: TREE[path] ?? [] }))
  api.read.mockImplementation(async (path: string) => doc(path))
  api.search.mockResolvedValue([])
})
afterEach(() => {
  useKBStore().deactivate()
  useKBSearchStore().clear()
  vi.useRealTimers()
})

describe('knowledge store: status polling', () => {
  it('polls every 5 s when idle and every 1 s while indexing, and stops when told', async () => {
    const kb = useKBStore()
    kb.startPolling()
    await tick()
    expect(api.status).toHaveBeenCalledTimes(1)
    expect(kb.status?.indexed).toBe(3)

    await tick(4999)
    expect(api.status).toHaveBeenCalledTimes(1)
    api.status.mockResolvedValue(status({ indexing: true, progress: { done: 10, total: 100 } }))
    await tick(1)
    expect(api.status).toHaveBeenCalledTimes(2)
    expect(kb.status?.indexing).toBe(true)

    // indexing: one call a second
    await tick(1000)
    expect(api.status).toHaveBeenCalledTimes(3)
    await tick(1000)
    expect(api.status).toHaveBeenCalledTimes(4)

    // done: back to every 5 s
    api.status.mockResolvedValue(status({ indexed: 100 }))
    await tick(1000)
    expect(api.status).toHaveBeenCalledTimes(5)
    await tick(4999)
    expect(api.status).toHaveBeenCalledTimes(5)
    await tick(1)
    expect(api.status).toHaveBeenCalledTimes(6)

    kb.stopPolling()
    await tick(60_000)
    expect(api.status).toHaveBeenCalledTimes(6)
  })

  it('does not double the timers when started twice, nor poll after a stop during a call', async () => {
    const kb = useKBStore()
    kb.startPolling()
    kb.startPolling()
    await tick()
    expect(api.status).toHaveBeenCalledTimes(1)
    let release!: (s: KBStatus) => void
    api.status.mockImplementationOnce(() => new Promise((r) => (release = r)))
    await tick(5000)
    expect(api.status).toHaveBeenCalledTimes(2)
    kb.stopPolling()
    release(status())
    await tick(60_000)
    expect(api.status).toHaveBeenCalledTimes(2)
  })

  it('keeps polling after a failed call and shows the error', async () => {
    const kb = useKBStore()
    api.status.mockRejectedValueOnce(new Error('backend not ready'))
    kb.startPolling()
    await tick()
    expect(kb.statusError).toEqual({ code: '', message: 'backend not ready' })
    await tick(5000)
    expect(api.status).toHaveBeenCalledTimes(2)
    expect(kb.statusError).toBeNull()
  })

  it('polls fast right after Reindex', async () => {
    const kb = useKBStore()
    kb.startPolling()
    await tick()
    await kb.reindex()
    expect(api.reindex).toHaveBeenCalledTimes(1)
    expect(kb.status?.indexing).toBe(true)
    await tick(1000)
    expect(api.status).toHaveBeenCalledTimes(2)
  })

  it('refreshes the tree and the open document once an index change settles', async () => {
    const kb = useKBStore()
    await kb.activate()
    await kb.open('readme.md')
    await tick()
    api.tree.mockClear()
    api.read.mockClear()
    api.status.mockResolvedValue(status({ indexed: 4, lastIndexedAt: '2025-01-02T00:00:00Z' }))
    api.read.mockResolvedValue(doc('readme.md', '# changed'))
    await tick(5000)
    expect(api.tree).toHaveBeenCalledWith('')
    expect(api.read).toHaveBeenCalledWith('readme.md')
    expect(kb.doc?.content).toBe('# changed')
  })

  it('searches the shown query again once an index change settles', async () => {
    const kb = useKBStore()
    const search = useKBSearchStore()
    kb.startPolling()
    search.setQuery('rust')
    await tick(KB_SEARCH_DEBOUNCE_MS)
    expect(api.search).toHaveBeenCalledTimes(1)
    api.status.mockResolvedValue(status({ lastIndexedAt: '2025-01-02T00:00:00Z' }))
    await tick(5000)
    expect(api.search).toHaveBeenCalledTimes(2)
  })
})

describe('knowledge search store', () => {
  it('debounces typing into one search', async () => {
    const kb = useKBSearchStore()
    kb.setQuery('r')
    kb.setQuery('ru')
    kb.setQuery('rust')
    await tick(KB_SEARCH_DEBOUNCE_MS - 1)
    expect(api.search).not.toHaveBeenCalled()
    await tick(1)
    expect(api.search).toHaveBeenCalledTimes(1)
    expect(api.search).toHaveBeenCalledWith('rust', KB_SEARCH_LIMIT)
    expect(kb.searchedQuery).toBe('rust')
  })

  it('never searches an uncommitted IME composition, then searches what was committed', async () => {
    const kb = useKBSearchStore()
    kb.compositionStart()
    kb.setQuery('しょ')
    kb.setQuery('しょゆ')
    kb.setQuery('所有')
    await tick(2000)
    expect(api.search).not.toHaveBeenCalled()
    kb.compositionEnd('所有権')
    await tick(KB_SEARCH_DEBOUNCE_MS)
    expect(api.search).toHaveBeenCalledTimes(1)
    expect(api.search).toHaveBeenCalledWith('所有権', KB_SEARCH_LIMIT)
  })

  it('ignores input events flagged isComposing, and a composition cancels a pending search', async () => {
    const kb = useKBSearchStore()
    kb.setQuery('しょ', true)
    await tick(1000)
    expect(api.search).not.toHaveBeenCalled()
    kb.setQuery('rust ')
    kb.compositionStart()
    await tick(1000)
    expect(api.search).not.toHaveBeenCalled()
    // WebKit: compositionend, then a last input event that is not composing: one search
    kb.compositionEnd('rust 所有権')
    kb.setQuery('rust 所有権')
    await tick(KB_SEARCH_DEBOUNCE_MS)
    expect(api.search).toHaveBeenCalledTimes(1)
  })

  it('clears the results at once for an empty query and drops stale answers', async () => {
    const kb = useKBSearchStore()
    let first!: (h: []) => void
    api.search.mockImplementationOnce(() => new Promise((r) => (first = r)))
    kb.setQuery('old')
    await tick(KB_SEARCH_DEBOUNCE_MS)
    const hit = { rank: 1, path: 'a.md', title: 'A', heading: '', score: 1, excerpt: '«new»' }
    api.search.mockResolvedValueOnce([hit])
    kb.setQuery('new')
    await tick(KB_SEARCH_DEBOUNCE_MS)
    first([])
    await tick()
    expect(kb.hits).toEqual([hit])
    kb.setQuery('   ')
    expect(kb.hits).toEqual([])
    expect(kb.searching).toBe(false)
  })

  it('going back to the answered query drops an answer still on its way', async () => {
    const kb = useKBSearchStore()
    const a = { rank: 1, path: 'a.md', title: 'A', heading: '', score: 1, excerpt: '' }
    api.search.mockResolvedValueOnce([a])
    kb.setQuery('a')
    await tick(KB_SEARCH_DEBOUNCE_MS)
    let late!: (h: (typeof a)[]) => void
    api.search.mockImplementationOnce(() => new Promise((r) => (late = r)))
    kb.setQuery('ab')
    await tick(KB_SEARCH_DEBOUNCE_MS)
    kb.setQuery('a')
    await tick(KB_SEARCH_DEBOUNCE_MS)
    late([{ ...a, path: 'ab.md' }])
    await tick()
    expect(api.search).toHaveBeenCalledTimes(2)
    expect(kb.hits).toEqual([a])
    expect(kb.searching).toBe(false)
  })

  it('shows a search error', async () => {
    const kb = useKBSearchStore()
    api.search.mockRejectedValueOnce(new Error('fts5: syntax error'))
    kb.setQuery('"')
    await tick(KB_SEARCH_DEBOUNCE_MS)
    expect(kb.error).toEqual({ code: '', message: 'fts5: syntax error' })
    expect(kb.hits).toEqual([])
  })
})

describe('knowledge store: tree and documents', () => {
  it('loads folders lazily and keeps them cached across collapse and expand', async () => {
    const kb = useKBStore()
    await kb.activate()
    expect(api.tree).toHaveBeenCalledTimes(1)
    expect(api.tree).toHaveBeenCalledWith('')
    expect(kb.rootEntries?.map((n) => n.path)).toEqual(['guides', 'readme.md'])
    expect(kb.folders.guides).toBeUndefined()

    await kb.toggleFolder('guides')
    expect(api.tree).toHaveBeenCalledTimes(2)
    expect(api.tree).toHaveBeenLastCalledWith('guides')
    expect(kb.expanded.guides).toBe(true)
    expect(kb.folders.guides.map((n) => n.path)).toEqual(['guides/deep', 'guides/a.md'])

    await kb.toggleFolder('guides') // collapse
    expect(kb.expanded.guides).toBeUndefined()
    await kb.toggleFolder('guides') // expand again: from the cache
    expect(api.tree).toHaveBeenCalledTimes(2)
  })

  it('shares one call between concurrent loads of the same folder', async () => {
    const kb = useKBStore()
    await Promise.all([kb.loadFolder('guides'), kb.loadFolder('guides'), kb.toggleFolder('guides')])
    expect(api.tree).toHaveBeenCalledTimes(1)
  })

  it('records a folder that fails to load and retries it next time', async () => {
    const kb = useKBStore()
    api.tree.mockRejectedValueOnce(new Error('no folder "x"'))
    await expect(kb.toggleFolder('x')).rejects.toThrow('no folder')
    expect(kb.folderErrors.x).toEqual({ code: '', message: 'no folder "x"' })
    await kb.toggleFolder('x') // collapse
    await kb.toggleFolder('x')
    expect(api.tree).toHaveBeenCalledTimes(2)
    expect(kb.folderErrors.x).toBeUndefined()
  })

  it('reopening the browser refreshes the open folders and forgets closed ones', async () => {
    const kb = useKBStore()
    await kb.activate()
    await kb.toggleFolder('guides')
    await kb.toggleFolder('guides/deep')
    await kb.toggleFolder('guides/deep')
    kb.deactivate()
    api.tree.mockClear()
    await kb.activate()
    expect(api.tree.mock.calls.map((c) => c[0]).sort()).toEqual(['', 'guides'])
    expect(kb.folders['guides/deep']).toBeUndefined()
  })

  it('opens a document, reveals its folders and follows relative links with Back', async () => {
    const kb = useKBStore()
    await kb.activate()
    await kb.open('guides/deep/b.md', { heading: 'Intro › Setup' })
    await tick()
    expect(kb.doc?.path).toBe('guides/deep/b.md')
    expect(kb.scrollTarget?.heading).toBe('Intro › Setup')
    expect(kb.expanded.guides).toBe(true)
    expect(kb.expanded['guides/deep']).toBe(true)

    expect(kb.followLink('../a.md#usage')).toBe(true)
    await tick()
    expect(api.read).toHaveBeenLastCalledWith('guides/a.md')
    expect(kb.docPath).toBe('guides/a.md')
    expect(kb.scrollTarget?.heading).toBe('usage')
    expect(kb.history).toEqual(['guides/deep/b.md'])

    const reads = api.read.mock.calls.length
    expect(kb.followLink('../../outside.md')).toBe(false)
    expect(kb.followLink('https://example.com/x.md')).toBe(false)
    expect(kb.followLink('picture.png')).toBe(false)
    expect(api.read).toHaveBeenCalledTimes(reads)

    const seq = kb.scrollTarget!.seq
    expect(kb.followLink('#options')).toBe(true)
    expect(kb.scrollTarget).toEqual({ heading: 'options', seq: seq + 1 })

    kb.back()
    await tick()
    expect(kb.docPath).toBe('guides/deep/b.md')
    expect(kb.history).toEqual([])
  })

  it('shows a read error instead of the document', async () => {
    const kb = useKBStore()
    api.read.mockRejectedValueOnce('../x.md: outside the knowledge base')
    await kb.open('x.md')
    expect(kb.doc).toBeNull()
    expect(kb.docError).toEqual({ code: '', message: '../x.md: outside the knowledge base' })
  })

  it('knows when the KB holds only the seeded guide', async () => {
    const kb = useKBStore()
    api.tree.mockResolvedValue({ ...dir(''), children: [file('playchat-guide.md', 'Guide')] })
    await kb.activate()
    await tick()
    expect(kb.seedOnly).toBe(true)
  })
})
