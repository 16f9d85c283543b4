// Cutting a long message into sections that render as the whole text does
// (utils/longMessage.ts, issue 21).
import { describe, expect, it } from 'vitest'
import {
  DOLLAR_WEIGHT, PREVIEW_CHARS, SECTION_CHARS, SECTION_MAX_CHARS, SectionSplitter, fenceCode, formatSize, splitPlain,
  utf8Bytes,
  type Section,
} from '@/utils/longMessage'
import { renderMarkdown } from '@/markdown/markdown'

const MiB = 1 << 20

/** The message text of the sections, without what a section repeats (table header, link definitions). */
function joined(text: string, sections: Section[]): string {
  return sections.map((s) => text.slice(s.start, s.end)).join('')
}

/** Checks that the sections tile the text in order. */
function expectTiles(text: string, sections: Section[]) {
  expect(sections[0].start).toBe(0)
  for (let i = 1; i < sections.length; i++) expect(sections[i].start).toBe(sections[i - 1].end)
  expect(sections[sections.length - 1].end).toBe(text.length)
  expect(joined(text, sections)).toBe(text)
}

/** The [start, end) ranges of the text's fenced code blocks (an independent, simple scan). */
function fenceRanges(text: string): [number, number][] {
  const out: [number, number][] = []
  let open: { at: number; marker: string } | null = null
  let at = 0
  for (const line of text.split('\n')) {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line)
    if (m) {
      if (!open) open = { at, marker: m[1] }
      else if (m[1][0] === open.marker[0] && m[1].length >= open.marker.length && line.trim() === m[1]) {
        out.push([open.at, at + line.length])
        open = null
      }
    }
    at += line.length + 1
  }
  if (open) out.push([open.at, text.length])
  return out
}

const para = (i: number) => `Paragraph ${i}: the quick brown fox jumps over the lazy dog, and **the dog** does not mind.\n\n`

