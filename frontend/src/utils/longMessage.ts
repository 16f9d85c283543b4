// Long messages (issue 21): a reply may hold 1 MiB, and rendering that in one
// pass (marked, DOMPurify, KaTeX, highlight.js, then the DOM) froze the window
// for minutes. A message longer than LONG_MESSAGE_CHARS is cut into sections
// of about SECTION_CHARS at places where Markdown can start afresh, each
// rendered on its own (MarkdownContent.vue shows the first ones and renders
// the rest a few per frame, composables/useReveal.ts). The cuts never fall inside a code fence or a
// display formula (fences as the one fence reader, markdown/fences.ts, reads them: in list items
// and quotes too), so every section renders as it would in the whole text:
//
//  1. a blank line followed by a line that starts at the left margin (not a
//     list item: a loose list stays one list) — the usual place;
//  2. past SECTION_MAX_CHARS without one (a long run of lines, a huge table or
//     list): any line break outside a fence and a display formula; inside a
//     table the next section repeats the table's header rows, so it is still
//     a table;
//  3. one line longer than SECTION_MAX_CHARS (a model repeating itself on one
//     line): a space or a Japanese sentence end within it, else anywhere
//     (never inside a surrogate pair).
//
//  4. a fence (a code block) at the top level past SECTION_MAX_CHARS (one in a
//     list item or a quote is never cut): at a line break inside
//     it; the section before is closed with the fence's closing line and the
//     next opens with the fence's opening line (its info string too), so each
//     piece renders as a code block of its own lines — one 1 MiB block laid
//     out in one piece held the window for seconds (issue 21). The pieces
//     know the fence they belong to (Section.fenceFrom), so the copy button
//     of any piece copies the whole block (fenceCode); past
//     HIGHLIGHT_MAX_CHARS the code is not highlighted.
//
// Link reference definitions
// ("[x]: https://…") apply to the whole text, so they are put (rendering to
// nothing) before every section that mentions "[".
//
// SectionSplitter works incrementally: while a reply streams, each call only
// scans the lines added since the last one, and the sections already closed
// keep their text (so their rendered blocks are kept as they are).

import { type FenceLine, FenceReader } from '@/markdown/fences'

/** Messages longer than this (characters, UTF-16 units) are rendered in sections. */
export const LONG_MESSAGE_CHARS = 32_000
/** A section ends at the first good place (rule 1) after this many characters. */
export const SECTION_CHARS = 4_000
/** Without a blank line by this length, a line break will do (rules 2 and 3). */
export const SECTION_MAX_CHARS = 16_000
/**
 * A long message shows its sections up to about this many (weighted)
 * characters until "show all" (8,000 characters dense with code and tables
 * take WebKit a few hundred milliseconds to render and lay out).
 */
export const PREVIEW_CHARS = 8_000

/**
 * What a character of a formula costs, counted per dollar sign: KaTeX's
 * output is dozens of elements per formula (HTML and MathML), which WebKit
 * takes far longer to render and lay out than prose. Sections (and what a
 * frame mounts) are measured in these weighted characters, so a page dense
 * with formulas is cut into shorter sections.
 */
export const DOLLAR_WEIGHT = 100

/** One section: its Markdown text (with any repeated table header and link definitions) and where it starts. */
export interface Section {
  /** The Markdown to render. */
  text: string
  /** Offset in the message of the section's first character. */
  start: number
  /** Offset in the message just past the section. */
  end: number
  /** Its length with formulas weighted (DOLLAR_WEIGHT): about what it costs to show. */
  weight: number
  /**
   * Set when the section begins inside a fence cut by rule 4 (its first code
   * block continues one from the section before): the offset in the message
   * of that fence's first code character (for fenceCode).
   */
  continuesFence?: number
  /** Set when the section ends inside a fence cut by rule 4 (its last code block goes on in the next section): as continuesFence. */
  cutsFence?: number
}

interface Cut {
  start: number
  end: number
  weight: number
  /** A table's header and delimiter rows, repeated at the top (rule 2 inside a table), or a fence's opening line (rule 4). */
  prefix: string
  /** A fence's closing line, added at the end (rule 4). */
  suffix?: string
  continuesFence?: number
  cutsFence?: number
  /** The section's text as last built, and how many definitions it was built with. */
  text?: string
  defsSeen?: number
  bracket?: boolean
}

