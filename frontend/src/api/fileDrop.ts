// The window's one file drop (Wails' OnFileDrop: files and folders dropped
// from a file manager on an element styled `--wails-drop-target: drop`; the
// paths reach Go through Wails' own GTK handler). Wails keeps one listener,
// and two places take drops: the Knowledge panel (KBDropZone) and the
// message box (issue 25). This registry listens once and gives each drop to
// the place it landed on, by the drop's point: the zone whose `owns` says
// yes for the element there. Nothing else of a drop changes (the window
// guard, utils/dropGuard.ts, still keeps every drop from loading).
import { OnFileDrop, OnFileDropOff } from '../../wailsjs/runtime/runtime'

/** One place that takes dropped files. */
interface Zone {
  /** The element under the drop's point is this zone's. */
  owns: (el: Element | null) => boolean
  take: (paths: string[]) => void
}

const zones: Zone[] = []
let listening = false

/** The element at a drop's point (null outside the page, or without a DOM). */
function elementAt(x: number, y: number): Element | null {
  if (typeof document === 'undefined' || typeof document.elementFromPoint !== 'function') return null
  return document.elementFromPoint(x, y)
}

/** Gives a drop to the zone it landed on: the last registered that owns its point. */
export function dispatchDrop(x: number, y: number, paths: string[]): void {
  const el = elementAt(x, y)
  for (let i = zones.length - 1; i >= 0; i--) {
    if (zones[i].owns(el)) {
      zones[i].take(paths ?? [])
      return
    }
  }
}

function listen() {
  if (listening) return
  try {
    OnFileDrop((x: number, y: number, paths: string[]) => dispatchDrop(x, y, paths ?? []), true)
    listening = true
  } catch {
    // outside the Wails window (a plain browser) there is no file drop
  }
}

function unlisten() {
  if (!listening || zones.length) return
  listening = false
  try {
    OnFileDropOff()
  } catch {
    // the runtime is gone (the window is closing)
  }
}

/** Takes the files dropped where `owns` says; returns the function that stops. */
export function onFileDropIn(owns: (el: Element | null) => boolean, take: (paths: string[]) => void): () => void {
  const zone: Zone = { owns, take }
  zones.push(zone)
  listen()
  return () => {
    const i = zones.indexOf(zone)
    if (i >= 0) zones.splice(i, 1)
    unlisten()
  }
}

/** The attribute that marks the message box's drop zone. */
export const MESSAGE_DROP_ZONE = 'data-message-drop'

/** The element is in the message box's drop zone. */
export const inMessageZone = (el: Element | null): boolean => !!el?.closest?.(`[${MESSAGE_DROP_ZONE}]`)
