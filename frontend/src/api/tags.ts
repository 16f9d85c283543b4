// The automatic tags of messages (Go: backend/tagging, app/tags.go).
import { EventsOn } from '../../wailsjs/runtime/runtime'
import { TAGS_PAUSED, TAGS_UPDATED, type TaggingPause, type TaggingUpdate } from './events'

export { TAGS_UPDATED, TAGS_PAUSED }

/** TAGS_UPDATED's data (Go: tagging.Update) as read: exactly one of messageId and memoryId is not 0. */
export type TagsUpdate = Required<TaggingUpdate>

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

/** TAGS_PAUSED's data (Go: tagging.Pause): the model that failed ("" when none), the last failure in English, whether it answered but not with tags. */
export type TagsPause = TaggingPause

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
