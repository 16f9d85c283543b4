// How a long message's parts are mounted over frames (composables/useReveal.ts):
// the budget per frame follows how fast frames come, never below a share
// that finishes within REVEAL_MAX_FRAMES. Frames and the clock are driven by
// hand: what is asserted is how the work is cut up.
import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { defineComponent, h, ref } from 'vue'
import {
  REVEAL_FRAMES, REVEAL_MAX_CHARS, REVEAL_MAX_FRAMES, REVEAL_START_CHARS, useReveal, type RevealScheduler,
} from '@/composables/useReveal'

class HandFrames implements RevealScheduler {
  queue: (() => void)[] = []
  clock = 0
  frameMs = 16
  now() {
    return this.clock
  }
  frame(cb: () => void) {
    this.queue.push(cb)
    return () => {
      this.queue = this.queue.filter((f) => f !== cb)
    }
  }
  timeout() {
    return () => {}
  }
  run(): boolean {
    const q = this.queue
    this.queue = []
    this.clock += this.frameMs
    for (const f of q) f()
    return q.length > 0
  }
}

/** A component revealing `sizes.length` parts; `target` says how many are wanted. */
function rig(sizes: number[], initial = 1) {
  const frames = new HandFrames()
  const target = ref(Infinity)
  let shown = ref(0)
  const C = defineComponent({
    setup() {
      shown = useReveal({ count: () => sizes.length, target: () => target.value, size: (i) => sizes[i], initial: () => initial }).shown
      return () => h('div', shown.value)
    },
  })
  const w = mount(C, { global: { provide: { [REVEAL_FRAMES as symbol]: frames } } })
  /** Runs frames to the end; how many parts each mounted. */
  const runAll = () => {
    const per: number[] = []
    let before = shown.value
    while (frames.run()) {
      per.push(shown.value - before)
      before = shown.value
    }
    return per
  }
  return { frames, target, shown: () => shown.value, w, runAll }
}

describe('useReveal', () => {
  it('doubles what a frame mounts while frames come quickly, up to REVEAL_MAX_CHARS', () => {
    const r = rig(Array(400).fill(1000))
    const per = r.runAll()
    expect(r.shown()).toBe(400)
    expect(per.slice(0, 5)).toEqual([4, 8, 16, 32, 64])
    expect(Math.max(...per)).toBe(REVEAL_MAX_CHARS / 1000)
  })

  it('halves it when frames come late, down to one part', () => {
    const r = rig(Array(60).fill(3000))
    r.frames.frameMs = 100
    const per = r.runAll()
    expect(r.shown()).toBe(60)
    expect(per[0]).toBe(2) // the first frame's REVEAL_START_CHARS: one part of 3,000, then one more
    expect(per.slice(1).every((n) => n === 1)).toBe(true)
    expect(per).toHaveLength(58)
  })

  it('finishes within REVEAL_MAX_FRAMES however late frames come', () => {
    const r = rig(Array(2000).fill(REVEAL_START_CHARS))
    r.frames.frameMs = 1000
    const per = r.runAll()
    expect(r.shown()).toBe(2000)
    expect(per.length).toBeLessThanOrEqual(REVEAL_MAX_FRAMES)
    expect(Math.max(...per)).toBeLessThanOrEqual(Math.ceil(2000 / REVEAL_MAX_FRAMES))
  })

  it('folds at once when fewer parts are wanted, and asks for no frame', async () => {
    const r = rig(Array(50).fill(1000), 50)
    expect(r.shown()).toBe(50)
    r.target.value = 3
    await r.w.vm.$nextTick()
    expect(r.shown()).toBe(3)
    expect(r.frames.queue).toHaveLength(0)
    r.target.value = Infinity
    await r.w.vm.$nextTick()
    expect(r.frames.queue).toHaveLength(1)
    r.w.unmount()
    expect(r.frames.queue).toHaveLength(0) // nothing runs after the message went
  })
})
