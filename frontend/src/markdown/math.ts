// Math in Markdown replies, rendered with KaTeX. The rules are pinned in
// docs/markdown-and-math.md; in short:
//
//   display  $$…$$ and \[…\] that start a line and end a line (the formula may
//            span lines, but not a blank line; a quote or list prefix before
//            the opening delimiter is fine)
//   inline   $$…$$ within a line, \(…\) (not across a blank line), and $…$
//            when: the opening $ is not followed by whitespace, the content
//            has no newline, the closing $ is preceded by a non-space and not
//            followed by an ASCII letter or digit. "$$" is never two single
//            dollars. \$ is a literal dollar outside math and stays \$ (a
//            dollar) for KaTeX inside it. A $ that fails as an opener is text
//            and the next $ may open instead.
//   never    inside inline code or a fence.
//
// Extraction runs before marked sees the text, so Markdown's escapes and
// emphasis never touch TeX: every formula becomes a placeholder — a private
// use character, a kind letter, the formula's source in hex, another private
// use character — which marked passes through as plain text (it cannot be
// emphasis, a table pipe, a list or a heading). restoreMathSource puts the
// source back where a placeholder landed in code, raw HTML or a URL, and
// replaceMathPlaceholders swaps the placeholders left in the sanitised HTML's
// text for KaTeX output that went through its own, KaTeX-only sanitiser.
// Placeholders carry their source, so a block's cache key stays its content.
//
// While streaming, a closing single $ at the very end of the text does not
// close yet (the next character may be a letter: "$HOME"), and a formula
// without its closing delimiter is plain text, so KaTeX never sees a half
// formula and no red error flashes.
import DOMPurify, { type Config } from 'dompurify'
import { cssLoads } from '@/utils/safeCss'
import katex from 'katex'
import { FenceReader } from './fences'

const PH_OPEN = '\uE000'
const PH_CLOSE = '\uE001'
/** Kinds: D display block, Q display block inside a blockquote, I inline. */
type Kind = 'D' | 'Q' | 'I'

const PLACEHOLDER = /\uE000([DQI])([0-9a-f]+)\uE001/g

function hex(s: string): string {
  let out = ''
  for (let i = 0; i < s.length; i++) out += s.charCodeAt(i).toString(16).padStart(4, '0')
  return out
}

function unhex(h: string): string {
  let out = ''
  for (let i = 0; i + 4 <= h.length; i += 4) out += String.fromCharCode(parseInt(h.slice(i, i + 4), 16))
  return out
}

function placeholder(kind: Kind, raw: string): string {
  return PH_OPEN + kind + hex(raw) + PH_CLOSE
}

