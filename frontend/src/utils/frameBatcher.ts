// Streamed text arrives in many small pieces (a fast local model, or a server
// that sends one character per event); applying each piece on its own makes
// the page re-render and re-layout thousands of times a second. A frame
// batcher collects the pieces and hands them over at most once per animation
// frame. When frames do not come (the window is hidden, or WebKit throttles
// requestAnimationFrame), a timer hands them over instead, so the text still
// arrives; flush() hands over at once (the stream ended, or Stop was pressed).

/** How the batcher waits for the next frame; replaceable in tests. */
export interface FrameScheduler {
  /** Calls cb at the next animation frame; returns a function that cancels it. */
  frame(cb: () => void): () => void
  /** Calls cb after ms milliseconds; returns a function that cancels it. */
  timeout(cb: () => void, ms: number): () => void
}

/** The browser's requestAnimationFrame and setTimeout (rAF falls back to the timer alone). */
export const browserScheduler: FrameScheduler = {
  frame(cb) {
    if (typeof requestAnimationFrame !== 'function') return () => {}
    const id = requestAnimationFrame(() => cb())
    return () => cancelAnimationFrame(id)
  },
  timeout(cb, ms) {
    const id = setTimeout(cb, ms)
    return () => clearTimeout(id)
  },
}

/** The fallback delay, in milliseconds, when no animation frame comes (hidden window). */
export const FRAME_FALLBACK_MS = 50

export interface FrameBatcherOptions {
  scheduler?: FrameScheduler
  /** Milliseconds to wait for a frame before applying anyway (FRAME_FALLBACK_MS). */
  fallbackMs?: number
}

export interface FrameBatcher<T> {
  /** Queues an item; the batch is applied at the next frame (or fallback timeout). */
  push(item: T): void
  /** Applies the queued items now (nothing happens when the queue is empty). */
  flush(): void
  /** Drops the queue and any scheduled apply; later pushes are ignored. */
  dispose(): void
  /** Items waiting for the next apply. */
  readonly pending: number
}

/**
 * Collects items and calls apply with all of them at most once per animation
 * frame (or after fallbackMs when no frame comes). apply is never called with
 * an empty batch, and never after dispose().
 */
export function createFrameBatcher<T>(
  apply: (items: T[]) => void,
  opts: FrameBatcherOptions = {},
): FrameBatcher<T> {
  const scheduler = opts.scheduler ?? browserScheduler
  const fallbackMs = opts.fallbackMs ?? FRAME_FALLBACK_MS
  let queue: T[] = []
  let cancels: (() => void)[] = []
  let scheduled = false
  let disposed = false

  const unschedule = () => {
    for (const c of cancels) c()
    cancels = []
  }

  const flush = () => {
    scheduled = false
    unschedule()
    if (queue.length === 0) return
    const items = queue
    queue = []
    apply(items)
  }

  return {
    push(item: T) {
      if (disposed) return
      queue.push(item)
      if (scheduled) return
      scheduled = true
      // A scheduler may call back at once (tests): then nothing is left to wait for.
      const cancelFrame = scheduler.frame(flush)
      if (!scheduled) return
      const cancelTimer = scheduler.timeout(flush, fallbackMs)
      if (!scheduled) return cancelFrame()
      cancels = [cancelFrame, cancelTimer]
    },
    flush() {
      if (!disposed) flush()
    },
    dispose() {
      disposed = true
      scheduled = false
      unschedule()
      queue = []
    },
    get pending() {
      return queue.length
    },
  }
}
