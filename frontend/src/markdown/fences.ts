// The one fence reader: which lines of a Markdown text open, continue or
// close a fenced code block, read the way the renderer (marked) reads them.
// The math pre-pass (math.ts: nothing in a fence is math), the streaming view
// (fence.ts), the renderer's "is this mermaid fence closed yet" (markdown.ts)
// and the long-message sections (utils/longMessage.ts: never cut inside a
// fence) all ask this reader; there is no other fence grammar.
//
// A fence is not only a line starting with ``` or ~~~ at the left margin: in
// a list item whose content starts at column W it may be indented up to W+3,
// its lines belong to the item while they are indented W or more (or are a
// lazy continuation, in marked's sense), and the item — and with it the
// fence — ends at a line indented less that is not one; a `>` quote likewise
// strips its prefix and ends at a line without one. The reader keeps a small
// stack of such containers (a list item's content column, a quote) and reads
// each line in the coordinates of the innermost one, with the block rules
// marked itself uses (its own regular expressions, taken from its tokenizer).
// Not modelled: raw HTML blocks (a fence inside <div>…</div> counts as a
// fence here) and tables; a fence does not occur in either.
import { Lexer, Tokenizer } from 'marked'

const tokenizer = new Tokenizer()
new Lexer({ gfm: true, tokenizer }) // gives the tokenizer marked's rules
const { other: O, block: B } = tokenizer.rules

/** What one line is to the fences. */
export type FenceLine = 'open' | 'code' | 'close' | 'none'

/** A fence still open: its marker and where it stands. */
export interface OpenFence {
  /** '`' or '~'. */
  ch: string
  /** How many marker characters opened it (the closer needs as many or more). */
  len: number
  /** Spaces before the marker, in its container's coordinates (0–3). */
  indent: number
  /** How many containers (list items, quotes) hold it: 0 at the top level. */
  depth: number
}

/** Tabs in the leading whitespace of s expanded to 4-column stops, counting from column `col`. */
function expandLeading(s: string, col = 0): string {
  const m = O.leadingSpaceTab.exec(s)
  if (!m || !m[0].includes('\t')) return s
  return expandTabs(m[0], col) + s.slice(m[0].length)
}

function expandTabs(s: string, col: number): string {
  let out = ''
  for (const c of s) {
    if (c === '\t') {
      const n = 4 - (col % 4)
      out += ' '.repeat(n)
      col += n
    } else {
      out += c
      col++
    }
  }
  return out
}

const isBlank = (s: string) => s.trim() === ''

/** Columns of leading whitespace (tabs to 4-column stops). */
function indentOf(s: string): number {
  const e = expandLeading(s)
  const i = e.search(O.nonSpaceChar)
  return i < 0 ? e.length : i
}

/** Whether line closes a fence opened with len × ch (marked: ≤3 spaces, as many or more, then only spaces). */
function closes(line: string, ch: string, len: number): boolean {
  let i = 0
  while (i < 3 && line[i] === ' ') i++
  let k = 0
  while (line[i + k] === ch) k++
  if (k < len) return false
  for (let j = i + k; j < line.length; j++) if (line[j] !== ' ') return false
  return true
}

/**
 * The first character after a line's indentation (up to 3 spaces) when it
 * cannot start any block but a paragraph — no fence, heading, rule, quote,
 * list item or HTML — so the rules need not be tried. Most lines are prose.
 */
function plainStart(line: string): boolean {
  let i = 0
  while (i < 3 && line[i] === ' ') i++
  const c = line.charCodeAt(i)
  // Letters and everything past ASCII; not digits (1. item), not ` ~ # > - * + _ = < or whitespace.
  return (c >= 65 && c <= 90 && c !== 95) || (c >= 97 && c <= 122) || c > 127
}

/** A line that may not start a setext underline of its own inside a quote's or item's lazy text. */
const SETEXT_LINE = /^ {0,3}(?:=+|-+)[ \t]*$/

interface Fence {
  ch: string
  len: number
  indent: number
}

/** A block context: the whole text, or the content of a list item or a quote. */
class Block {
  fence: Fence | null = null
  /** The last line was paragraph text (a line indented 4+ continues it; only some list markers interrupt it). */
  para = false
  child: Item | Quote | null = null

