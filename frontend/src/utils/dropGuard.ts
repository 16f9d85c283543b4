// The window-wide drop guard (issue 21). Whatever is dragged onto the window
// — files or folders from a file manager, text, a link from a browser, or a
// link or a selection dragged inside the page — WebKit's own default for a
// drop that the page does not take is to *load* it: the window navigated to
// the dropped file and the app was gone. So the page takes every drag
// itself, in the capture phase on window (before any element sees it), and
// lets only these through:
//  - a drop zone that accepts the drag: the Knowledge panel (an element
//    styled `--wails-drop-target: drop`) for files and folders — the paths
//    reach Go through Wails' own GTK handler, the page only has to keep the
//    drop;
//  - an editable text field (input, textarea, contenteditable) for a drag
//    that carries text only: the web view inserts the text as usual. Never
//    files, folders or links (they could only land as paths or URLs);
//  - a drag the page itself started (a note tab being reordered): its own
//    handlers decide where it lands; what they do not take is refused at the
//    drop like everything else.
// The UI process refuses any navigation away from the app as well
// (app/webview/guard_linux.go), should a drop ever get past this.

/** What the window does with a drag at one place. */
export type DropDecision =
  /** A drop zone takes it (the page keeps the drop; nothing loads). */
  | 'zone'
  /** An editable field inserts the dragged text (the web view's own behaviour). */
  | 'text'
  /** A drag started in the page, over a place its own handlers may take. */
  | 'page'
  /** Nothing takes it: the drop does nothing. */
  | 'refuse'

/** What the guard knows about a drag at one place. */
export interface DragFacts {
  /** dataTransfer.types (readable during the whole drag; the data is not). */
  types: readonly string[]
  /** The drag started on an element of this page (dragstart was seen). */
  fromPage: boolean
  /** The element under the pointer is in a file drop zone. */
  fileZone: boolean
  /** The element under the pointer is an editable text field. */
  editable: boolean
}

/** The dragged data has files, folders or URIs (file:// or a web link). */
export function carriesFilesOrLinks(types: readonly string[]): boolean {
  return types.some((t) => t === 'Files' || t === 'text/uri-list' || t === 'text/x-moz-url' || t === '_NETSCAPE_URL')
}

/** The dragged data has text (and may have nothing else worth inserting). */
function carriesText(types: readonly string[]): boolean {
  return types.some((t) => t === 'text/plain' || t === 'text' || t.startsWith('text/plain;') || t === 'text/html')
}

/** The decision for one drag event; pure (see DragFacts). */
export function decideDrag(f: DragFacts): DropDecision {
  const linked = carriesFilesOrLinks(f.types)
  if (f.fileZone && !f.fromPage && linked) return 'zone'
  if (f.editable && !linked && carriesText(f.types)) return 'text'
  if (f.fromPage) return 'page'
  return 'refuse'
}

/**
 * The element is a file drop zone or inside one: the nearest element with a
 * `--wails-drop-target` value says "drop" (as Wails checks it; the custom
 * property inherits, so that is usually the element itself, and another
 * value makes a part of a zone refuse).
 */
export function inFileZone(el: Element | null): boolean {
  if (typeof getComputedStyle !== 'function') return false
  for (let n = el; n; n = n.parentElement) {
    const v = getComputedStyle(n).getPropertyValue('--wails-drop-target').trim()
    if (v) return v === 'drop'
  }
  return false
}

const TEXT_INPUTS = new Set(['', 'text', 'search', 'url', 'email', 'tel', 'password', 'number'])

/** The element takes typed text: a text input, a textarea or contenteditable content. */
export function isEditable(el: Element | null): boolean {
  if (!el) return false
  if (el instanceof HTMLTextAreaElement) return !el.disabled && !el.readOnly
  if (el instanceof HTMLInputElement) return TEXT_INPUTS.has(el.type) && !el.disabled && !el.readOnly
  return el instanceof HTMLElement && el.isContentEditable
}

