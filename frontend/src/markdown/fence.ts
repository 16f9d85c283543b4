// While a reply streams, a code fence is often open: without a closing fence
// the rest of the message would render as code and then jump when the fence
// closes. closeOpenFence appends the missing fence for rendering only. Which
// lines open and close fences is the fence reader's (fences.ts) to say.
import { readFences } from './fences'

/** The fence (its character and length) still open at the end of src, or null. */
export function openFence(src: string): { ch: string; len: number } | null {
  const open = readFences(src).fence
  return open && { ch: open.ch, len: open.len }
}

/** Returns src with a closing fence appended if a ``` or ~~~ block is still open (inside its list item or quote). */
export function closeOpenFence(src: string): string {
  const closer = readFences(src).closer()
  if (!closer) return src
  return src + (src.endsWith('\n') ? '' : '\n') + closer
}

/** A line of only `-` or `=`: a setext underline (or the start of a list or a rule). */
const UNDERLINE_START = /^ {0,3}(?:-+|=+)[ \t]*$/

/** The length of the run of c at the end of s. */
function trailingRun(s: string, c: string): number {
  let n = 0
  while (n < s.length && s[s.length - 1 - n] === c) n++
  return n
}

/**
 * What a streaming reply shows: src without its last, unfinished line when
 * that line could still turn into something else and flash meanwhile — a
 * `-`/`=` line right after text (a setext heading until the next character
 * says "list item"), one or two backticks or tildes that may start a fence
 * (stray backticks), or the first characters of an open fence's closing
 * line. The line shows as soon as it ends or the reply does.
 */
export function streamingView(src: string): string {
  const start = src.lastIndexOf('\n') + 1
  const line = src.slice(start)
  if (line === '') return src
  const before = src.slice(0, start)
  const reader = readFences(before)
  const fence = reader.fence
  if (fence) {
    // The start of the closing line: more of the marker would close the fence.
    const partial = line.includes(fence.ch) && reader.peek(line) !== 'close' &&
      reader.peek(line + fence.ch.repeat(fence.len)) === 'close'
    return partial ? before : src
  }
  const last = line[line.length - 1]
  if (last === '`' || last === '~') {
    const run = trailingRun(line, last)
    if (run <= 2 && reader.peek(line + last.repeat(3 - run)) === 'open') return before
  }
  if (UNDERLINE_START.test(line)) {
    const prevStart = src.lastIndexOf('\n', start - 2) + 1
    if (start > 0 && before.slice(prevStart, start - 1).trim() !== '') return before
  }
  return src
}