const BLANK = /^[ \t\r]*$/
const LIST_ITEM = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/
const LINK_DEF = /^ {0,3}\[[^\]\n]+\]:[ \t]*\S/
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t\r]*$/
/** A setext heading's underline: a cut before it would make it a rule. */
const SETEXT = /^ {0,3}(?:=+|-+)[ \t\r]*$/
/** Where a long line may break: after a space or a Japanese/Chinese sentence or clause end. */
const SOFT_BREAK = /[ \t、。！？，．]/

/**
 * Cuts one message into sections (see the file comment). Keep one instance
 * per shown message: a text that extends the previous one is scanned only
 * from where the last call stopped; any other text starts over.
 */
export class SectionSplitter {
  private text = ''
  private cuts: Cut[] = []
  /** Start of the current (open) section. */
  private secStart = 0
  private secPrefix = ''
  /** Set while the open section began inside a fence cut by rule 4: where that fence's code starts. */
  private secContinues: number | undefined
  /** The weight of the open section's lines scanned so far. */
  private secWeight = 0
  /** Start of the next line to scan. */
  private pos = 0
  /** Which lines open, continue and close fences (in list items and quotes too). */
  private fences = new FenceReader()
  /** The open fence at the top level (the kind rule 4 cuts): its marker, its opening line and where its code starts. */
  private fence: { char: string; len: number; opener: string; from: number } | null = null
  private inMath = false
  private prevBlank = true
  private prevLine: string | null = null
  private tableHeader: string | null = null
  private prevDef = false
  private defs: string[] = []

  /**
   * The sections of text. With `chars`, scanning may stop once the closed
   * sections cover that many characters: then only those are returned and
   * `complete` is false. Otherwise the last section runs to the end of the
   * text (while a reply streams it is the one still growing).
   */
  split(text: string, chars = Infinity): { sections: Section[]; complete: boolean } {
    if (!text.startsWith(this.text) || text.length < this.text.length) this.reset()
    this.text = text
    this.scan(chars)
    const sections = this.cuts.map((c) => this.section(c))
    const complete = this.lastCovered() < chars || this.pos >= text.length
    if (!complete) return { sections, complete: false }
    if (this.secStart < text.length || sections.length === 0) {
      const rest = Math.max(this.pos, this.secStart)
      const weight = this.secWeight + weigh(text, rest, text.length)
      sections.push(this.section({
        start: this.secStart, end: text.length, prefix: this.secPrefix, weight, continuesFence: this.secContinues,
      }))
    }
    return { sections, complete: true }
  }

  private reset() {
    this.text = ''
    this.cuts = []
    this.secStart = 0
    this.secPrefix = ''
    this.secContinues = undefined
    this.secWeight = 0
    this.pos = 0
    this.fences = new FenceReader()
    this.fence = null
    this.inMath = false
    this.prevBlank = true
    this.prevLine = null
    this.tableHeader = null
    this.prevDef = false
    this.defs = []
  }

  private lastCovered(): number {
    return this.cuts.length ? this.cuts[this.cuts.length - 1].end : 0
  }

  private section(c: Cut): Section {
    if (c.text === undefined || (c.bracket && c.defsSeen !== this.defs.length)) {
      const body = c.prefix + this.text.slice(c.start, c.end) + (c.suffix ?? '')
      c.bracket = body.includes('[')
      // Before the text, so that a streaming section still ends with what arrived last.
      c.text = this.defs.length && c.bracket ? this.defs.join('\n') + '\n\n' + body : body
      c.defsSeen = this.defs.length
    }
    const out: Section = { text: c.text, start: c.start, end: c.end, weight: c.weight }
    if (c.continuesFence !== undefined) out.continuesFence = c.continuesFence
    if (c.cutsFence !== undefined) out.cutsFence = c.cutsFence
    return out
  }

