// After every turn the chat reloads the session's history. Building a fresh
// object for each of its (often hundreds of) messages makes every bubble
// render again and leaves the old copies for the garbage collector each turn;
// reuseMessages keeps the previous object of every message that did not
// change, so only new or changed messages are new objects.
import type { ChatMessage } from './turn'

function sameTools(a: ChatMessage['tools'], b: ChatMessage['tools']): boolean {
  if (a === b) return true
  if (a.length !== b.length) return false
  return a.length === 0 || JSON.stringify(a) === JSON.stringify(b)
}

/**
 * The attachments show the same: the same files in the same order, each
 * sending the same part (a regenerate that sent only the part of a document
 * that fits changes its question's part, issue 25).
 */
function sameAttachments(a: ChatMessage['attachments'], b: ChatMessage['attachments']): boolean {
  const x = a ?? []
  const y = b ?? []
  return (
    x.length === y.length &&
    x.every((f, i) => f.sha256 === y[i].sha256 && f.sentPages === y[i].sentPages && f.sentChars === y[i].sentChars)
  )
}

/** True when the two copies of a stored message show the same thing. */
export function sameMessage(a: ChatMessage, b: ChatMessage): boolean {
  return (
    a.key === b.key &&
    a.id === b.id &&
    a.sessionId === b.sessionId &&
    a.role === b.role &&
    a.content === b.content &&
    a.status === b.status &&
    a.error === b.error &&
    a.model === b.model &&
    a.createdAt === b.createdAt &&
    a.archived === b.archived &&
    a.forgotten === b.forgotten &&
    a.pending === b.pending &&
    !!a.unanswered === !!b.unanswered &&
    sameTools(a.tools, b.tools) &&
    sameAttachments(a.attachments, b.attachments) &&
    a.sources.length === 0 &&
    b.sources.length === 0 &&
    (a.siblingIds ?? []).join() === (b.siblingIds ?? []).join() &&
    (a.tags ?? []).join('\n') === (b.tags ?? []).join('\n')
  )
}

/** next, with each message that equals its previous copy replaced by that copy. */
export function reuseMessages(prev: readonly ChatMessage[], next: ChatMessage[]): ChatMessage[] {
  if (prev.length === 0) return next
  const byKey = new Map<string, ChatMessage>()
  for (const m of prev) byKey.set(m.key, m)
  let changed = prev.length !== next.length
  const out = next.map((m, i) => {
    const old = byKey.get(m.key)
    if (old && sameMessage(old, m)) {
      if (prev[i] !== old) changed = true
      return old
    }
    changed = true
    return m
  })
  // Nothing changed at all: keep the very same array (no re-render anywhere).
  return changed ? out : (prev as ChatMessage[])
}
