// Whether a scrolling chat follows new content. The rule reads the user's
// intent from the direction of scrolling, never from the distance alone: a
// scroll event that arrives after the content grew again (a streamed reply
// under load grows by hundreds of pixels between the program's scroll and
// its event) still leaves scrollTop where the program put it, so it must
// not count as "the user scrolled up".

/** Within this many pixels of the end the view counts as at the bottom. */
export const STICK_PX = 48

/** The numbers one scroll event carries, in CSS pixels. */
export interface ScrollMetrics {
  scrollTop: number
  scrollHeight: number
  clientHeight: number
}

/**
 * Follows the rule above: stuck → unstuck only when scrollTop moved up
 * (by more than one pixel, for rounding) and the view is no longer near the
 * end; unstuck → stuck whenever the view is near the end.
 */
export class StickToBottom {
  private lastTop = 0
  stuck = true

  /** Records a scroll event; returns whether the view follows new content. */
  onScroll(m: ScrollMetrics): boolean {
    const distance = m.scrollHeight - m.scrollTop - m.clientHeight
    if (distance < STICK_PX) this.stuck = true
    else if (m.scrollTop < this.lastTop - 1) this.stuck = false
    this.lastTop = m.scrollTop
    return this.stuck
  }

  /** Records a scroll the program made to the end (top is the new scrollTop). */
  scrolledToEnd(top: number): void {
    this.lastTop = top
    this.stuck = true
  }

  /** Records a scroll the program made that keeps the user's place (not the end). */
  movedTo(top: number): void {
    this.lastTop = top
  }
}
