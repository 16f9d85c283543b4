// Mounts the parts of a long message a few at a time (issue 21), so that
// rendering a 1 MiB reply is spread over many short frames and the window
// keeps taking clicks and keys between them. How much a frame takes adapts
// to how long frames are taking: each frame mounts parts until they add up
// to `budget` characters (always at least one part; the last one may go
// past it); the budget
// doubles while frames come quickly (up to REVEAL_MAX_CHARS) and halves when
// one came late (the parts it mounted took long to render and lay out — a
// page of formulas costs far more than one of prose — or the machine is
// busy). It never falls below a REVEAL_MAX_FRAMES-th of what is left when
// the reveal starts, so the whole message is there after that many frames
// even on a machine too busy for any frame to be quick. The frames and the
// clock come from the FrameScheduler provided under REVEAL_FRAMES (tests
// drive both by hand), else from the browser.
import { computed, inject, onBeforeUnmount, ref, watch, type ComputedRef, type InjectionKey, type Ref } from 'vue'
import { browserScheduler, FRAME_FALLBACK_MS, type FrameScheduler } from '@/utils/frameBatcher'

/** The scheduler the reveal waits for frames with, and its clock (provided by tests). */
export const REVEAL_FRAMES: InjectionKey<RevealScheduler> = Symbol('reveal-frames')

/** A FrameScheduler with a clock in milliseconds. */
export interface RevealScheduler extends FrameScheduler {
  now(): number
}

/** The first frame's budget, in characters of Markdown. */
export const REVEAL_START_CHARS = 4_000
/** The budget never grows past this. */
export const REVEAL_MAX_CHARS = 64_000
/** The reveal of a whole message takes at most about this many frames. */
export const REVEAL_MAX_FRAMES = 240
/** A frame that came within this many ms of the last one lets the budget double … */
export const REVEAL_FAST_MS = 24
/** … and one that came later than this halves it. */
export const REVEAL_SLOW_MS = 48

const browserReveal: RevealScheduler = { ...browserScheduler, now: () => performance.now() }

export interface RevealOptions {
  /** How many parts there are now. */
  count: () => number
  /** How many are wanted: all of them, or the first few of a collapsed message. */
  target: () => number
  /** The size of part i, in characters. */
  size: (i: number) => number
  /** How many parts to mount at once, before any frame (what the user sees first). */
  initial: () => number
}

export interface Reveal {
  /** How many parts are mounted. */
  shown: Ref<number>
  /** More parts are wanted than are mounted: frames are still to come. */
  revealing: ComputedRef<boolean>
}

export function useReveal(o: RevealOptions): Reveal {
  const frames = inject(REVEAL_FRAMES, browserReveal)
  const shown = ref(Math.min(o.initial(), o.target(), o.count()))
  const wanted = () => Math.min(o.target(), o.count())
  let budget = REVEAL_START_CHARS
  /** The least a frame takes: what was left when the reveal began, over REVEAL_MAX_FRAMES. */
  let floor = REVEAL_START_CHARS / 4
  /** When the last frame mounted parts (null: none since the reveal began). */
  let lastStep: number | null = null
  let cancels: (() => void)[] = []
  const unschedule = () => {
    for (const c of cancels) c()
    cancels = []
  }
  const step = () => {
    unschedule()
    const now = frames.now()
    const want = wanted()
    if (lastStep === null) {
      let left = 0
      for (let i = shown.value; i < want; i++) left += o.size(i)
      floor = Math.max(REVEAL_START_CHARS / 4, Math.ceil(left / REVEAL_MAX_FRAMES))
      budget = Math.max(budget, floor)
    } else {
      const gap = now - lastStep
      if (gap <= REVEAL_FAST_MS) budget = Math.min(Math.max(REVEAL_MAX_CHARS, floor), budget * 2)
      else if (gap > REVEAL_SLOW_MS) budget = Math.max(floor, Math.floor(budget / 2))
    }
    let n = shown.value
    let chars = 0
    while (n < want && chars < budget) {
      chars += o.size(n)
      n++
    }
    shown.value = n
    lastStep = now
    schedule()
  }
  const schedule = () => {
    if (cancels.length) return
    if (shown.value >= wanted()) {
      lastStep = null // the next reveal starts afresh
      return
    }
    // A frame, or a timer when frames do not come (a hidden window).
    const f = frames.frame(step)
    if (shown.value >= wanted()) return
    cancels = [f, frames.timeout(step, FRAME_FALLBACK_MS)]
  }
  watch(
    wanted,
    (want) => {
      if (shown.value > want) {
        unschedule()
        shown.value = want // folding is immediate
      }
      schedule()
    },
    { immediate: true },
  )
  onBeforeUnmount(unschedule)
  return { shown, revealing: computed(() => shown.value < wanted()) }
}
