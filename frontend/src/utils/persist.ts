// Reading what the page kept in localStorage (older versions kept drafts
// there; utils/draftPersist.ts takes them over), and the write delay of
// persisted drafts.

/** How long after the last change the value is written, in ms. */
export const PERSIST_DELAY_MS = 400

/**
 * The JSON value stored under key when valid accepts it, else fallback (a
 * missing, unreadable or foreign value is ignored, never thrown).
 */
export function loadStored<T>(key: string, valid: (v: unknown) => v is T, fallback: T): T {
  try {
    const raw = globalThis.localStorage?.getItem(key)
    if (raw == null) return fallback
    const v: unknown = JSON.parse(raw)
    return valid(v) ? v : fallback
  } catch {
    return fallback
  }
}

/** A plain object whose values are all strings. */
export function isStringRecord(v: unknown): v is Record<string, string> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string')
}
