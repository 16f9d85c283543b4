// Sizing of the auto-growing message box.

export interface BoxSize {
  /** Height in px. */
  height: number
  /** The box scrolls only once its content is taller than the maximum. */
  overflowY: 'hidden' | 'auto'
}

/**
 * The size of an auto-growing textarea: one line while it is empty (a long
 * placeholder never makes it grow or show a scrollbar), else the height of
 * its content between `min` and `max`, scrolling only beyond `max`.
 */
export function textareaSize(contentHeight: number, empty: boolean, min: number, max: number): BoxSize {
  if (empty || !Number.isFinite(contentHeight)) return { height: min, overflowY: 'hidden' }
  const h = Math.ceil(contentHeight)
  if (h > max) return { height: max, overflowY: 'auto' }
  return { height: Math.max(min, h), overflowY: 'hidden' }
}

/** Below this width (px) the message box shows the short placeholder. */
export const FULL_PLACEHOLDER_MIN_WIDTH = 400

/** True when a box this wide should show the short placeholder (0 = not laid out yet). */
export function wantsShortPlaceholder(width: number): boolean {
  return width > 0 && width < FULL_PLACEHOLDER_MIN_WIDTH
}
