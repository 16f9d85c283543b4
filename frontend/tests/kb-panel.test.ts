import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { KBHit, KBNode, KBStatus } from '@/api/types'
import ConfirmDialog from '@/components/common/ConfirmDialog.vue'
import KBHits from '@/components/kb/KBHits.vue'
import KBPanel from '@/components/kb/KBPanel.vue'
import { KB_SEARCH_DEBOUNCE_MS } from '@/stores/kbSearch'
import { testI18n } from './helpers'

vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn() }))
vi.mock('@/api/kb', () => ({
  status: vi.fn(),
  tree: vi.fn(),
  read: vi.fn(),
  search: vi.fn(async () => []),
  reindex: vi.fn(async () => {}),
  openFolder: vi.fn(async () => {}),
  deleteDocument: vi.fn(async (p: string) => `.playchat-trash/20261202T010203.000/${p}`),
}))
vi.mock('@/api/kbDrop', () => ({
  chooseFiles: vi.fn(async () => []),
  importDropped: vi.fn(async () => ({ copied: [], skipped: [], skippedMore: 0, bytes: 0 })),
  onFileDrop: vi.fn(() => () => {}),
}))
const api = vi.mocked(await import('@/api/kb'))
const dropApi = vi.mocked(await import('@/api/kbDrop'))
const runtime = vi.mocked(await import('../wailsjs/runtime/runtime'))

const hit = (over: Partial<KBHit> = {}): KBHit => ({
  rank: 1, path: 'rust/ownership.md', title: '所有権', heading: '所有権とは？ › 所有権規則', score: 0.03,
  excerpt: '…Rust の«所有権»は«ルール»で決まる', ...over,
})
const status = (over: Partial<KBStatus> = {}): KBStatus => ({
  root: '/home/u/.playchat/knowledge_base', indexed: 1, pending: 0, failed: [], lastIndexedAt: '',
  indexing: false, progress: { done: 0, total: 0 }, watching: true, watchError: '', embeddingModel: '', embedded: 0,
  embeddingPending: 0, embeddingError: '', ...over,
})
const node = (path: string, dir = false, extra: Partial<KBNode> = {}): KBNode => ({
  name: path.split('/').pop()!, path, dir, title: '', size: 1, error: '', count: 0, children: [], ...extra,
})

describe('KBHits', () => {
  const mountHits = (hits: KBHit[], query = 'q') =>
    mount(KBHits, {
      props: { hits, query, searching: false, error: null, activePath: null },
      global: { plugins: [testI18n()] },
    })

  it('words a search error from its code when shown, again in the new language after a switch', async () => {
    const i18n = testI18n('ja')
    const error = { code: 'kb.notReady', params: {}, message: 'the knowledge base folder is not ready yet' }
    const w = mount(KBHits, {
      props: { hits: [], query: 'q', searching: false, error, activePath: null },
      global: { plugins: [i18n] },
    })
    const line = () => w.get('[data-testid="kb-search-error"]')
    expect(line().text()).toBe('検索に失敗しました: ナレッジベースのフォルダーはまだ準備中です。少し待ってからもう一度試してください')
    expect(line().attributes('title')).toBe(error.message)
    i18n.global.locale.value = 'en'
    await flushPromises()
    expect(line().text()).toBe('Search failed: The knowledge base folder is not ready yet: wait a moment and try again')
  })

  it('shows rank, title, path, heading and the excerpt with marks', () => {
    const w = mountHits([hit()])
    const li = w.get('[data-testid="kb-hit"]')
    expect(li.text()).toContain('#1')
    expect(li.text()).toContain('所有権')
    expect(li.text()).toContain('rust/ownership.md')
    expect(w.get('[data-testid="kb-hit-heading"]').text()).toContain('所有権とは？ › 所有権規則')
    const excerpt = w.get('[data-testid="kb-hit-excerpt"]')
    expect(excerpt.findAll('mark').map((m) => m.text())).toEqual(['所有権', 'ルール'])
    expect(excerpt.text()).toBe('…Rust の所有権はルールで決まる')
    expect(excerpt.text()).not.toContain('«')
  })

  it('renders markup in an excerpt, title or heading as text, never as elements', () => {
    const evil = '<img src=x onerror="window.__pwned=1">'
    const w = mountHits([
      hit({
        title: '<b>bold</b>' + evil,
        heading: '<script>alert(1)</script>',
        excerpt: `${evil} plain «<img src=y onerror=alert(2)>» and «<a href="javascript:alert(3)">x</a>»`,
      }),
    ])
    const li = w.get('[data-testid="kb-hit"]').element
    expect(li.querySelector('img')).toBeNull()
    expect(li.querySelector('script')).toBeNull()
    expect(li.querySelector('a')).toBeNull()
    expect(li.querySelector('b')).toBeNull()
    for (const el of Array.from(li.querySelectorAll('*'))) {
      for (const a of Array.from(el.attributes)) expect(a.name.startsWith('on')).toBe(false)
    }
    const excerpt = w.get('[data-testid="kb-hit-excerpt"]')
    expect(excerpt.text()).toContain(evil)
    const marks = excerpt.findAll('mark')
    expect(marks.map((m) => m.text())).toEqual(['<img src=y onerror=alert(2)>', '<a href="javascript:alert(3)">x</a>'])
    expect(marks.every((m) => m.element.children.length === 0)).toBe(true)
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined()
  })

  it('says when nothing matched and emits open on click', async () => {
    expect(mountHits([], 'zzz').get('[data-testid="kb-no-hits"]').text()).toContain('zzz')
    const w = mountHits([hit()])
    await w.get('[data-testid="kb-hit"]').trigger('click')
    expect(w.emitted('open')?.[0]).toEqual([hit()])
  })
})