describe('SectionSplitter', () => {
  it('cuts a long text of paragraphs at blank lines into sections of about SECTION_CHARS', () => {
    let text = ''
    for (let i = 0; text.length < MiB; i++) text += para(i)
    const { sections, complete } = new SectionSplitter().split(text)
    expect(complete).toBe(true)
    expectTiles(text, sections)
    expect(sections.length).toBeGreaterThan(100)
    for (const s of sections.slice(0, -1)) {
      expect(s.end - s.start).toBeGreaterThanOrEqual(SECTION_CHARS)
      expect(s.end - s.start).toBeLessThan(SECTION_CHARS + 200)
      expect(text.slice(s.end, s.end + 10)).toMatch(/^Paragraph /)
      expect(text.slice(s.end - 2, s.end)).toBe('\n\n')
    }
  })

  it('never cuts inside a display formula nor a short code fence; cuts a long fence into code blocks of its own lines', () => {
    const code = '```ts\n' + 'const x = 1\n\nconst y = 2\n'.repeat(1500) + '```\n\n'
    const short = '~~~\nshort one\n\nstill short\n~~~\n\n'
    const math = '$$\n' + 'a + b \\\\\n'.repeat(3000) + '$$\n\n'
    let text = ''
    for (let i = 0; text.length < 200_000; i++) {
      text += para(i) + (i % 40 === 5 ? code : '') + (i % 40 === 15 ? short : '') + (i % 40 === 25 ? math : '')
    }
    const { sections } = new SectionSplitter().split(text)
    expectTiles(text, sections)
    const fences = fenceRanges(text)
    const longFences = fences.filter(([a, b]) => b - a > SECTION_MAX_CHARS)
    expect(longFences.length).toBeGreaterThan(2)
    expect(fences.length).toBeGreaterThan(longFences.length)
    for (const s of sections) {
      expect(s.text.split('$$').length % 2).toBe(1) // formulas whole
      for (const [a, b] of fences) {
        if (b - a <= SECTION_MAX_CHARS) expect(s.end <= a || s.end >= b).toBe(true) // short fences whole
      }
      if (!s.text.includes('$$')) expect(s.end - s.start).toBeLessThanOrEqual(SECTION_MAX_CHARS + 100)
    }
    // The first long fence: cut at line breaks; every piece is a code block
    // of its lines, in the fence's language; the pieces' code is the fence's.
    const [a, b] = longFences[0]
    const from = a + '```ts\n'.length
    const pieces = sections.filter((s) => s.end > a && s.start < b)
    expect(pieces.length).toBeGreaterThan(2)
    let code2 = ''
    pieces.forEach((s, i) => {
      if (i > 0) expect(s.continuesFence).toBe(from)
      if (i < pieces.length - 1) expect(s.cutsFence).toBe(from)
      if (i > 0) expect(s.text.startsWith('```ts\nconst') || s.text.startsWith('```ts\n\n')).toBe(true)
      const html = renderMarkdown(s.text)
      const blocks = html.match(/<pre/g) ?? []
      expect(blocks.length).toBe(1)
      expect(html).toContain('language-ts')
      code2 += text.slice(Math.max(s.start, from), Math.min(s.end, b - 3))
    })
    expect(pieces[0].continuesFence).toBeUndefined()
    expect(pieces[pieces.length - 1].cutsFence).toBeUndefined()
    expect(code2).toBe(text.slice(from, b - 3))
    // Any piece's copy button copies the whole fence.
    expect(fenceCode(text, from)).toBe(text.slice(from, b - 4))
  })

  it('cuts a streaming fence the same way as the finished one, and fenceCode reads an open fence to the end', () => {
    const text = 'Intro\n\n```go\n' + 'func add(a, b int) int { return a + b } // keep adding\n'.repeat(2000) + '```\n\nLONGEND'
    const whole = new SectionSplitter().split(text).sections
    const sp = new SectionSplitter()
    let last: Section[] = []
    for (let n = 997; n < text.length; n += 997) last = sp.split(text.slice(0, n)).sections
    last = sp.split(text).sections
    expect(last.map((s) => [s.start, s.end, s.text])).toEqual(whole.map((s) => [s.start, s.end, s.text]))
    const from = text.indexOf('func')
    const open = text.slice(0, text.indexOf('```\n\nLONGEND') - 1000)
    expect(fenceCode(open, from)).toBe(open.slice(from).replace(/\n$/, ''))
    expect(fenceCode(text, from).split('\n').length).toBe(2000)
  })

  it('keeps a loose list whole, and cuts a longer one only before an item, never before an indented line', () => {
    const item = (i: number) => `- item ${i} of a loose list\n\n  with a paragraph inside\n\n`
    const list = Array.from({ length: 200 }, (_, i) => item(i)).join('') // ~11,000 characters
    const text = para(0).repeat(100) + list + para(1).repeat(200)
    const { sections } = new SectionSplitter().split(text)
    expectTiles(text, sections)
    const [from, to] = [text.indexOf('- item 0'), text.indexOf('- item 199')]
    for (const s of sections) expect(s.end <= from || s.end > to).toBe(true)

    const long = para(0) + Array.from({ length: 2000 }, (_, i) => item(i)).join('')
    const cut = new SectionSplitter().split(long).sections
    expect(cut.length).toBeGreaterThan(2)
    for (const s of cut.slice(0, -1)) expect(long.slice(s.end, s.end + 7)).toBe('- item ')
  })

  it('cuts a huge table at a row and repeats its header, so each part is still a table', () => {
    const rows = Array.from({ length: 4000 }, (_, i) => `| ${i} | 東京 | 晴れ |`).join('\n')
    const text = '| # | 都市 | 天気 |\n|---|:---:|---|\n' + rows + '\n'
    const { sections } = new SectionSplitter().split(text)
    expectTiles(text, sections)
    expect(sections.length).toBeGreaterThan(3)
    for (const s of sections.slice(1)) {
      expect(s.text.startsWith('| # | 都市 | 天気 |\n|---|:---:|---|\n| ')).toBe(true)
      expect(s.end - s.start).toBeLessThanOrEqual(SECTION_MAX_CHARS + 40)
    }
    const html = renderMarkdown(sections[2].text)
    expect(html).toContain('<table>')
    expect(html).toContain('<th>都市</th>')
  })

  it('cuts one endless line at a space or a Japanese sentence end, else anywhere but inside a surrogate pair', () => {
    for (const [unit, end] of [
      ['again and again ', ' '],
      ['同じことを繰り返します。', '。'],
      ['😀', ''],
    ] as const) {
      const text = unit.repeat(Math.ceil(300_000 / unit.length))
      const { sections } = new SectionSplitter().split(text)
      expectTiles(text, sections)
      expect(sections.length).toBeGreaterThan(10)
      for (const s of sections.slice(0, -1)) {
        expect(s.end - s.start).toBeLessThanOrEqual(SECTION_MAX_CHARS)
        expect(s.end - s.start).toBeGreaterThan(SECTION_CHARS)
        if (end) expect(text[s.end - 1]).toBe(end)
        const c = text.charCodeAt(s.end)
        expect(c >= 0xdc00 && c <= 0xdfff).toBe(false)
      }
    }
  })

  it('gives a streaming reply the same sections as the finished one, scanning only what is new', () => {
    let text = ''
    for (let i = 0; text.length < 120_000; i++) text += para(i) + (i % 30 === 7 ? '```go\nfunc f() {}\n\n// more\n```\n\n' : '')
    const whole = new SectionSplitter().split(text).sections
    const s = new SectionSplitter()
    let last: Section[] = []
    for (let n = 1; n <= text.length; n += 777) {
      last = s.split(text.slice(0, n)).sections
      // Every closed section (all but the last, still growing) is one of the finished text's.
      for (const sec of last.slice(0, -1)) expect(whole).toContainEqual(sec)
    }
    expect(s.split(text).sections).toEqual(whole)
  })

  it('adds the link definitions to every section that mentions a reference', () => {
    let text = 'See [the docs][d] first.\n\n'
    for (let i = 0; text.length < 60_000; i++) text += para(i)
    text += '[d]: https://example.com/docs "Docs"\n'
    const { sections } = new SectionSplitter().split(text)
    expect(sections.length).toBeGreaterThan(3)
    expect(sections[0].text.startsWith('[d]: https://example.com/docs "Docs"\n\n')).toBe(true)
    expect(renderMarkdown(sections[0].text)).toContain('<a href="https://example.com/docs" title="Docs"')
    expect(sections[1].text.includes('[d]:')).toBe(false) // no reference there: nothing added
  })

  it('cuts text dense with formulas into shorter sections: a formula costs more to show than prose', () => {
    const math = 'Since $a^2 + b^2 = c^2$ and $e^{i\\pi} = -1$, we get $x$.\n\n'
    const text = math.repeat(Math.ceil(100_000 / math.length))
    const { sections } = new SectionSplitter().split(text)
    expectTiles(text, sections)
    for (const s of sections.slice(0, -1)) {
      expect(s.weight).toBe(s.end - s.start + DOLLAR_WEIGHT * (s.text.split('$').length - 1))
      expect(s.weight).toBeGreaterThanOrEqual(SECTION_CHARS)
      expect(s.weight).toBeLessThan(SECTION_CHARS + 1000)
      expect(s.end - s.start).toBeLessThan(SECTION_CHARS / 2)
    }
  })

  it('renders a text of many kinds of blocks, section by section, exactly as the whole text', () => {
    const units = [
      para(0),
      '吾輩は猫である。名前はまだ無い。\n\n',
      '- first point with `inline code`\n- second point\n\n',
      '```python\ndef f():\n\n    return 1\n```\n\n',
      '| key | value |\n|---|---|\n| 東京 | 晴れ |\n\n',
      '二次方程式 $ax^2+bx+c=0$ の解:\n\n$$\nx = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}\n$$\n\n',
      '## A heading\n\n> a quote\n\n1. one\n2. two\n\n',
    ]
    let text = ''
    for (let i = 0; text.length < 40_000; i++) text += units[i % units.length]
    const { sections } = new SectionSplitter().split(text)
    expect(sections.length).toBeGreaterThan(3)
    expect(sections.map((s) => renderMarkdown(s.text)).join('')).toBe(renderMarkdown(text))
  })

  it('scans only as far as asked: the collapsed view of 1 MiB reads its beginning', () => {
    let text = ''
    for (let i = 0; text.length < MiB; i++) text += para(i)
    const s = new SectionSplitter()
    const head = s.split(text, PREVIEW_CHARS)
    expect(head.complete).toBe(false)
    expect(head.sections.length).toBe(2)
    expect(head.sections[1].end).toBeGreaterThanOrEqual(PREVIEW_CHARS)
    const all = s.split(text)
    expect(all.complete).toBe(true)
    expect(all.sections.slice(0, 2)).toEqual(head.sections)
    expectTiles(text, all.sections)
  })

  it('starts over for a text that is not an extension of the last one', () => {
    const s = new SectionSplitter()
    const a = para(1).repeat(2000)
    const b = para(2).repeat(1500)
    s.split(a)
    const { sections } = s.split(b)
    expectTiles(b, sections)
  })
})

