// Coalescing bursts of requests (window focus storms, several edits in a row)
// into one call.

export interface Debounced {
  /** Asks for a run: `fn` runs once, `ms` after the last request. */
  (): void
  /** Drops a pending run. */
  cancel(): void
  /** True while a run is pending. */
  readonly pending: boolean
}

/** Returns a debounced `fn` (trailing edge only). */
export function debounce(fn: () => void, ms: number): Debounced {
  let timer: ReturnType<typeof setTimeout> | null = null
  const run = () => {
    timer = null
    fn()
  }
  const d = (() => {
    if (timer !== null) clearTimeout(timer)
    timer = setTimeout(run, ms)
  }) as Debounced
  d.cancel = () => {
    if (timer !== null) clearTimeout(timer)
    timer = null
  }
  Object.defineProperty(d, 'pending', { get: () => timer !== null })
  return d
}
