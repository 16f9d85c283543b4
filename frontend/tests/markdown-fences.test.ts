// The one fence reader (markdown/fences.ts) against the renderer itself: for
// every input, the lines the reader puts in a fence are exactly the lines
// marked's lexer puts in a fenced `code` token — at the top level, in list
// items (nested too) and in quotes, with closers indented differently,
// shorter or longer, and items that end and so close their fence. Then what
// the users of the reader do with it: no math in a list item's fence, the
// streaming view and the long-message sections.
import { describe, expect, it } from 'vitest'
import { Lexer, type Token } from 'marked'
import { FenceReader, fenceClosed, fenceLines } from '@/markdown/fences'
import { closeOpenFence, openFence, streamingView } from '@/markdown/fence'
import { extractMath } from '@/markdown/math'
import { renderMarkdown } from '@/markdown/markdown'
import { SECTION_MAX_CHARS, SectionSplitter } from '@/utils/longMessage'

const newlines = (s: string) => s.split('\n').length - 1

/**
 * The numbers of src's non-blank lines that marked puts in a fenced code
 * block. Each token's raw text follows the one before it, so counting their
 * line breaks gives where each starts; a list item's and a quote's tokens
 * are lexed from the item's or quote's text, whose lines are its source lines
 * one for one (without the item's indentation or the quote's `>`).
 */
function markedFenceLines(src: string): Set<number> {
  const lines = src.split('\n')
  const inside = new Set<number>()
  const walk = (tokens: Token[], text: string, first: number) => {
    let line = first
    let joined = ''
    for (const t of tokens) {
      if (t.type === 'code' && t.codeBlockStyle !== 'indented') {
        const n = newlines(t.raw.replace(/\n+$/, '')) + 1
        for (let j = 0; j < n; j++) if (lines[line + j]?.trim()) inside.add(line + j)
      } else if (t.type === 'list') {
        let at = line
        for (const item of t.items) {
          walk(item.tokens, item.text, at)
          at += newlines(item.raw)
        }
      } else if (t.type === 'blockquote') {
        walk(t.tokens ?? [], t.text, line)
      }
      line += newlines(t.raw)
      joined += t.raw
    }
    if (joined !== text) throw new Error(`tokens do not add up to their text: ${JSON.stringify(text)} in ${JSON.stringify(src)}`)
  }
  walk(new Lexer({ gfm: true }).lex(src), src, 0)
  return inside
}

/** The numbers of src's non-blank lines the reader puts in a fence (opening, code or closing line). */
function readerFenceLines(src: string): Set<number> {
  const inside = new Set<number>()
  fenceLines(src).forEach((k, i) => { if (k !== 'none' && src.split('\n')[i].trim() !== '') inside.add(i) })
  return inside
}

const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b)

const CASES: [string, string[], number[]][] = [
  // name, lines, the lines (0-based) in a fence
  ['top level', ['```', 'code', '```', 'after'], [0, 1, 2]],
  ['indented 1 space', [' ```', ' code', ' ```', 'after'], [0, 1, 2]],
  ['indented 3 spaces, closer at the margin', ['   ```', 'code', '```', 'after'], [0, 1, 2]],
  ['indented 4 spaces: not a fence', ['    ```', '    code', '    ```'], []],
  ['4 spaces after text: the paragraph goes on', ['text', '    ```', 'code'], []],
  ['a fence interrupts a paragraph', ['text', '```', '$x$', '```'], [1, 2, 3]],
  ['in a - item', ['- item', '  ```', '  $x$', '  ```', '- next'], [1, 2, 3]],
  ['in a 1. item', ['1. item', '   ```js', '   code', '   ```', '2. next'], [1, 2, 3]],
  ['in a 10. item, indented 4', ['10. item', '    ```', '    code', '    ```'], [1, 2, 3]],
  ['opening the item', ['- ```', '  code', '  ```', 'after'], [0, 1, 2]],
  ['in a nested item', ['- a', '  - b', '    ```', '    code', '    ```', '  - c'], [2, 3, 4]],
  ['in a loose item', ['* a', '', '  ```', '  code', '', '  more', '  ```', '* b'], [2, 3, 5, 6]],
  ['in an item that starts empty', ['-', '  ```', '  code', '  ```'], [1, 2, 3]],
  ['closer indented 3 more than the item', ['- a', '  ```', '  code', '     ```', '  text'], [1, 2, 3]],
  ['closer indented 4 more: code', ['- a', '  ```', '  code', '      ```', '  more', '  ```'], [1, 2, 3, 4, 5]],
  ['closer at the margin ends the item and opens a fence', ['- a', '  ```', '  code', '```', 'after'], [1, 2, 3, 4]],
  ['a line at the margin ends the item after its fence opener', ['- ```', 'code', '```', 'x'], [0, 2, 3]],
  ['a lazy line goes on in the item', ['- a', '  ```', '  code', 'lazy', '  ```', 'after'], [1, 2, 3, 4]],
  ['an item that ends closes its fence', ['- a', '  ```', '  code', '', 'not code', '```', 'code'], [1, 2, 5, 6]],
  ['the next item closes the fence', ['1. a', '   ```', '   code', '2. b'], [1, 2]],
  ['in a quote', ['> ```', '> code', '> ```', 'after'], [0, 1, 2]],
  ['a quote that ends closes its fence', ['> ```', '> code', 'lazy', '```'], [0, 1, 3]],
  ['a blank line ends the quote', ['> ```', '> code', '', '> more', '> ```'], [0, 1, 4]],
  ['in a nested quote, then in the outer one', ['> > ```', '> > code', '> ```', 'x'], [0, 1, 2]],
  ['a quote in an item', ['- > ```', '  > code', '  > ```', '  text'], [0, 1, 2]],
  ['an item in a quote', ['> - a', '>   ```', '>   code', '>   ```', '> b'], [1, 2, 3]],
  ['closer shorter, then longer', ['````', 'code', '```', 'still', '`````', 'after'], [0, 1, 2, 3, 4]],
  ['~~~ is not closed by ```', ['~~~', '```', 'code', '~~~', 'after'], [0, 1, 2, 3]],
  ['``` is not closed by ~~~', ['```', '~~~', '```', 'after'], [0, 1, 2]],
  ['a backtick in a ``` info string: not a fence', ['``` a`b', 'text', '```', 'code'], [2, 3]],
  ['a backtick in a ~~~ info string is fine', ['~~~ a`b', 'code', '~~~', 'after'], [0, 1, 2]],
  ['text after the closer: not a closer', ['```', '``` x', 'code', '```'], [0, 1, 2, 3]],
  ['a tab after the marker', ['-\t```', '  \tcode', '    ```', 'after'], [0, 1, 2]],
]

