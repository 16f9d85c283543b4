// Tells a component whether its element is on screen or close to it inside a
// scrolling container, so long chats can keep rendered Markdown only where
// the user can see it. One IntersectionObserver per container serves all of
// its elements; each element is unobserved when its component unmounts, so
// nothing outlives the message it was made for.
import { inject, onBeforeUnmount, onMounted, ref, type InjectionKey, type Ref } from 'vue'

/** The scrolling element the chat window provides to its messages. */
export const SCROLL_ROOT: InjectionKey<Ref<HTMLElement | null>> = Symbol('scroll-root')

/** How far outside the visible area (pixels, above and below) still counts as near. */
export const NEAR_MARGIN_PX = 1200

type Listener = (near: boolean) => void

interface Shared {
  io: IntersectionObserver
  listeners: Map<Element, Listener>
}

const observers = new WeakMap<Element, Shared>()

function sharedFor(root: HTMLElement): Shared {
  let s = observers.get(root)
  if (s) return s
  const listeners = new Map<Element, Listener>()
  const io = new IntersectionObserver(
    (entries) => {
      for (const e of entries) listeners.get(e.target)?.(e.isIntersecting)
    },
    { root, rootMargin: `${NEAR_MARGIN_PX}px 0px` },
  )
  s = { io, listeners }
  observers.set(root, s)
  return s
}

/** How many elements are observed under root now (tests: nothing is left behind). */
export function observedCount(root: HTMLElement): number {
  return observers.get(root)?.listeners.size ?? 0
}

/**
 * A ref that is true while el is within NEAR_MARGIN_PX of the provided
 * scroll root's visible area. Without a root or IntersectionObserver (tests,
 * old engines) everything counts as near. onChange runs before the ref moves.
 * `initial` is the value until the observer first reports (default: not
 * near where there is an observer).
 */
export function useNearViewport(el: Ref<HTMLElement | null>, onChange?: Listener, initial?: boolean): Ref<boolean> {
  const root = inject(SCROLL_ROOT, null)
  const supported = typeof IntersectionObserver === 'function'
  const near = ref(!supported || !root || !!initial)
  let cleanup: (() => void) | null = null

  onMounted(() => {
    const target = el.value
    const r = root?.value
    if (!supported || !target || !r) {
      near.value = true
      return
    }
    const s = sharedFor(r)
    s.listeners.set(target, (v) => {
      if (v === near.value) return
      onChange?.(v)
      near.value = v
    })
    s.io.observe(target)
    cleanup = () => {
      s.io.unobserve(target)
      s.listeners.delete(target)
    }
  })
  onBeforeUnmount(() => {
    cleanup?.()
    cleanup = null
  })
  return near
}
