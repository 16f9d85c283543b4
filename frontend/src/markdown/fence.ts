// While a reply streams, a code fence is often open: without a closing fence
// the rest of the message would render as code and then jump when the fence
// closes. closeOpenFence appends the missing fence for rendering only.

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/

/** The fence (its character and length) still open at the end of src, or null. */
export function openFence(src: string): { ch: string; len: number } | null {
  let open: { ch: string; len: number } | null = null
  for (const line of src.split('\n')) {
    const m = FENCE.exec(line)
    if (!m) continue
    const fence = m[1]
    const rest = m[2]
    if (!open) {
      // A backtick fence's info string may not contain a backtick (CommonMark).
      if (fence[0] === '`' && rest.includes('`')) continue
      open = { ch: fence[0], len: fence.length }
    } else if (fence[0] === open.ch && fence.length >= open.len && rest.trim() === '') {
      open = null
    }
  }
  return open
}

/** Returns src with a closing fence appended if a ``` or ~~~ block is still open. */
export function closeOpenFence(src: string): string {
  const open = openFence(src)
  if (!open) return src
  return src + (src.endsWith('\n') ? '' : '\n') + open.ch.repeat(open.len)
}

/** A line of only `-` or `=`: a setext underline (or the start of a list or a rule). */
const UNDERLINE_START = /^ {0,3}(?:-+|=+)[ \t]*$/
/** One or two backticks or tildes starting a line: maybe the start of a fence. */
const FENCE_START = /^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(?:`{1,2}|~{1,2})$/

/**
 * What a streaming reply shows: src without its last, unfinished line when
 * that line could still turn into something else and flash meanwhile — a
 * `-`/`=` line right after text (a setext heading until the next character
 * says "list item"), one or two backticks that may start a fence (stray
 * backticks), or the first characters of an open fence's closing line. The
 * line shows as soon as it ends or the reply does.
 */
export function streamingView(src: string): string {
  const start = src.lastIndexOf('\n') + 1
  const line = src.slice(start)
  if (line === '') return src
  const before = src.slice(0, start)
  const fence = openFence(before)
  if (fence) {
    const m = /^ {0,3}(`+|~+)[ \t]*$/.exec(line)
    return m && m[1][0] === fence.ch && m[1].length < fence.len ? before : src
  }
  if (FENCE_START.test(line)) return before
  if (UNDERLINE_START.test(line)) {
    const prevStart = src.lastIndexOf('\n', start - 2) + 1
    if (start > 0 && before.slice(prevStart, start - 1).trim() !== '') return before
  }
  return src
}