let wrapper: VueWrapper | null = null
async function mountPanel() {
  wrapper = mount(
    { components: { KBPanel, ConfirmDialog }, template: '<div><KBPanel /><ConfirmDialog /></div>' },
    { global: { plugins: [testI18n()] }, attachTo: document.body },
  )
  await flushPromises()
  return wrapper
}

describe('KBPanel', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    setActivePinia(createPinia())
    api.status.mockResolvedValue(status({ indexed: 3 }))
    api.tree.mockImplementation(async (path: string) =>
      path === ''
        ? node('', true, { children: [node('rust', true, { count: 1 }), node('readme.md', false, { title: 'Read me' }), node('broken.md', false, { error: 'invalid UTF-8' })] })
        : node(path, true, { children: [node('rust/ownership.md', false, { title: '所有権' })] }),
    )
    api.read.mockImplementation(async (path: string) => ({
      path, title: path, size: 2048, modTime: '2025-03-04T05:06:07Z',
      content: '# Top\n\nSee [ownership](rust/ownership.md#rules), [away](../../etc/x.md) and [site](https://example.com).\n\n## Rules\n\ntext',
    }))
  })
  afterEach(() => {
    wrapper?.unmount()
    wrapper = null
    vi.useRealTimers()
  })

  it('shows the tree with titles, file names, counts and failures, and opens folders lazily', async () => {
    const w = await mountPanel()
    expect(api.tree).toHaveBeenCalledTimes(1)
    const docs = w.findAll('[data-testid="kb-tree-doc"]')
    expect(docs[0].text()).toContain('Read me')
    expect(docs[0].text()).toContain('readme.md')
    expect(w.get('[data-testid="kb-tree-error"]').text()).toContain('invalid UTF-8')
    const folder = w.get('[data-testid="kb-tree-folder"]')
    expect(folder.text()).toContain('rust')
    expect(folder.text()).toContain('1')
    await folder.trigger('click')
    await flushPromises()
    expect(api.tree).toHaveBeenLastCalledWith('rust')
    expect(w.text()).toContain('所有権')
  })

  it('marks a learned document in the tree and shows its provenance, and that the user edited it', async () => {
    api.tree.mockImplementation(async (path: string) =>
      path === ''
        ? node('', true, { children: [node('_learned', true, { count: 1, learned: true })] })
        : path === '_learned'
          ? node(path, true, { children: [node('_learned/vue', true, { count: 1, learned: true })] })
          : node(path, true, { children: [node('_learned/vue/20261202-010203-abc.md', false, { title: 'キャッシュ', learned: true })] }),
    )
    api.read.mockImplementation(async (path: string) => ({
      path, title: 'キャッシュ', size: 120, modTime: '2026-12-02T01:02:03Z', content: '算出プロパティはキャッシュされる。',
      learned: { path, edited: true, provenance: {
        title: 'キャッシュ', learned: true, id: '20261202-010203-abc', domain: 'vue', sourceType: 'conversation',
        sourceId: 'chat-42', client: 'claude-ai', confidence: 0.85, derivedFrom: ['vue/computed.md', 'message:17'],
        createdAt: '2026-12-02T01:02:03Z', contentHash: 'sha256:00',
      } },
    }))
    const w = await mountPanel()
    await w.get('[data-testid="kb-tree-folder"]').trigger('click')
    await flushPromises()
    await w.findAll('[data-testid="kb-tree-folder"]')[1].trigger('click')
    await flushPromises()
    const doc = w.get('[data-testid="kb-tree-doc"]')
    expect(doc.get('[data-testid="kb-tree-learned"]').text()).toBe('learned')
    await doc.trigger('click')
    await flushPromises()
    const prov = w.get('[data-testid="kb-doc-provenance"]')
    expect(prov.text()).toContain('Source: conversation')
    expect(prov.text()).toContain('Client: claude-ai')
    expect(prov.text()).toContain('Confidence: 85%')
    expect(prov.text()).toContain('vue/computed.md')
    expect(prov.text()).toContain('message:17')
    expect(prov.get('[data-testid="kb-doc-edited"]').text()).toContain('never overwrites')
  })

  it('shows no provenance for an ordinary document', async () => {
    const w = await mountPanel()
    await w.findAll('[data-testid="kb-tree-doc"]')[0].trigger('click')
    await flushPromises()
    expect(w.find('[data-testid="kb-doc-provenance"]').exists()).toBe(false)
    expect(w.find('[data-testid="kb-tree-learned"]').exists()).toBe(false)
  })

  it('opens a document with its facts and follows a relative link inside the KB only', async () => {
    const w = await mountPanel()
    await w.findAll('[data-testid="kb-tree-doc"]')[0].trigger('click')
    await flushPromises()
    expect(w.get('[data-testid="kb-doc-path"]').text()).toBe('readme.md')
    expect(w.get('[data-testid="kb-doc"]').text()).toContain('2.0 KB')
    expect(w.get('[data-testid="kb-doc-modified"]').text()).not.toBe('')
    const links = w.get('[data-testid="kb-doc"] .md').findAll('a')
    expect(links.map((a) => a.attributes('href'))).toEqual(['rust/ownership.md#rules', '../../etc/x.md', 'https://example.com'])
    expect(links[0].attributes('target')).toBeUndefined()

    await links[1].trigger('click') // escapes the root: nothing happens
    await links[2].trigger('click')
    expect(runtime.BrowserOpenURL).toHaveBeenCalledWith('https://example.com')
    expect(api.read).toHaveBeenCalledTimes(1)

    await links[0].trigger('click')
    await flushPromises()
    expect(api.read).toHaveBeenLastCalledWith('rust/ownership.md')
    expect(w.get('[data-testid="kb-doc-path"]').text()).toBe('rust/ownership.md')
    await w.get('[data-testid="kb-back"]').trigger('click')
    await flushPromises()
    expect(w.get('[data-testid="kb-doc-path"]').text()).toBe('readme.md')
  })

  it('searches once per committed IME input and shows the results instead of the tree', async () => {
    vi.useFakeTimers()
    api.search.mockResolvedValue([hit()])
    const w = await mountPanel()
    const input = w.get('[data-testid="kb-search"]')
    await input.trigger('compositionstart')
    for (const v of ['しょ', 'しょゆう', '所有']) {
      ;(input.element as HTMLInputElement).value = v
      await input.trigger('input')
    }
    await vi.advanceTimersByTimeAsync(1000)
    expect(api.search).not.toHaveBeenCalled()
    ;(input.element as HTMLInputElement).value = '所有権'
    await input.trigger('compositionend')
    await vi.advanceTimersByTimeAsync(KB_SEARCH_DEBOUNCE_MS)
    expect(api.search).toHaveBeenCalledTimes(1)
    expect(api.search.mock.calls[0][0]).toBe('所有権')
    expect(w.find('[data-testid="kb-folder-root"]').exists()).toBe(false)
    expect(w.findAll('[data-testid="kb-hit"]')).toHaveLength(1)

    await w.get('[data-testid="kb-hit"]').trigger('click')
    await vi.advanceTimersByTimeAsync(0)
    expect(api.read).toHaveBeenLastCalledWith('rust/ownership.md')

    await w.get('[data-testid="kb-search-clear"]').trigger('click')
    expect(w.find('[data-testid="kb-folder-root"]').exists()).toBe(true)
  })

  it('scrolls a search hit’s document to the hit’s heading', async () => {
    const scrolled: string[] = []
    const orig = Element.prototype.scrollIntoView
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.tagName + ':' + this.textContent)
    }
    try {
      api.search.mockResolvedValue([hit({ path: 'readme.md', heading: 'Top › Rules' })])
      const w = await mountPanel()
      const input = w.get('[data-testid="kb-search"]')
      ;(input.element as HTMLInputElement).value = 'rules'
      await input.trigger('input')
      await new Promise((r) => setTimeout(r, KB_SEARCH_DEBOUNCE_MS + 20))
      await flushPromises()
      await w.get('[data-testid="kb-hit"]').trigger('click')
      await flushPromises()
      expect(scrolled).toEqual(['H2:Rules'])
    } finally {
      Element.prototype.scrollIntoView = orig
    }
  })

  it('shows a VitePress heading without its {#id} and follows #id links to it', async () => {
    const scrolled: string[] = []
    const orig = Element.prototype.scrollIntoView
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.tagName + ':' + this.textContent)
    }
    try {
      api.read.mockImplementation(async (path: string) => ({
        path, title: 'ガイド', size: 10, modTime: '2025-03-04T05:06:07Z',
        content: '# ガイド\n\n[使い方へ](#basic-usage)\n\n## 基本的な使い方 {#basic-usage}\n\n本文',
      }))
      const w = await mountPanel()
      await w.findAll('[data-testid="kb-tree-doc"]')[0].trigger('click')
      await flushPromises()
      const doc = w.get('[data-testid="kb-doc"] .md')
      expect(doc.text()).not.toContain('{#')
      expect(doc.get('h2').text()).toBe('基本的な使い方')
      scrolled.length = 0
      await doc.get('a').trigger('click')
      await flushPromises()
      expect(scrolled).toEqual(['H2:基本的な使い方'])
    } finally {
      Element.prototype.scrollIntoView = orig
    }
  })

  it('labels a folder\'s badge as the documents below it', async () => {
    api.tree.mockImplementation(async (path: string) =>
      path === ''
        ? node('', true, { children: [node('guide', true, { count: 120 }), node('one', true, { count: 1 })] })
        : node(path, true, { children: [] }),
    )
    const w = await mountPanel()
    const [many, one] = w.findAll('[data-testid="kb-folder-count"]')
    expect(many.text()).toBe('120')
    expect(many.attributes('title')).toBe('120 documents in this folder and its subfolders')
    expect(one.attributes('title')).toBe('1 document in this folder and its subfolders')
  })

  it('says "1 document" in the status', async () => {
    api.status.mockResolvedValue(status({ indexed: 1 }))
    const w = await mountPanel()
    expect(w.get('[data-testid="kb-indexed"]').text()).toBe('1 document')
  })

  it('shows the progress bar while indexing and reindexes after a confirmation', async () => {
    api.status.mockResolvedValue(status({ indexing: true, progress: { done: 450, total: 1000 }, indexed: 450, failed: [{
      path: 'bad.md', error: 'larger than 10 MiB', errorInfo: { code: 'kb.fileTooLarge', params: { maxMiB: 10 }, message: 'larger than 10 MiB' },
    }] }))
    const w = await mountPanel()
    expect(w.get('[data-testid="kb-progress"] [role="progressbar"]').attributes('aria-valuenow')).toBe('45')
    expect(w.get('[data-testid="kb-progress"]').text()).toContain('450 of 1,000 (45%)')
    expect((w.get('[data-testid="kb-reindex"]').element as HTMLButtonElement).disabled).toBe(true)
    await w.get('[data-testid="kb-failed-count"]').trigger('click')
    // worded by its code, the backend's words in the tooltip
    expect(w.get('[data-testid="kb-failed"]').text()).toContain('Larger than 10 MiB, so it is not indexed')
    expect(w.get('[data-testid="kb-failed"] .error').attributes('title')).toBe('larger than 10 MiB')

    api.status.mockResolvedValue(status({ indexed: 1000 }))
    const kb = (await import('@/stores/kb')).useKBStore()
    await kb.refreshStatus()
    await flushPromises()
    expect(w.find('[data-testid="kb-progress"]').exists()).toBe(false)
    await w.get('[data-testid="kb-reindex"]').trigger('click')
    await flushPromises()
    expect(api.reindex).not.toHaveBeenCalled()
    await w.get('[data-testid="confirm-ok"]').trigger('click')
    await flushPromises()
    expect(api.reindex).toHaveBeenCalledTimes(1)
  })

  it('Escape clears the search (or ends a composition) without closing the panel', async () => {
    const w = await mountPanel()
    const closed = vi.fn()
    document.addEventListener('keydown', closed)
    try {
      const input = w.get('[data-testid="kb-search"]')
      ;(input.element as HTMLInputElement).value = 'rust'
      await input.trigger('input')
      await input.trigger('keydown', { key: 'Escape', isComposing: true })
      expect(closed).not.toHaveBeenCalled()
      expect((input.element as HTMLInputElement).value).toBe('rust')
      await input.trigger('keydown', { key: 'Escape' })
      expect(closed).not.toHaveBeenCalled()
      expect((input.element as HTMLInputElement).value).toBe('')
      await input.trigger('keydown', { key: 'Escape' })
      expect(closed).toHaveBeenCalledTimes(1) // empty box: the panel's Escape applies
    } finally {
      document.removeEventListener('keydown', closed)
    }
  })

  it('explains how to fill an empty knowledge base', async () => {
    api.tree.mockResolvedValue(node('', true, { children: [node('playchat-guide.md', false, { title: 'Guide' })] }))
    const w = await mountPanel()
    const empty = w.get('[data-testid="kb-empty"]')
    expect(empty.text()).toContain('watched live')
    expect(w.get('[data-testid="kb-empty-root"]').text()).toBe('/home/u/.playchat/knowledge_base')
    expect(empty.text()).toContain('playchat kb import --source DIR')
    // The guide is listed beside it, so the panel never calls the knowledge base empty.
    expect(empty.text()).toContain('Only the bundled user guide is here so far')
    expect(empty.text().toLowerCase()).not.toContain('is empty')
  })

  it('stops polling when closed', async () => {
    vi.useFakeTimers()
    const w = await mountPanel()
    await vi.advanceTimersByTimeAsync(0)
    const calls = api.status.mock.calls.length
    w.unmount()
    wrapper = null
    await vi.advanceTimersByTimeAsync(30_000)
    expect(api.status).toHaveBeenCalledTimes(calls)
  })

  // Issue 22: the empty state offered only a terminal command, and a
  // document could not be deleted from the app.
  it('adds files from the picker, from the empty state and from the panel, as a drop would', async () => {
    api.tree.mockResolvedValue(node('', true, { children: [node('playchat-guide.md', false, { title: 'Guide' })] }))
    const w = await mountPanel()
    await w.get('[data-testid="kb-empty-add-files"]').trigger('click')
    await flushPromises()
    expect(dropApi.chooseFiles).toHaveBeenCalledWith('Add documents to the knowledge base')
    expect(dropApi.importDropped).not.toHaveBeenCalled() // cancelled

    dropApi.chooseFiles.mockResolvedValue(['/home/u/手順.md', '/home/u/memo.txt'])
    dropApi.importDropped.mockResolvedValue({ copied: ['手順.md', 'memo.md'], skipped: [], skippedMore: 0, bytes: 20 } as never)
    await w.get('[data-testid="kb-add-files"]').trigger('click')
    await flushPromises()
    expect(dropApi.importDropped).toHaveBeenCalledWith(['/home/u/手順.md', '/home/u/memo.txt'], expect.any(Function))
    expect(w.get('[data-testid="kb-drop-copied"]').text()).toContain('Copied 2 documents')
  })

  it('deletes the open document after a confirmation, into the trash, and closes it', async () => {
    const w = await mountPanel()
    await w.findAll('[data-testid="kb-tree-doc"]')[0].trigger('click')
    await flushPromises()
    await w.get('[data-testid="kb-doc-delete"]').trigger('click')
    await flushPromises()
    expect(document.body.textContent).toContain('.playchat-trash')
    await w.get('[role="alertdialog"] .btn:not(.danger)').trigger('click')
    await flushPromises()
    expect(api.deleteDocument).not.toHaveBeenCalled()
    expect(w.find('[data-testid="kb-doc"]').exists()).toBe(true)

    const treeCalls = api.tree.mock.calls.length
    await w.get('[data-testid="kb-doc-delete"]').trigger('click')
    await flushPromises()
    await w.get('[data-testid="confirm-ok"]').trigger('click')
    await flushPromises()
    expect(api.deleteDocument).toHaveBeenCalledWith('readme.md')
    expect(w.find('[data-testid="kb-doc"]').exists()).toBe(false)
    expect(api.tree.mock.calls.length).toBeGreaterThan(treeCalls)
  })
})