describe('splitPlain', () => {
  it('cuts typed text at line breaks, or inside a line too long, and loses nothing', () => {
    const lines = 'a line of typed text\n'.repeat(50_000)
    const parts = splitPlain(lines)
    expect(parts.join('')).toBe(lines)
    expect(parts.length).toBeGreaterThan(40)
    for (const p of parts.slice(0, -1)) {
      expect(p.endsWith('\n')).toBe(true)
      expect(p.length).toBeLessThanOrEqual(SECTION_MAX_CHARS)
    }
    const oneLine = 'あ'.repeat(100_000)
    const cut = splitPlain(oneLine)
    expect(cut.join('')).toBe(oneLine)
    for (const p of cut) expect(p.length).toBeLessThanOrEqual(SECTION_MAX_CHARS)
    expect(splitPlain('short')).toEqual(['short'])
  })
})

describe('sizes', () => {
  it('counts UTF-8 bytes as the 1 MiB limit does and words them for people', () => {
    for (const s of ['abc', '吾輩は猫', '😀x', 'é']) expect(utf8Bytes(s)).toBe(new TextEncoder().encode(s).length)
    expect(formatSize(1024 * 1024, 'en')).toBe('1.0 MB')
    expect(formatSize(300 * 1024, 'ja')).toBe('300 KB')
    expect(formatSize(10, 'en')).toBe('1 KB')
  })
})
