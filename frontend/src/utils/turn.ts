// Pure helpers of the chat store: message shapes and merging the streaming
// turns into the stored history.
import type { Message, Source, ToolActivity } from '@/api/types'
import type { ErrorInfo } from '@/api/errors'

/** A message as the chat window shows it: stored, or still streaming. */
export interface ChatMessage extends Message {
  /** Stable key for list rendering. */
  key: string
  /** True while the reply is streaming (not stored yet). */
  pending: boolean
  tools: ToolActivity[]
  sources: Source[]
}

export function fromStored(m: Message): ChatMessage {
  return { ...m, key: 'm' + m.id, pending: false, tools: m.tools ?? [], sources: m.sources ?? [] }
}

export function draftMessage(
  key: string,
  role: 'user' | 'assistant',
  content: string,
  model: string,
  sessionId: string,
): ChatMessage {
  return {
    key,
    id: 0,
    sessionId,
    role,
    content,
    status: role === 'assistant' ? 'streaming' : 'complete',
    error: '',
    model,
    createdAt: new Date().toISOString(),
    archived: false,
    forgotten: false,
    pending: role === 'assistant',
    tools: [],
    sources: [],
  }
}

/**
 * Merges a tool event into the list: a start adds an entry, the end with the
 * same id updates it (keeping the start's name, label and detail).
 */
export function mergeTool(list: ToolActivity[], ev: ToolActivity): ToolActivity[] {
  const i = list.findIndex((t) => t.id === ev.id)
  if (i < 0) return [...list, { ...ev }]
  const merged: ToolActivity = { ...list[i] }
  for (const [k, v] of Object.entries(ev) as [keyof ToolActivity, unknown][]) {
    if (v !== undefined && v !== '') (merged as unknown as Record<string, unknown>)[k] = v
  }
  const out = list.slice()
  out[i] = merged
  return out
}

/** The pieces of a live turn that the chat window shows. */
export interface LiveTurn {
  user: ChatMessage
  assistant: ChatMessage
}

/**
 * The messages to show: the stored history, then each live turn's user
 * message (unless the history already holds it) and its streaming reply.
 */
export function visibleMessages(stored: ChatMessage[], live: LiveTurn[]): ChatMessage[] {
  if (live.length === 0) return stored
  // A live turn's reply is stored while it streams (status "streaming"): a
  // history loaded meanwhile holds it, but the live copy is the one shown.
  const liveUsers = new Set(live.map((t) => t.user.id).filter((id) => id !== 0))
  const unknownUser = live.some((t) => t.user.id === 0)
  const last = stored[stored.length - 1]
  stored = stored.filter(
    (m) =>
      !(m.role === 'assistant' && m.status === STREAMING && !m.pending &&
        ((m.parentId !== undefined && liveUsers.has(m.parentId)) || (unknownUser && m === last))),
  )
  const ids = new Set(stored.map((m) => m.id))
  const lastUser = [...stored].reverse().find((m) => m.role === 'user')
  const out = stored.slice()
  for (const t of live) {
    const known =
      (t.user.id !== 0 && ids.has(t.user.id)) ||
      (t.user.id === 0 && lastUser !== undefined && lastUser.content === t.user.content)
    if (!known) out.push(t.user)
    out.push(t.assistant)
  }
  return out
}

/** The `error` the backend stores on a reply the user stopped. */
export const STOPPED_ERROR = 'stopped'

/** The status of a stored reply that is still being written (backend/store). */
export const STREAMING = 'streaming'

/**
 * How a reply ended, as the chat labels it: `stopped` by the user (partial,
 * error "stopped"), `interrupted` by a network or server failure after some
 * text arrived, or by playchat ending mid-reply (partial with another
 * error), `error` with no usable text; `writing` while another turn or
 * another playchat (`playchat ask`) is still writing a stored reply.
 */
export type ReplyOutcome = 'streaming' | 'writing' | 'complete' | 'stopped' | 'interrupted' | 'error'

export function replyOutcome(m: Pick<ChatMessage, 'status' | 'error' | 'pending'>): ReplyOutcome {
  if (m.pending) return 'streaming'
  if (m.status === STREAMING) return 'writing'
  if (m.status === 'error') return 'error'
  if (m.status === 'partial') {
    // Replies stored before the error text existed have none: they were stops.
    return !m.error || m.error === STOPPED_ERROR ? 'stopped' : 'interrupted'
  }
  return 'complete'
}

/**
 * The state of a live reply whose turn failed after it started: text that
 * already arrived stays as a partial reply with the error, as the backend
 * stores it; with no text it is an error.
 */
export function failedReply(
  content: string,
  error: ErrorInfo,
): { status: string; error: string; errorInfo: ErrorInfo } {
  return { status: content.trim() !== '' ? 'partial' : 'error', error: error.message, errorInfo: error }
}