  feed(line: string): FenceLine {
    if (this.child) {
      const k = this.child.take(line)
      if (k !== null) return k
      this.child = null
      this.para = false
    }
    if (this.fence) {
      if (plainStart(line)) return 'code'
      if (closes(line, this.fence.ch, this.fence.len)) {
        this.fence = null
        return 'close'
      }
      return 'code'
    }
    if (plainStart(line)) {
      this.para = true
      return 'none'
    }
    if (isBlank(line)) {
      this.para = false
      return 'none'
    }
    if (indentOf(line) >= 4) return 'none' // indented code, or the paragraph goes on
    const f = B.fences.exec(line)
    if (f) {
      this.fence = { ch: f[1][0], len: f[1].length, indent: line.length - line.trimStart().length }
      this.para = false
      return 'open'
    }
    if (B.heading.test(line) || B.hr.test(line) || (this.para && SETEXT_LINE.test(line))) {
      this.para = false
      return 'none'
    }
    if (O.blockquoteStart.test(line)) {
      this.para = false
      this.child = new Quote()
      return this.child.take(line) ?? 'none'
    }
    const li = B.list.exec(line)
    if (li && (!this.para || O.listInterruptsParagraph.test(line))) {
      this.para = false
      const item = new Item(li[1], li[2] ?? '')
      this.child = item
      return item.content.feed(item.first)
    }
    this.para = true
    return 'none'
  }

  /** A line without its container's prefix (a quote's lazy line): taken when it continues a paragraph, else null. */
  lazy(line: string): FenceLine | null {
    if (this.child) return this.child.take(line)
    if (this.fence || !this.para) return null
    return this.feed(SETEXT_LINE.test(line) ? '    ' + line.replace(/^ {0,3}/, '') : line)
  }

  clone(): Block {
    const b = new Block()
    b.fence = this.fence && { ...this.fence }
    b.para = this.para
    b.child = this.child && this.child.clone()
    return b
  }
}

/** A list item: marked's rules for which following lines belong to it (Tokenizer.list). */
class Item {
  content = new Block()
  /** The item's content column. */
  T: number
  /** The first line's content (after the marker and its spaces). */
  first: string
  /** The last line was blank. */
  E: boolean
  /** The last line, in the item's coordinates. */
  f: string
  /** The last line was a lazy continuation. */
  le = false
  /** A line after the first was taken. */
  multiline = false
  started = false
  done = false

  constructor(marker = '', rest = '') {
    const b = marker.length
    const f = rest.replace(O.leadingSpaceTab, (h) => expandTabs(h, b))
    this.E = isBlank(f)
    let T: number
    if (this.E) {
      T = b + 1
      this.first = ''
    } else {
      T = f.search(O.nonSpaceChar)
      if (T > 4) T = 1 // the content is indented code: one space belongs to the marker
      this.first = f.slice(T)
      T += b
    }
    this.T = T
    this.f = f
  }

  /** The line's kind when it belongs to the item (fed to its content), else null: the item has ended. */
  take(R: string): FenceLine | null {
    if (this.done) return null
    const T = this.T
    if (!this.started) {
      this.started = true
      if (this.E && O.blankLine.test(R)) {
        // An item that starts empty ends at a blank line (the blank is its own).
        this.done = true
        return this.content.feed('')
      }
    }
    if (!plainStart(R) && (
      O.fencesBeginRegex(T).test(R) || O.headingBeginRegex(T).test(R) || O.htmlBeginRegex(T).test(R) ||
      O.blockquoteBeginRegex(T).test(R) || O.nextBulletRegex(T).test(R) || O.hrRegex(T).test(R)
    )) return null
    const Z = expandLeading(R)
    let content: string
    if (Z.search(O.nonSpaceChar) >= T || !R.trim()) {
      content = Z.slice(T)
      this.le = false
    } else {
      // Indented less than the content: only a lazy continuation line stays.
      if (this.E) return null
      let $ = this.f
      if (!this.multiline && !this.f.includes('\t')) {
        let j: RegExpExecArray | null
        while (!O.hrRegex(T).test($) && (j = O.nestedBlockMarker.exec($))) $ = $.slice(j[0].length)
        if (!$.trim()) return null
      }
      if (
        $.replace(O.tabCharGlobal, '    ').search(O.nonSpaceChar) >= 4 || O.fencesBeginRegex(T).test($) ||
        O.headingBeginRegex(T).test($) || O.htmlBeginRegex(T).test($) || O.hrRegex(T).test($)
      ) return null
      if (!this.le) {
        const j = this.f.replace(O.nestedContainerMarkers, '')
        if (B.fences.test(j) || B.heading.test(j) || B.hr.test(j)) return null
      }
      content = /^ {0,3}(?:=+|-+) *$/.test(R) && B.lheading.test(`${this.f}\n${R}`) ? `    ${Z.replace(/^ {0,3}/, '')}` : R
      this.le = true
    }
    this.E = !R.trim()
    this.f = Z.slice(T)
    this.multiline = true
    return this.content.feed(content)
  }

