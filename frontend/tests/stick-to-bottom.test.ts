import { describe, expect, it } from 'vitest'
import { StickToBottom } from '@/composables/stickToBottom'

describe('StickToBottom', () => {
  it('keeps following when content grew before the scroll event arrived', () => {
    const s = new StickToBottom()
    // The program scrolled to the end of 10,000 px of content …
    s.scrolledToEnd(10000 - 600)
    // … and 900 px more streamed in before the event was delivered
    // (the flood case of issue 21's CI run: the view stopped at paragraph 165).
    expect(s.onScroll({ scrollTop: 9400, scrollHeight: 10900, clientHeight: 600 })).toBe(true)
  })

  it('stops following when the user scrolls up, and follows again at the end', () => {
    const s = new StickToBottom()
    s.scrolledToEnd(9400)
    expect(s.onScroll({ scrollTop: 9000, scrollHeight: 10000, clientHeight: 600 })).toBe(false)
    // content growing while the user reads does not bring them back
    expect(s.onScroll({ scrollTop: 9000, scrollHeight: 12000, clientHeight: 600 })).toBe(false)
    // scrolling down but not to the end keeps them unstuck
    expect(s.onScroll({ scrollTop: 10000, scrollHeight: 12000, clientHeight: 600 })).toBe(false)
    expect(s.onScroll({ scrollTop: 11380, scrollHeight: 12000, clientHeight: 600 })).toBe(true)
  })

  it('a small upward move near the end stays stuck', () => {
    const s = new StickToBottom()
    s.scrolledToEnd(9400)
    expect(s.onScroll({ scrollTop: 9370, scrollHeight: 10000, clientHeight: 600 })).toBe(true)
  })

  it('a kept place above the end is not a user scroll', () => {
    const s = new StickToBottom()
    s.onScroll({ scrollTop: 5000, scrollHeight: 12000, clientHeight: 600 })
    expect(s.stuck).toBe(true) // moved down: no intent to leave the end was shown
    s.scrolledToEnd(11400)
    s.onScroll({ scrollTop: 3000, scrollHeight: 12000, clientHeight: 600 })
    expect(s.stuck).toBe(false)
    s.movedTo(8000) // "show earlier" keeps the place: scrollTop grows
    expect(s.onScroll({ scrollTop: 8000, scrollHeight: 17000, clientHeight: 600 })).toBe(false)
  })
})
