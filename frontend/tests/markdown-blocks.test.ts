import { beforeEach, describe, expect, it } from 'vitest'
import {
  BLOCK_CACHE_CHARS, BLOCK_CACHE_ENTRIES, MarkdownBlockRenderer, clearMarkdownCache,
  markdownCacheStats, markdownStats, renderMarkdown, renderMarkdownBlocks,
} from '@/markdown/markdown'
import { SAMPLES, longReply } from './markdownSamples'

/** The same HTML up to the whitespace between tags (blocks are rendered separately). */
const norm = (html: string) => html.replace(/>\s+</g, '><').trim()
const joined = (blocks: { html: string }[]) => norm(blocks.map((b) => b.html).join(''))

beforeEach(() => {
  clearMarkdownCache()
  markdownStats.blockRenders = 0
})

describe('renderMarkdownBlocks', () => {
  it.each(Object.keys(SAMPLES))('renders the %s sample exactly as whole-document rendering', (name) => {
    const src = SAMPLES[name]
    expect(joined(renderMarkdownBlocks(src))).toBe(norm(renderMarkdown(src)))
    expect(joined(renderMarkdownBlocks(src, { relativeLinks: true }))).toBe(
      norm(renderMarkdown(src, { relativeLinks: true })),
    )
  })

  it('keeps a loose list, a list item\'s second paragraph and a table each one block', () => {
    const blocks = renderMarkdownBlocks(SAMPLES.lists)
    const list = blocks.find((b) => b.html.startsWith('<ol'))!
    expect(list.html).toContain('保存します')
    expect(list.html).toContain('<a href="https://example.com/settings"') // a reference defined at the end
    const table = renderMarkdownBlocks(SAMPLES.table).find((b) => b.html.startsWith('<table'))!
    expect(table.html).toContain('no pipes still a row')
  })

  it('still sanitises every block', () => {
    const html = renderMarkdownBlocks(SAMPLES.table).map((b) => b.html).join('')
    expect(html).not.toContain('<script')
    expect(html).not.toContain('<img')
    expect(html).toContain('id="user-content-basic-usage"')
  })

  it('gives blocks stable keys by position', () => {
    expect(renderMarkdownBlocks('a\n\nb\n\nc').map((b) => b.key)).toEqual(['b0', 'b1', 'b2'])
  })
})

describe('MarkdownBlockRenderer while streaming', () => {
  it.each(Object.keys(SAMPLES))(
    'matches whole-document rendering at every step of the %s sample',
    (name) => {
      const src = SAMPLES[name]
      const r = new MarkdownBlockRenderer()
      for (let n = 1; n <= src.length; n += 2) {
        const prefix = src.slice(0, n)
        // Both hold back the same unfinished last line (streamingView).
        expect(joined(r.render(prefix, { streaming: true })), `after ${n} chars`).toBe(
          norm(renderMarkdown(prefix, { streaming: true })),
        )
      }
      expect(joined(r.render(src))).toBe(norm(renderMarkdown(src)))
    },
    60_000,
  )

  it('renders a finished block once: later frames re-render only the growing block', () => {
    const r = new MarkdownBlockRenderer()
    const src = 'First paragraph.\n\n- a\n- b\n\n| x |\n|---|\n| 1 |\n\nThe growing tail'
    const head = src.slice(0, src.indexOf('The growing'))
    r.render(head, { streaming: true })
    const before = markdownStats.blockRenders
    expect(before).toBe(3)
    const tail = 'The growing tail, still growing and growing.'
    for (let n = 1; n <= tail.length; n++) r.render(head + tail.slice(0, n), { streaming: true })
    // one render per frame, all of them for the last block
    expect(markdownStats.blockRenders - before).toBe(tail.length)
    // The end of the stream renders nothing again (the tail's HTML is kept).
    const end = markdownStats.blockRenders
    const final = r.render(head + tail)
    expect(markdownStats.blockRenders).toBe(end)
    expect(joined(final)).toBe(norm(renderMarkdown(head + tail)))
  })

  it('re-renders earlier blocks when a reference definition arrives later', () => {
    const r = new MarkdownBlockRenderer()
    const text = 'See [the docs][d].\n\nMore text.\n\n'
    expect(joined(r.render(text, { streaming: true }))).toContain('[the docs][d]')
    const done = text + '[d]: https://example.com/docs'
    expect(joined(r.render(done, { streaming: true }))).toBe(norm(renderMarkdown(done)))
    expect(joined(r.render(done))).toContain('href="https://example.com/docs"')
  })

  it('a new renderer for the stored copy of a finished reply renders from the cache', () => {
    const src = longReply(4000)
    const live = new MarkdownBlockRenderer()
    for (let n = 50; n < src.length; n += 50) live.render(src.slice(0, n), { streaming: true })
    live.render(src)
    const before = markdownStats.blockRenders
    const stored = new MarkdownBlockRenderer()
    expect(joined(stored.render(src))).toBe(norm(renderMarkdown(src)))
    expect(markdownStats.blockRenders).toBe(before)
  })

  it('handles \\r\\n line ends like marked does', () => {
    const src = 'a\r\n\r\n- b\r\n- c\r\n'
    expect(joined(new MarkdownBlockRenderer().render(src))).toBe(norm(renderMarkdown(src)))
  })
})

describe('the rendered-block cache', () => {
  it('stays within its bounds however much is rendered', () => {
    for (let i = 0; i < 500; i++) renderMarkdownBlocks(`paragraph number ${i} ${'x'.repeat(i % 50)}\n\nsecond ${i}`)
    const { entries, chars } = markdownCacheStats()
    expect(entries).toBeLessThanOrEqual(BLOCK_CACHE_ENTRIES)
    expect(chars).toBeLessThanOrEqual(BLOCK_CACHE_CHARS)
    expect(entries).toBeGreaterThan(0)
  }, 60_000)

  it('does not cache the growing block of a streaming document', () => {
    const r = new MarkdownBlockRenderer()
    for (let n = 1; n <= 200; n++) r.render('x'.repeat(n), { streaming: true })
    expect(markdownCacheStats().entries).toBe(0)
  })
})

describe('math and highlighted code go through the block cache', () => {
  it('finished blocks with formulas and code are rendered once while the tail streams', () => {
    const head = 'Given $a^2+b^2=c^2$ and \\(x\\).\n\n$$\n\\int_0^1 x\\,dx\n$$\n\n```py\nprint("$x$")\n```\n\n'
    const tail = 'Now the tail grows: $y$ and $z$ and costs $5.'
    const r = new MarkdownBlockRenderer()
    r.render(head, { streaming: true })
    const before = markdownStats.blockRenders
    for (let n = 1; n <= tail.length; n++) r.render(head + tail.slice(0, n), { streaming: true })
    // Only the growing paragraph: never the three finished blocks again.
    expect(markdownStats.blockRenders - before).toBe(tail.length)
    const final = joined(r.render(head + tail))
    expect(final).toBe(norm(renderMarkdown(head + tail)))
    expect(final).toContain('class="katex"')
    expect(final).toContain('hljs-built_in')
  })
})