  clone(): Item {
    const c = new Item()
    Object.assign(c, this)
    c.content = this.content.clone()
    return c
  }
}

/** A blockquote: its `>` lines, and lazy lines that go on with its paragraph (Tokenizer.blockquote). */
class Quote {
  content = new Block()
  /** The last line had text after its `>` (or was a lazy line): a lazy line may follow. */
  lazyOk = false

  take(line: string): FenceLine | null {
    if (O.blockquoteStart.test(line)) {
      const c = line
        .replace(/^( {0,3}>)(\t[ \t]*)/, (_m, gt: string, ws: string) => gt + expandTabs(ws, gt.length))
        .replace(/^ {0,3}>[ \t]?/, '')
      this.lazyOk = !O.blankLine.test(c)
      return this.content.feed(c)
    }
    if (!this.lazyOk || isBlank(line) || !lazyQuoteLine(line)) return null
    return this.content.lazy(line)
  }

  clone(): Quote {
    const q = new Quote()
    q.content = this.content.clone()
    q.lazyOk = this.lazyOk
    return q
  }
}

/** Whether marked's blockquote rule takes line as a lazy line after a `>` line with text. */
function lazyQuoteLine(line: string): boolean {
  const m = B.blockquote.exec('> x\n' + line)
  return !!m && m[0].length >= 4 + line.length
}

/**
 * Reads a text line by line (lines without their '\n') and says what each
 * is to the fences. Keep one per text; clone() it to read ahead or to resume
 * later from a point.
 */
export class FenceReader {
  private root = new Block()

  /** Reads one line. */
  line(text: string): FenceLine {
    return this.root.feed(text.endsWith('\r') ? text.slice(0, -1) : text)
  }

  /** What the line would be, without reading it. */
  peek(text: string): FenceLine {
    return this.clone().line(text)
  }

  /** The fence open after the lines read so far, or null. */
  get fence(): OpenFence | null {
    let b: Block | null = this.root
    let depth = 0
    while (b) {
      if (b.fence) return { ...b.fence, depth }
      b = b.child ? b.child.content : null
      depth++
    }
    return null
  }

  /** A line that closes the open fence where it stands (its containers' indentation and `>` before it), or ''. */
  closer(): string {
    let prefix = ''
    let b: Block | null = this.root
    while (b) {
      if (b.fence) return prefix + b.fence.ch.repeat(b.fence.len)
      if (b.child instanceof Quote) prefix += '> '
      else if (b.child) prefix += ' '.repeat(b.child.T)
      b = b.child ? b.child.content : null
    }
    return ''
  }

  clone(): FenceReader {
    const r = new FenceReader()
    r.root = this.root.clone()
    return r
  }
}

/** A reader that has read every line of src ("a\n" is one line: nothing follows the last '\n'). */
export function readFences(src: string, reader = new FenceReader()): FenceReader {
  let start = 0
  while (start < src.length) {
    const nl = src.indexOf('\n', start)
    const end = nl < 0 ? src.length : nl
    reader.line(src.slice(start, end))
    start = end + 1
  }
  return reader
}

/** What each line of src is to the fences (src.split('\n'), one entry a line). */
export function fenceLines(src: string): FenceLine[] {
  const r = new FenceReader()
  return src.split('\n').map((l) => r.line(l))
}

/** Whether a code token's raw text (marked's) is a fence whose closing line has arrived; indented code counts as closed. */
export function fenceClosed(raw: string): boolean {
  const lines = raw.replace(/\s+$/, '').split('\n')
  const r = new FenceReader()
  if (r.line(lines[0]) !== 'open') return true
  for (let i = 1; i < lines.length; i++) if (r.line(lines[i]) === 'close') return true
  return false
}
