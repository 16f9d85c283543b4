// The automatic tags of messages (Go: backend/tagging, app/tags.go).
import { EventsOn } from '../../wailsjs/runtime/runtime'

/** A message or memory got its tags; the data is a TagsUpdate. */
export const TAGS_UPDATED = 'tags:updated'

/** EVENT TAGS_UPDATED's data (Go: tagging.Update): exactly one of messageId and memoryId is set. */
export interface TagsUpdate {
  sessionId: string
  messageId: number
  memoryId: number
  tags: string[]
}

/** Reads a TAGS_UPDATED payload; null when it is not one. */
export function toTagsUpdate(v: unknown): TagsUpdate | null {
  if (!v || typeof v !== 'object') return null
  const o = v as Record<string, unknown>
  if (typeof o.sessionId !== 'string' || !Array.isArray(o.tags)) return null
  return {
    sessionId: o.sessionId,
    messageId: typeof o.messageId === 'number' ? o.messageId : 0,
    memoryId: typeof o.memoryId === 'number' ? o.memoryId : 0,
    tags: o.tags.filter((t): t is string => typeof t === 'string'),
  }
}

/** Calls `handler` for every tagged message or memory; returns the unsubscribe function. */
export function onTagsUpdated(handler: (u: TagsUpdate) => void): () => void {
  const off = EventsOn(TAGS_UPDATED, (v: unknown) => {
    const u = toTagsUpdate(v)
    if (u) handler(u)
  })
  return () => typeof off === 'function' && off()
}
