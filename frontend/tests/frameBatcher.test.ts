import { describe, expect, it, vi } from 'vitest'
import { createFrameBatcher, type FrameScheduler } from '@/utils/frameBatcher'

/** A scheduler driven by hand: frames and timeouts run when the test says so. */
function manualScheduler() {
  let frames: (() => void)[] = []
  let timers: { cb: () => void; ms: number }[] = []
  const scheduler: FrameScheduler = {
    frame(cb) {
      frames.push(cb)
      return () => (frames = frames.filter((f) => f !== cb))
    },
    timeout(cb, ms) {
      const t = { cb, ms }
      timers.push(t)
      return () => (timers = timers.filter((x) => x !== t))
    },
  }
  return {
    scheduler,
    get frames() { return frames.length },
    get timers() { return timers.length },
    frame() {
      const fs = frames
      frames = []
      fs.forEach((f) => f())
    },
    timeout() {
      const ts = timers
      timers = []
      ts.forEach((t) => t.cb())
    },
  }
}

describe('createFrameBatcher', () => {
  it('applies many items pushed within one frame once, in order', () => {
    const s = manualScheduler()
    const apply = vi.fn()
    const b = createFrameBatcher<string>(apply, { scheduler: s.scheduler })
    for (const ch of 'hello world') b.push(ch)
    expect(apply).not.toHaveBeenCalled()
    expect(b.pending).toBe(11)
    expect(s.frames).toBe(1) // one frame requested, not one per item
    s.frame()
    expect(apply).toHaveBeenCalledTimes(1)
    expect(apply.mock.calls[0][0].join('')).toBe('hello world')
    expect(b.pending).toBe(0)
    expect(s.timers).toBe(0) // the fallback timer was cancelled
  })

  it('applies each frame\'s items in the next frame', () => {
    const s = manualScheduler()
    const batches: string[] = []
    const b = createFrameBatcher<string>((xs) => batches.push(xs.join('')), { scheduler: s.scheduler })
    b.push('a')
    b.push('b')
    s.frame()
    b.push('c')
    s.frame()
    s.frame() // nothing queued: nothing applied
    expect(batches).toEqual(['ab', 'c'])
  })

  it('falls back to a timer when no frame comes (hidden window)', () => {
    const s = manualScheduler()
    const apply = vi.fn()
    const b = createFrameBatcher<string>(apply, { scheduler: s.scheduler, fallbackMs: 40 })
    b.push('x')
    b.push('y')
    s.timeout()
    expect(apply).toHaveBeenCalledTimes(1)
    expect(apply.mock.calls[0][0]).toEqual(['x', 'y'])
    expect(s.frames).toBe(0) // the frame request was cancelled
  })

  it('flush applies at once (end of stream) and cancels the scheduled apply', () => {
    const s = manualScheduler()
    const apply = vi.fn()
    const b = createFrameBatcher<string>(apply, { scheduler: s.scheduler })
    b.push('tail')
    b.flush()
    expect(apply).toHaveBeenCalledWith(['tail'])
    expect(s.frames).toBe(0)
    expect(s.timers).toBe(0)
    b.flush()
    expect(apply).toHaveBeenCalledTimes(1) // an empty queue applies nothing
  })

  it('dispose drops the queue, cancels timers and ignores later pushes', () => {
    const s = manualScheduler()
    const apply = vi.fn()
    const b = createFrameBatcher<string>(apply, { scheduler: s.scheduler })
    b.push('lost')
    b.dispose()
    expect(s.frames + s.timers).toBe(0)
    b.push('ignored')
    b.flush()
    s.frame()
    s.timeout()
    expect(apply).not.toHaveBeenCalled()
    expect(b.pending).toBe(0)
  })

  it('uses requestAnimationFrame by default, with a timer fallback', () => {
    vi.useFakeTimers()
    try {
      const apply = vi.fn()
      const b = createFrameBatcher<number>(apply)
      for (let i = 0; i < 20000; i++) b.push(i)
      vi.advanceTimersToNextFrame()
      expect(apply).toHaveBeenCalledTimes(1)
      expect(apply.mock.calls[0][0]).toHaveLength(20000)
      b.push(1)
      vi.advanceTimersByTime(1000)
      expect(apply).toHaveBeenCalledTimes(2)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('createFrameBatcher with a scheduler that calls back at once', () => {
  it('applies each push immediately and leaves nothing scheduled', () => {
    const cancelled = vi.fn()
    const immediate: FrameScheduler = {
      frame: (cb) => (cb(), cancelled),
      timeout: () => {
        throw new Error('no timer needed')
      },
    }
    const apply = vi.fn()
    const b = createFrameBatcher<string>(apply, { scheduler: immediate })
    b.push('a')
    b.push('b')
    expect(apply.mock.calls).toEqual([[['a']], [['b']]])
    expect(b.pending).toBe(0)
  })
})