  /**
   * Closes the open section at `at`; `weight` is its weight (the lines
   * scanned by default). `fence`: the cut falls inside that fence (rule 4).
   */
  private cut(at: number, prefix: string, weight = this.secWeight, fence?: { opener: string; char: string; len: number; from: number }) {
    if (at <= this.secStart) return
    const c: Cut = { start: this.secStart, end: at, prefix: this.secPrefix, weight }
    if (this.secContinues !== undefined) c.continuesFence = this.secContinues
    if (fence) {
      c.suffix = (this.text[at - 1] === '\n' ? '' : '\n') + fence.char.repeat(fence.len) + '\n'
      c.cutsFence = fence.from
    }
    this.cuts.push(c)
    this.secStart = at
    this.secPrefix = fence ? fence.opener + '\n' : prefix
    this.secContinues = fence?.from
    this.secWeight = 0
  }

  /**
   * Rules 1 and 2: cuts before the line at ls and reads it again as the
   * first line of the new section (after its prefix), which is rendered on
   * its own: what the fences are there is what a fresh reader says.
   */
  private restart(ls: number, prefix: string, line: string, kind: FenceLine): FenceLine {
    const before = this.cuts.length
    this.cut(ls, prefix)
    if (this.cuts.length === before) return kind
    this.fences = new FenceReader()
    for (const l of prefix.split('\n')) if (l) this.fences.line(l)
    return this.fences.line(line)
  }

  private scan(chars: number) {
    const text = this.text
    while (this.pos < text.length && this.lastCovered() < chars) {
      const ls = this.pos
      const nl = text.indexOf('\n', ls)
      if (nl < 0) {
        // The last line, not ended yet (a reply still streaming, or the end
        // of the text): only rule 3 may cut it; it is scanned once complete.
        if (!this.fences.fence) this.cutLongLine(ls, text.length)
        return
      }
      this.line(ls, nl)
      this.pos = nl + 1
    }
  }

  /** Rule 3: cuts inside the line [ls, le) while it holds more than SECTION_MAX_CHARS of the open section. */
  private cutLongLine(ls: number, le: number) {
    const text = this.text
    for (;;) {
      const from = Math.max(ls, this.secStart)
      // The cut depends only on the text before it, so on a line still
      // growing it never moves.
      if (le - from <= SECTION_MAX_CHARS) return
      const hard = from + SECTION_MAX_CHARS
      let at = -1
      for (let i = hard; i > from + SECTION_CHARS; i--) {
        if (SOFT_BREAK.test(text[i - 1])) {
          at = i
          break
        }
      }
      if (at < 0) {
        at = hard
        const c = text.charCodeAt(at)
        if (c >= 0xdc00 && c <= 0xdfff) at-- // not between the halves of a surrogate pair
      }
      this.cut(at, '', this.secWeight + weigh(text, from, at))
    }
  }

