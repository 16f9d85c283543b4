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

/** Automatic tagging paused (Go: app.EventTagsPaused); the data is a TagsPause. */
export const TAGS_PAUSED = 'tags:paused'

/** TAGS_PAUSED's data (Go: tagging.Pause). */
export interface TagsPause {
  /** The model that failed ("" when there was none to ask). */
  model: string
  /** The last failure, in English. */
  reason: string
  /** The model answered, but not with tags. */
  notTags: boolean
}

/** Calls `handler` when automatic tagging pauses; returns the unsubscribe function. */
export function onTagsPaused(handler: (p: TagsPause) => void): () => void {
  const off = EventsOn(TAGS_PAUSED, (v: unknown) => {
    if (!v || typeof v !== 'object') return
    const o = v as Record<string, unknown>
    handler({
      model: typeof o.model === 'string' ? o.model : '',
      reason: typeof o.reason === 'string' ? o.reason : '',
      notTags: o.notTags === true,
    })
  })
  return () => typeof off === 'function' && off()
}
