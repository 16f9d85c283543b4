// The one stack of modal layers: every dialog (About, Shortcuts, Confirm,
// Search) and side sheet (SidePanel: Settings, Logs, Memory, …) registers
// here while it is open. The stack gives each the same keyboard contract:
//  - Escape closes the topmost layer only (not while an IME composes, and
//    not when a control inside handled it first — a dropdown closing);
//  - Tab and Shift+Tab stay inside a trapping layer (dialogs; a side sheet
//    leaves the top bar usable, so it does not trap);
//  - when a layer closes, focus goes back to what had it when the layer
//    opened, unless the person has put it somewhere else meanwhile;
//  - while any layer is open the window's shortcuts that would act behind
//    it are suppressed (modalOpen(), read by useShortcuts).
// The stack is the window's own state (one document), kept in this module.
import { onBeforeUnmount, onMounted, watch, type Ref } from 'vue'

interface Layer {
  root: () => HTMLElement | null
  close: () => void
  trap: boolean
  escapeBlocked?: () => boolean
  opener: HTMLElement | null
}

const stack: Layer[] = []

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), [contenteditable="true"]'

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => !el.hasAttribute('inert') && !el.closest('[inert]') && el.getClientRects().length > 0,
  )
}

function onKeydown(e: KeyboardEvent) {
  const top = stack[stack.length - 1]
  if (!top || e.defaultPrevented) return
  if (e.key === 'Escape') {
    // Keys of an IME conversion are the IME's (Esc cancels it).
    if (e.isComposing || e.keyCode === 229 || top.escapeBlocked?.()) return
    e.preventDefault()
    e.stopPropagation()
    top.close()
    return
  }
  if (e.key !== 'Tab' || !top.trap) return
  const root = top.root()
  if (!root) return
  const items = focusables(root)
  if (items.length === 0) {
    e.preventDefault()
    return
  }
  const first = items[0]
  const last = items[items.length - 1]
  const active = document.activeElement
  if (!(active instanceof Node) || !root.contains(active)) {
    e.preventDefault()
    ;(e.shiftKey ? last : first).focus()
  } else if (e.shiftKey && active === first) {
    e.preventDefault()
    last.focus()
  } else if (!e.shiftKey && active === last) {
    e.preventDefault()
    first.focus()
  }
}

function push(layer: Layer) {
  if (stack.length === 0) document.addEventListener('keydown', onKeydown)
  stack.push(layer)
}

function remove(layer: Layer) {
  const i = stack.indexOf(layer)
  if (i < 0) return
  stack.splice(i, 1)
  if (stack.length === 0) document.removeEventListener('keydown', onKeydown)
  // Focus goes back to the opener when it is still there and focus has not
  // gone somewhere else (a header button that switched panels keeps it).
  const root = layer.root()
  const active = document.activeElement
  const lost = !active || active === document.body || (root !== null && root.contains(active)) || !active.isConnected
  if (lost && layer.opener?.isConnected) layer.opener.focus()
}

/** Whether any modal layer (dialog or side sheet) is open. */
export const modalOpen = (): boolean => stack.length > 0

/** Whether el is inside an open modal layer. */
export const inModalLayer = (el: Element | null): boolean =>
  !!el && stack.some((l) => l.root()?.contains(el) ?? false)

/** How many layers are open (for tests). */
export const modalDepth = (): number => stack.length

export interface ModalOptions {
  /** The layer's element: Tab stays inside it, focus inside it is "still in the layer". */
  root: Ref<HTMLElement | null>
  /** Closes the layer (Escape when it is the topmost). */
  close: () => void
  /** Whether the layer is open; without it the layer is open while the component is mounted. */
  open?: () => boolean
  /** Keep Tab inside the layer (dialogs; default true). */
  trap?: boolean
  /** Escape is not the layer's right now (e.g. just after an IME composition ended). */
  escapeBlocked?: () => boolean
}

/**
 * Registers the calling component's dialog or side sheet on the modal stack
 * while it is open (see the module's comment for the contract).
 */
export function useModal(opts: ModalOptions): void {
  let layer: Layer | null = null
  const openLayer = () => {
    if (layer) return
    const active = document.activeElement
    layer = {
      root: () => opts.root.value,
      close: opts.close,
      trap: opts.trap ?? true,
      escapeBlocked: opts.escapeBlocked,
      opener: active instanceof HTMLElement && active !== document.body ? active : null,
    }
    push(layer)
  }
  const closeLayer = () => {
    if (!layer) return
    const l = layer
    layer = null
    remove(l)
  }
  if (opts.open) {
    const isOpen = opts.open
    // 'sync': the opener is read before the dialog's own watcher moves focus into it.
    watch(isOpen, (v) => (v ? openLayer() : closeLayer()), { flush: 'sync' })
    onMounted(() => {
      if (isOpen()) openLayer()
    })
  } else {
    onMounted(openLayer)
  }
  onBeforeUnmount(closeLayer)
}
