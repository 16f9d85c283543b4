// Mounts the parts of a long message a few at a time (issue 21): each
// animation frame takes parts until about REVEAL_CHARS_PER_FRAME characters
// of them (always at least one), so rendering a 1 MiB reply is spread over
// many short frames and the window keeps taking clicks and keys between
// them. The frames come from the FrameScheduler provided under REVEAL_FRAMES
// (tests drive them by hand), else from the browser.
import { computed, inject, onBeforeUnmount, ref, watch, type ComputedRef, type InjectionKey, type Ref } from 'vue'
import { browserScheduler, FRAME_FALLBACK_MS, type FrameScheduler } from '@/utils/frameBatcher'

/** The scheduler the reveal waits for frames with (provided by tests). */
export const REVEAL_FRAMES: InjectionKey<FrameScheduler> = Symbol('reveal-frames')

/** About how many characters of Markdown one frame renders. */
export const REVEAL_CHARS_PER_FRAME = 12_000

export interface RevealOptions {
  /** How many parts there are now. */
  count: () => number
  /** How many are wanted: all of them, or the first few of a collapsed message. */
  target: () => number
  /** The size of part i, in characters. */
  size: (i: number) => number
  /** How many parts to mount at once, before any frame (the first part the user sees). */
  initial: () => number
}

export interface Reveal {
  /** How many parts are mounted. */
  shown: Ref<number>
  /** More parts are wanted than are mounted: frames are still to come. */
  revealing: ComputedRef<boolean>
}

export function useReveal(o: RevealOptions): Reveal {
  const frames = inject(REVEAL_FRAMES, browserScheduler)
  const shown = ref(Math.min(o.initial(), o.target(), o.count()))
  const wanted = () => Math.min(o.target(), o.count())
  let cancels: (() => void)[] = []
  const unschedule = () => {
    for (const c of cancels) c()
    cancels = []
  }
  const step = () => {
    unschedule()
    const want = wanted()
    let n = shown.value
    let chars = 0
    while (n < want && (n === shown.value || chars + o.size(n) <= REVEAL_CHARS_PER_FRAME)) {
      chars += o.size(n)
      n++
    }
    shown.value = n
    schedule()
  }
  const schedule = () => {
    if (cancels.length || shown.value >= wanted()) return
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
        shown.value = want // collapsing is immediate
      }
      schedule()
    },
    { immediate: true },
  )
  onBeforeUnmount(unschedule)
  return { shown, revealing: computed(() => shown.value < wanted()) }
}
