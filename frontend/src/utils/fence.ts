// While a reply streams, a code fence is often open: without a closing fence
// the rest of the message would render as code and then jump when the fence
// closes. closeOpenFence appends the missing fence for rendering only.

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/

/** Returns src with a closing fence appended if a ``` or ~~~ block is still open. */
export function closeOpenFence(src: string): string {
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
  if (!open) return src
  return src + (src.endsWith('\n') ? '' : '\n') + open.ch.repeat(open.len)
}
