// Unsaved text — the message box of each chat, unsaved note edits — kept in
// the data dir through the drafts adapter, so what a person typed survives
// quitting the app and stays with its data dir (issue 22: it was kept in
// WebKit's localStorage, which every data dir shares). Writes are debounced
// (a 1 MB paste is not saved on every keystroke) and flushed when the page
// goes away. Drafts an older version left in localStorage are taken over
// once, then removed from there.
import * as draftsApi from '@/api/drafts'
import type { DraftKind } from '@/api/drafts'
import { debounce, type Debounced } from './debounce'
import { loadStored, PERSIST_DELAY_MS } from './persist'

export interface PersistedDrafts extends Debounced {
  /** Resolves once the saved drafts were read and handed to apply. */
  ready: Promise<void>
  /** Writes at once if a write is pending (page hide). */
  flush(): void
}

/**
 * Reads the drafts of kind (valid checks their shape; unreadable ones count
 * as none) and hands them to apply, merged over what an older version left
 * in localStorage under legacyKey; then every call schedules saving what
 * read() returns. Before the first read completes nothing is written, so a
 * slow start cannot wipe what was saved. Failures of the backend keep the
 * text in memory, never throw.
 */
export function persistedDrafts<T extends object>(
  kind: DraftKind,
  legacyKey: string,
  valid: (v: unknown) => v is T,
  apply: (loaded: T) => void,
  read: () => T,
): PersistedDrafts {
  let loaded = false
  let wanted = false
  const write = () => {
    if (!loaded) {
      wanted = true
      return
    }
    const v = read()
    const data = Object.keys(v).length === 0 ? '' : JSON.stringify(v)
    void draftsApi.save(kind, data).catch(() => {})
  }
  const d = debounce(write, PERSIST_DELAY_MS) as PersistedDrafts
  d.flush = () => {
    if (!d.pending) return
    d.cancel()
    write()
  }
  d.ready = (async () => {
    let saved: unknown = {}
    try {
      const raw = await draftsApi.load(kind)
      if (raw) saved = JSON.parse(raw)
    } catch {
      saved = {}
    }
    const legacy = loadStored(legacyKey, valid, null)
    const merged = { ...(legacy ?? {}), ...(valid(saved) ? saved : {}) } as T
    loaded = true
    apply(merged)
    if (legacy) {
      try {
        globalThis.localStorage?.removeItem(legacyKey)
      } catch {
        // a disabled storage: nothing to remove
      }
      wanted = true
    }
    if (wanted) write()
  })()
  globalThis.addEventListener?.('pagehide', () => d.flush())
  return d
}