  /** Scans one complete line [ls, le), cutting before it when rules 1 or 2 allow. */
  private line(ls: number, le: number) {
    const text = this.text
    const line = text.slice(ls, le)
    const size = ls - this.secStart
    let kind = this.fences.line(line)
    if (kind === 'code' || kind === 'close') {
      if (kind === 'close') this.fence = null
      else if (this.fence && size >= SECTION_MAX_CHARS) this.cut(ls, '', this.secWeight, this.fence) // rule 4
      this.prevBlank = false
      this.prevLine = null
      this.secWeight += line.length + 1 // code: no formula in it
      return
    }
    const blank = BLANK.test(line)
    const margin = !blank && line[0] !== ' ' && line[0] !== '\t'
    this.fence = null // a fence in a list item or quote ends with it
    if (this.secWeight >= SECTION_CHARS && this.prevBlank && margin && !LIST_ITEM.test(line)) {
      kind = this.restart(ls, '', line, kind) // rule 1
    } else if (size >= SECTION_MAX_CHARS && !this.inMath && !SETEXT.test(line) &&
      (margin || (size >= 2 * SECTION_MAX_CHARS && /^ {0,3}\S/.test(line)))) {
      kind = this.restart(ls, this.tableHeader && line.includes('|') ? this.tableHeader + '\n' : '', line, kind) // rule 2
    }
    if (blank) {
      this.secWeight += line.length + 1
      this.prevBlank = true
      this.inMath = false
      this.prevLine = null
      this.tableHeader = null
      this.prevDef = false
      return
    }
    if (kind === 'open') {
      this.secWeight += line.length + 1
      const open = this.fences.fence
      this.fence = open && open.depth === 0 ? { char: open.ch, len: open.len, opener: line, from: le + 1 } : null
      this.prevBlank = false
      this.prevLine = null
      this.tableHeader = null
      return
    }
    if (LINK_DEF.test(line) && (this.prevBlank || this.prevDef || ls === 0)) {
      this.defs.push(line)
      this.prevDef = true
    } else {
      this.prevDef = false
    }
    if (line.includes('$$') && countOf(line, '$$') % 2 === 1) this.inMath = !this.inMath
    else if (!this.inMath && /^\s*\\\[/.test(line) && !line.includes('\\]')) this.inMath = true
    else if (this.inMath && line.includes('\\]')) this.inMath = false
    if (!this.tableHeader && this.prevLine !== null && this.prevLine.includes('|') && TABLE_DELIMITER.test(line) &&
      (line.includes('|') || this.prevLine.trim().startsWith('|'))) {
      this.tableHeader = this.prevLine + '\n' + line
    }
    this.prevBlank = false
    this.prevLine = line
    this.cutLongLine(ls, le)
    this.secWeight += weigh(text, Math.max(ls, this.secStart), le + 1)
  }
}

/**
 * The whole code of the fence whose code starts at offset `from` of text (a
 * Section's continuesFence or cutsFence): up to its closing line, or to the
 * end of text while it is still open — what the copy button of any piece of
 * a cut fence copies.
 */
export function fenceCode(text: string, from: number): string {
  const opener = text.slice(text.lastIndexOf('\n', from - 2) + 1, from - 1)
  const reader = new FenceReader()
  if (reader.line(opener) !== 'open') return text.slice(from)
  const indent = reader.fence?.indent ?? 0
  for (let ls = from; ls < text.length;) {
    const nl = text.indexOf('\n', ls)
    const le = nl < 0 ? text.length : nl
    if (reader.line(text.slice(ls, le)) !== 'code') return stripIndent(text.slice(from, ls), indent)
    ls = le + 1
  }
  return stripIndent(text.slice(from), indent)
}

/** CommonMark: up to `indent` spaces of the fence's own indentation come off each code line; the code ends without its last newline. */
function stripIndent(code: string, indent: number): string {
  if (code.endsWith('\n')) code = code.slice(0, -1)
  if (!indent) return code
  const re = new RegExp(`^ {1,${indent}}`, 'gm')
  return code.replace(re, '')
}

/** The weight of text[from, to): its length, each dollar sign counting DOLLAR_WEIGHT more. */
function weigh(text: string, from: number, to: number): number {
  let w = to - from
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 36) w += DOLLAR_WEIGHT
  return w
}

/** How many times s holds sub, not overlapping. */
function countOf(s: string, sub: string): number {
  let n = 0
  for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length)) n++
  return n
}

/**
 * Cuts plain text (a user's message, shown as typed) into parts of about
 * SECTION_CHARS characters at line breaks (the break stays at the end of its
 * part), or inside a longer line as rule 3 does. The parts joined give text.
 */
export function splitPlain(text: string): string[] {
  const parts: string[] = []
  let start = 0
  while (text.length - start > SECTION_MAX_CHARS) {
    let at = text.indexOf('\n', start + SECTION_CHARS)
    if (at >= 0 && at < start + SECTION_MAX_CHARS) {
      at++
    } else {
      at = start + SECTION_MAX_CHARS
      while (at > start + SECTION_CHARS && !SOFT_BREAK.test(text[at - 1]) && text[at - 1] !== '\n') at--
      if (at <= start + SECTION_CHARS) at = start + SECTION_MAX_CHARS
      const c = text.charCodeAt(at)
      if (c >= 0xdc00 && c <= 0xdfff) at--
    }
    parts.push(text.slice(start, at))
    start = at
  }
  parts.push(text.slice(start))
  return parts
}

/** The text's length in UTF-8 bytes (what the 1 MiB limit counts). */
export function utf8Bytes(s: string): number {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4
      i++
    } else n += 3
  }
  return n
}

/** A size for people: "512 KB", "1.0 MB" (1024-based), in the locale's digits. */
export function formatSize(bytes: number, locale: string): string {
  if (bytes < 1024 * 1024) {
    return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(Math.max(1, Math.round(bytes / 1024)))} KB`
  }
  return `${new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(bytes / (1024 * 1024))} MB`
}