describe('the fence reader agrees with marked', () => {
  for (const [name, lines, want] of CASES) {
    it(name, () => {
      const src = lines.join('\n')
      const got = sorted(readerFenceLines(src))
      expect(sorted(markedFenceLines(src)), 'marked').toEqual(want)
      expect(got, 'reader').toEqual(want)
    })
  }

  it('on 30,000 texts of 3–7 lines drawn from a vocabulary of fence, list and quote lines', () => {
    const vocab = [
      '```', '  ```', '   ~~~', '- a', '  - b', '1. b', '10. c', '> ```', '> > x', 'text', '', '    ```', '~~~',
      '\t```', '-', '>', '  > ```', '* ```', '     ```', '  code', '```` x', '  ````', '> - ```', '>   ```',
      '- \t```', '===', '---', '# h', '2) x', '``` a`b', '  \tx', ' - ```',
    ]
    let seed = 12345 // a fixed linear congruential sequence: the same texts on every run
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff)
    const bad: string[] = []
    for (let k = 0; k < 30_000; k++) {
      const doc = Array.from({ length: 3 + (next() % 5) }, () => vocab[next() % vocab.length]).join('\n')
      const want = sorted(markedFenceLines(doc)).join()
      const got = sorted(readerFenceLines(doc)).join()
      if (want !== got) bad.push(`${JSON.stringify(doc)}: marked ${want} reader ${got}`)
    }
    expect(bad.slice(0, 10)).toEqual([])
  })
})

describe('the reader', () => {
  it('reports the open fence, its depth and a closer that closes it where it stands', () => {
    const r = new FenceReader()
    for (const l of ['- a', '  > ~~~~ sh', '  > x']) r.line(l)
    expect(r.fence).toEqual({ ch: '~', len: 4, indent: 0, depth: 2 })
    expect(r.closer()).toBe('  > ~~~~')
    expect(r.peek(r.closer())).toBe('close')
    expect(r.fence).not.toBeNull() // peek does not read
  })

  it('says whether a code token is closed', () => {
    expect(fenceClosed('```mermaid\ngraph TD\n```')).toBe(true)
    expect(fenceClosed('```mermaid\ngraph TD\n``')).toBe(false)
    expect(fenceClosed('    indented code')).toBe(true)
  })
})

describe('users of the reader', () => {
  const itemFence = '- item\n  ```\n  $x$ and $y$\n  ```\n'

  it('$x$ inside a list-item fence is not math', () => {
    expect(extractMath(itemFence)).toBe(itemFence)
    const html = renderMarkdown(itemFence)
    expect(html).not.toContain('katex')
    expect(html).toContain('$x$ and $y$')
    // …and after the fence it is math again.
    expect(renderMarkdown(itemFence + '\n$z$')).toContain('katex')
  })

  it('a list item that ends ends its fence: math after it renders', () => {
    const src = '- item\n  ```\n  code\n\n$x$ is math'
    expect(renderMarkdown(src)).toContain('katex')
  })

  it('streaming view of an open fence inside a list item', () => {
    const open = '- item\n  ```\n  code\n'
    expect(openFence(open)).toEqual({ ch: '`', len: 3 })
    // The first characters of the item's closing line wait …
    expect(streamingView(open + '  `')).toBe(open)
    expect(streamingView(open + '  ``')).toBe(open)
    // … a code line shows, and so does the closer once it is whole.
    expect(streamingView(open + '  `x')).toBe(open + '  `x')
    expect(streamingView(open + '  ```')).toBe(open + '  ```')
    // One or two backticks that may open a fence in an item wait too.
    expect(streamingView('- item\n  ``')).toBe('- item\n')
    // The fence is closed where it stands: inside the item.
    expect(closeOpenFence(open.slice(0, -1))).toBe(open + '  ```')
    const html = renderMarkdown(open + '  more', { streaming: true })
    expect(html).toMatch(/<li>[\s\S]*<pre><code[^>]*>code\nmore\n?<\/code><\/pre>[\s\S]*<\/li>/)
  })

  it('a long message is never cut inside a list item fence', () => {
    const line = '  ' + 'x'.repeat(60) + '\n'
    const code = line.repeat(Math.ceil((3 * SECTION_MAX_CHARS) / line.length))
    const text = '- item\n  ```\n' + code + '  ```\n\nafter\n'
    const { sections } = new SectionSplitter().split(text)
    const from = text.indexOf('  ```')
    const to = text.lastIndexOf('  ```')
    for (const s of sections.slice(1)) expect(s.start <= from || s.start > to).toBe(true)
  })
})
