// Mounts the parts of a long message a few at a time (issue 21), so that
// rendering a 1 MiB reply is spread over many short frames and the window
// keeps taking clicks and keys between them. How much a frame takes adapts
// to how long frames are taking: each frame mounts parts of at most
// `budget` characters together (always at least one part); the budget
// doubles while frames come quickly (up to REVEAL_MAX_CHARS) and halves when
// one came late (the parts it mounted took long to render and lay out — a
// page of formulas costs far more than one of prose — or the machine is
// busy). The frames and the clock come from the FrameScheduler provided
// under REVEAL_FRAMES (tests drive both by hand), else from the browser.
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
    if (lastStep !== null) {
      const gap = now - lastStep
      if (gap <= REVEAL_FAST_MS) budget = Math.min(REVEAL_MAX_CHARS, budget * 2)
      else if (gap > REVEAL_SLOW_MS) budget = Math.max(REVEAL_START_CHARS / 4, Math.floor(budget / 2))
    }
    const want = wanted()
    let n = shown.value
    let chars = 0
    while (n < want && (n === shown.value || chars + o.size(n) <= budget)) {
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