/** A display formula's opening delimiter at the start of a line. */
const DISPLAY_OPEN = /^([ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?)(\$\$|\\\[)/
const SPACE = /\s/
const ALNUM = /[A-Za-z0-9]/
const ASCII_PUNCT = /[!-/:-@[-`{-~]/

/**
 * Index of the first `close` in s[from, to) outside backslash escapes
 * (`\x` is skipped as a pair), or -1.
 */
function findClose(s: string, from: number, to: number, close: string): number {
  for (let j = from; j < to; j++) {
    const c = s[j]
    if (c === '\\') {
      if (close[0] === '\\' && s.startsWith(close, j)) return j
      j++
      continue
    }
    if (c === close[0] && s.startsWith(close, j)) return j
  }
  return -1
}

function lineEnd(s: string, i: number): number {
  const e = s.indexOf('\n', i)
  return e < 0 ? s.length : e
}

const isBlank = (line: string) => line.trim() === ''

/**
 * The end (exclusive) of a display formula opening at `open`, or -1. The
 * closing delimiter must end its line. `fences` has read the opening line;
 * it reads the formula's further lines (a line that opens a fence ends the
 * search), so on success it stands after the closing line.
 */
function displayEnd(s: string, open: number, delim: string, inQuote: boolean, fences: FenceReader): number {
  const close = delim === '$$' ? '$$' : '\\]'
  const first = open + delim.length
  let eol = lineEnd(s, first)
  let from = first
  let lineStart = -1
  for (;;) {
    if (lineStart >= 0) {
      const line = s.slice(lineStart, eol)
      const body = inQuote ? line.replace(/^[ \t]*(?:>[ \t]?)*/, '') : line
      if (isBlank(body) || fences.line(line) === 'open') return -1
    }
    const at = findClose(s, from, eol, close)
    if (at >= 0) {
      const end = at + close.length
      if (!isBlank(s.slice(end, eol))) return -1
      if (s.slice(first, at).trim() === '') return -1
      return end
    }
    if (eol >= s.length) return -1
    lineStart = eol + 1
    from = lineStart
    eol = lineEnd(s, lineStart)
  }
}

/**
 * Replaces every formula in src by a placeholder (see the file comment).
 * Text without `$` or a backslash comes back as it is.
 */
export function extractMath(src: string, streaming = false): string {
  return scan(src, streaming).out
}

/**
 * The result of extracting a text's formulas, kept so that the text grown by
 * a few characters is scanned only from its last blank line: nothing crosses
 * a blank line outside a fence (display math, code spans and \(…\) stop at
 * one), so what comes before it is final.
 */
export interface MathScan {
  src: string
  out: string
  /** A line start after a blank line, outside any fence: src before it is final … */
  cut: number
  /** … and this is how long its output is. */
  outCut: number
  /** The fence reader as it stood at cut (before the line there), to go on reading from it. */
  fences?: FenceReader
}

/** extractMath for a growing text, reusing `prev` (the scan of an earlier version) when it can. */
export function extractMathIncremental(src: string, streaming: boolean, prev: MathScan | null): MathScan {
  if (prev && prev.cut > 0 && src.length >= prev.cut && src.startsWith(prev.src.slice(0, prev.cut))) {
    const tail = scan(src.slice(prev.cut), streaming, prev.fences)
    return {
      src,
      out: prev.out.slice(0, prev.outCut) + tail.out,
      cut: tail.cut > 0 ? prev.cut + tail.cut : prev.cut,
      outCut: tail.cut > 0 ? prev.outCut + tail.outCut : prev.outCut,
      fences: tail.cut > 0 ? tail.fences : prev.fences,
    }
  }
  return { src, ...scan(src, streaming) }
}

/** Extracts the formulas of src; `from` is the fence reader's state where src starts (a fresh one by default, not changed). */
function scan(src: string, streaming: boolean, from?: FenceReader): { out: string; cut: number; outCut: number; fences?: FenceReader } {
  const n = src.length
  const parts: string[] = []
  let last = 0
  let outLen = 0
  let cut = 0
  let outCut = 0
  const emit = (start: number, end: number, kind: Kind) => {
    const ph = placeholder(kind, src.slice(start, end))
    parts.push(src.slice(last, start), ph)
    outLen += start - last + ph.length
    last = end
  }
  if (src.indexOf('$') < 0 && src.indexOf('\\') < 0) return { out: src, cut: 0, outCut: 0 }
  let fences = from ? from.clone() : new FenceReader()
  let cutFences: FenceReader | undefined
  /** The start of the next line the fence reader has not read (a code span or \(…\) may run past line ends). */
  let fed = 0
  let prevBlank = false
  let i = 0
  while (i < n) {
    if (i === 0 || src[i - 1] === '\n') {
      for (; fed < i; fed = lineEnd(src, fed) + 1) fences.line(src.slice(fed, lineEnd(src, fed)))
      const eol = lineEnd(src, i)
      const line = src.slice(i, eol)
      if (!fences.fence && prevBlank && i > 0) {
        cut = i
        outCut = outLen + (i - last)
        cutFences = fences.clone()
      }
      prevBlank = isBlank(line)
      const kind = fences.line(line)
      fed = eol + 1
      if (kind !== 'none') {
        // In a fence: no math on this line.
        i = eol + 1
        continue
      }
      const d = DISPLAY_OPEN.exec(line)
      if (d) {
        const open = i + d[1].length
        const inQuote = d[1].includes('>')
        const probe = fences.clone()
        const end = displayEnd(src, open, d[2], inQuote, probe)
        if (end > 0) {
          emit(open, end, inQuote ? 'Q' : 'D')
          fences = probe
          fed = lineEnd(src, end) + 1
          i = end
          continue
        }
      }
    }
    const c = src[i]
    if (c === '`') {
      let len = 1
      while (src[i + len] === '`') len++
      const close = codeSpanEnd(src, i + len, len)
      i = close > 0 ? close : i + len
      continue
    }
    if (c === '\\') {
      const nx = src[i + 1]
      if (nx === '(') {
        const at = findParenClose(src, i + 2)
        if (at > 0 && src.slice(i + 2, at).trim() !== '') {
          emit(i, at + 2, 'I')
          i = at + 2
          continue
        }
      }
      i += nx !== undefined && ASCII_PUNCT.test(nx) ? 2 : 1
      continue
    }
    if (c === '$') {
      if (src[i + 1] === '$') {
        let run = 2
        while (src[i + run] === '$') run++
        if (run > 2) {
          i += run
          continue
        }
        const eol = lineEnd(src, i)
        const at = findClose(src, i + 2, eol, '$$')
        if (at > 0 && src[at + 2] !== '$' && src.slice(i + 2, at).trim() !== '') {
          emit(i, at + 2, 'I')
          i = at + 2
        } else {
          i += 2
        }
        continue
      }
      const next = inlineDollar(src, i, streaming)
      if (next.end > 0) {
        emit(i, next.end, 'I')
        i = next.end
      } else {
        i = next.resume
      }
      continue
    }
    i++
  }
  if (last === 0) return { out: src, cut, outCut, fences: cutFences }
  parts.push(src.slice(last))
  return { out: parts.join(''), cut, outCut, fences: cutFences }
}

/** After a run of `len` backticks at `from`: the end of the matching run, or -1 (no blank line between). */
function codeSpanEnd(s: string, from: number, len: number): number {
  let j = from
  while (j < s.length) {
    const c = s[j]
    if (c === '`') {
      let m = 1
      while (s[j + m] === '`') m++
      if (m === len) return j + m
      j += m
      continue
    }
    if (c === '\n' && isBlank(s.slice(j + 1, lineEnd(s, j + 1))) && j + 1 < s.length) return -1
    j++
  }
  return -1
}

/** The index of the `\)` closing a `\(` whose content starts at `from`, or -1 (no blank line between). */
function findParenClose(s: string, from: number): number {
  for (let j = from; j < s.length; j++) {
    const c = s[j]
    if (c === '\\') {
      if (s[j + 1] === ')') return j
      j++
      continue
    }
    if (c === '\n' && isBlank(s.slice(j + 1, lineEnd(s, j + 1)))) return -1
  }
  return -1
}

/**
 * A single `$` at i: the end of its formula, or where to go on scanning
 * (at the next `$` when that one did not close, so it may open instead).
 */
function inlineDollar(s: string, i: number, streaming: boolean): { end: number; resume: number } {
  const fail = { end: -1, resume: i + 1 }
  const first = s[i + 1]
  if (first === undefined || SPACE.test(first)) return fail
  let j = i + 1
  for (; j < s.length; j++) {
    const c = s[j]
    if (c === '\n') return fail
    if (c === '\\') {
      if (s[j + 1] === '\n') return fail
      j++
      continue
    }
    if (c === '$') break
  }
  if (j >= s.length) return fail
  const after = s[j + 1]
  const ok =
    !SPACE.test(s[j - 1]) &&
    after !== '$' &&
    !(after !== undefined && ALNUM.test(after)) &&
    !(streaming && after === undefined)
  if (ok) return { end: j + 1, resume: j + 1 }
  // "$$" right after is a double-dollar delimiter: go on from there.
  return { end: -1, resume: j }
}

/** The TeX and mode of a placeholder's source. */
function texOf(kind: Kind, raw: string): { tex: string; display: boolean } {
  let open = 1
  let close = 1
  if (raw.startsWith('$$')) open = close = 2
  else if (raw.startsWith('\\')) open = close = 2
  let tex = raw.slice(open, raw.length - close)
  if (kind === 'Q') tex = tex.split('\n').map((l, k) => (k === 0 ? l : l.replace(/^[ \t]*(?:>[ \t]?)*/, ''))).join('\n')
  return { tex: tex.trim(), display: kind !== 'I' }
}

/** Puts the source back for every placeholder in s (code, raw HTML, URLs). */
export function restoreMathSource(s: string): string {
  if (s.indexOf(PH_OPEN) < 0) return s
  return s.replace(PLACEHOLDER, (_m, _kind: string, h: string) => unhex(h))
}

/** True when s holds a placeholder. */
export function hasMathPlaceholder(s: string): boolean {
  return s.indexOf(PH_OPEN) >= 0
}

/** Removes the placeholder delimiters (for attribute values: never markup there). */
export function stripPlaceholderMarks(s: string): string {
  return s.replace(/[\uE000\uE001]/g, '')
}

// ---- KaTeX -------------------------------------------------------------------

/** KaTeX options: no code (trust false), errors shown in place, MathML for screen readers. */
export const KATEX_OPTIONS = {
  throwOnError: false,
  trust: false,
  output: 'htmlAndMathml',
  strict: 'ignore',
  maxSize: 20,
  maxExpand: 500,
} as const

const MATHML_TAGS = [
  'math', 'semantics', 'annotation', 'mrow', 'mi', 'mn', 'mo', 'ms', 'mtext', 'mspace', 'msup', 'msub',
  'msubsup', 'mfrac', 'msqrt', 'mroot', 'mstyle', 'mpadded', 'mphantom', 'munder', 'mover', 'munderover',
  'mtable', 'mtr', 'mtd', 'mlabeledtr', 'menclose', 'merror',
]
const MATHML_ATTR = [
  'xmlns', 'encoding', 'display', 'mathvariant', 'stretchy', 'fence', 'separator', 'lspace', 'rspace',
  'width', 'height', 'depth', 'voffset', 'columnalign', 'rowalign', 'rowspacing', 'columnspacing',
  'rowlines', 'columnlines', 'frame', 'framespacing', 'equalrows', 'equalcolumns', 'side', 'displaystyle',
  'scriptlevel', 'accent', 'accentunder', 'minsize', 'maxsize', 'movablelimits', 'notation', 'linethickness',
  'symmetric', 'largeop', 'mathcolor', 'mathbackground', 'mathsize', 'form', 'columnspan', 'rowspan',
]
/** What KaTeX's own output needs, and nothing that runs code or loads anything. */
export const KATEX_SANITIZE_CONFIG: Config = {
  ALLOWED_TAGS: ['span', 'br', ...MATHML_TAGS, 'svg', 'path', 'line'],
  ALLOWED_ATTR: [
    'class', 'style', 'aria-hidden', 'title', ...MATHML_ATTR,
    'viewbox', 'preserveaspectratio', 'd', 'x1', 'x2', 'y1', 'y2', 'stroke-width',
  ],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
}

/** Inline styles KaTeX never writes: anything that could escape the formula's box or run code (loads: cssLoads). */
const BAD_STYLE = /expression\s*\(|position\s*:|javascript:|behavior\s*:|-moz-binding/i

let katexPurifier: ReturnType<typeof DOMPurify> | null = null
function purifyKatex(html: string): string {
  if (!katexPurifier) {
    const p = DOMPurify(window)
    p.setConfig(KATEX_SANITIZE_CONFIG)
    p.addHook('uponSanitizeAttribute', (_node, data) => {
      if (/^on/i.test(data.attrName)) data.keepAttr = false
      if (data.attrName === 'style' && (BAD_STYLE.test(data.attrValue) || cssLoads(data.attrValue))) data.keepAttr = false
    })
    katexPurifier = p
  }
  return katexPurifier.sanitize(html) as string
}

/** Rendered formulas by mode and TeX; a streamed paragraph renders its formulas on every frame. */
const katexCache = new Map<string, string>()
const KATEX_CACHE_ENTRIES = 500

/** How many rendered formulas are cached (debug statistics). */
export const katexCacheSize = (): number => katexCache.size

/** Sanitised KaTeX HTML for one formula (a KaTeX error renders in place, in red). */
export function renderTex(tex: string, display: boolean): string {
  const key = (display ? 'D' : 'I') + tex
  const hit = katexCache.get(key)
  if (hit !== undefined) {
    katexCache.delete(key)
    katexCache.set(key, hit)
    return hit
  }
  let html: string
  try {
    html = katex.renderToString(tex, { ...KATEX_OPTIONS, displayMode: display })
  } catch (e) {
    // throwOnError is off, but KaTeX still throws for bad options or limits.
    html = `<span class="katex-error" title="${escapeAttr(String((e as Error)?.message ?? e))}">${escapeAttr(tex)}</span>`
  }
  const safe = purifyKatex(html)
  katexCache.set(key, safe)
  if (katexCache.size > KATEX_CACHE_ENTRIES) katexCache.delete(katexCache.keys().next().value as string)
  return safe
}

function escapeAttr(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** A display formula with the line breaks marked put around it. */
const PLACEHOLDER_HTML = /(?:<br>\s*)?\uE000([DQ])([0-9a-f]+)\uE001(?:\s*<br>)?|\uE000(I)([0-9a-f]+)\uE001/g

/**
 * Swaps the placeholders in sanitised HTML for KaTeX. Only text can hold a
 * placeholder by then: the Markdown sanitiser strips the marks from every
 * attribute value.
 */
export function replaceMathPlaceholders(html: string): string {
  if (html.indexOf(PH_OPEN) < 0) return html
  return html.replace(PLACEHOLDER_HTML, (_m, dk: string, dh: string, ik: string, ih: string) => {
    const kind = (dk ?? ik) as Kind
    const { tex, display } = texOf(kind, unhex(dh ?? ih))
    return renderTex(tex, display)
  })
}