/** The element a drag event is over: its target, or the element under its point. */
function elementOf(e: DragEvent): Element | null {
  if (e.target instanceof Element) return e.target
  if (e.target instanceof Node) return e.target.parentElement
  return null
}

/** The facts of a drag event (fromPage from the guard's own dragstart tracking). */
export function dragFacts(e: DragEvent, fromPage: boolean): DragFacts {
  const el = elementOf(e)
  return {
    types: Array.from(e.dataTransfer?.types ?? []),
    fromPage,
    fileZone: inFileZone(el),
    editable: isEditable(el),
  }
}

/** The outermost element of the file drop zone `el` is in (the one styled `--wails-drop-target: drop`). */
export function zoneRoot(el: Element | null): Element | null {
  if (!inFileZone(el)) return null
  let root = el as Element
  while (root.parentElement && inFileZone(root.parentElement)) root = root.parentElement
  return root
}

/** The class a drop zone has while a drag it takes is over it (KBDropZone shows its hint then). */
export const ZONE_ACTIVE_CLASS = 'wails-drop-target-active'

/**
 * Installs the guard on `target` (the window), once at start: capture-phase
 * listeners on dragstart/dragend (a drag of the page's own), dragenter,
 * dragover, dragleave and drop. Returns the function that removes it.
 */
export function installDropGuard(target: Window = window): () => void {
  let fromPage = false
  // The zone lit while a drag it takes is over it. WebKit sends dragenter
  // (the element entered) before dragleave (the one left), and nothing while
  // the pointer rests: the zone stays lit while more of its elements were
  // entered than left.
  let active: Element | null = null
  let depth = 0
  const light = (zone: Element | null) => {
    if (zone === active) return
    active?.classList.remove(ZONE_ACTIVE_CLASS)
    zone?.classList.add(ZONE_ACTIVE_CLASS)
    active = zone
    depth = 0
  }
  const onStart = () => {
    fromPage = true
  }
  const onEnd = () => {
    fromPage = false
    light(null)
  }
  const take = (e: DragEvent, d: DropDecision) => {
    if (d === 'text') return // the web view shows the caret and inserts the text
    // Taken by the page: WebKit then does nothing of its own with the drag.
    // Outside a drop zone the drop effect is "none", so the drag is refused
    // (the source sees it refused; no drop event follows). A drag of the
    // page's own keeps its effect: its handlers (the note tabs) set theirs.
    e.preventDefault()
    if (e.dataTransfer && d !== 'page') e.dataTransfer.dropEffect = d === 'zone' ? 'copy' : 'none'
  }
  const onEnter = (e: DragEvent) => {
    const d = decideDrag(dragFacts(e, fromPage))
    const zone = d === 'zone' ? zoneRoot(elementOf(e)) : null
    light(zone)
    if (zone) depth++
    take(e, d)
  }
  const onOver = (e: DragEvent) => {
    const d = decideDrag(dragFacts(e, fromPage))
    light(d === 'zone' ? zoneRoot(elementOf(e)) : null)
    if (active) depth = Math.max(depth, 1)
    take(e, d)
  }
  const onLeave = (e: DragEvent) => {
    if (active && active.contains(elementOf(e)) && --depth <= 0) light(null)
  }
  const onDrop = (e: DragEvent) => {
    const d = decideDrag(dragFacts(e, fromPage))
    if (d !== 'text') e.preventDefault()
    fromPage = false
    light(null)
  }
  const opts = { capture: true }
  const listeners: [string, (e: DragEvent) => void][] = [
    ['dragstart', onStart],
    ['dragend', onEnd],
    ['dragenter', onEnter],
    ['dragover', onOver],
    ['dragleave', onLeave],
    ['drop', onDrop],
  ]
  for (const [type, fn] of listeners) target.addEventListener(type, fn as EventListener, opts)
  return () => {
    for (const [type, fn] of listeners) target.removeEventListener(type, fn as EventListener, opts)
    light(null)
  }
}
