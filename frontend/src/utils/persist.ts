// Unsaved text kept in the page's localStorage, so what a person typed —
// the message box of each chat, unsaved note edits — survives quitting the
// app (WebKit keeps localStorage under the user's data folder). Writes are
// debounced: a 1 MB paste is not serialised on every keystroke.
import { debounce, type Debounced } from './debounce'

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

/**
 * A debounced writer of key: each call schedules writing the value read()
 * returns then (null or an empty object removes the key). A full storage
 * loses the write, not the app. flush() writes at once (page hide).
 */
export function storedWriter(key: string, read: () => unknown): Debounced & { flush(): void } {
  const write = () => {
    try {
      const v = read()
      const empty = v == null || (typeof v === 'object' && Object.keys(v as object).length === 0)
      if (empty) globalThis.localStorage?.removeItem(key)
      else globalThis.localStorage?.setItem(key, JSON.stringify(v))
    } catch {
      // quota or a disabled storage: the text stays in memory
    }
  }
  const d = debounce(write, PERSIST_DELAY_MS) as Debounced & { flush(): void }
  d.flush = () => {
    if (!d.pending) return
    d.cancel()
    write()
  }
  // The window may go away before the timer fires.
  globalThis.addEventListener?.('pagehide', () => d.flush())
  return d
}

/** A plain object whose values are all strings. */
export function isStringRecord(v: unknown): v is Record<string, string> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string')
}
