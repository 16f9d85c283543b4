import { describe, expect, it } from 'vitest'
import { COMPOSITION_GRACE_MS, createImeGuard } from '@/utils/ime'

function clock(start = 1000) {
  let t = start
  return { now: () => t, advance: (ms: number) => (t += ms) }
}

describe('IME guard', () => {
  it('sends on a plain Enter', () => {
    expect(createImeGuard().shouldSend({ key: 'Enter', keyCode: 13 })).toBe(true)
  })

  it('does not send on Shift+Enter, Alt+Enter or other keys', () => {
    const g = createImeGuard()
    expect(g.shouldSend({ key: 'Enter', shiftKey: true })).toBe(false)
    expect(g.shouldSend({ key: 'Enter', altKey: true })).toBe(false)
    expect(g.shouldSend({ key: 'a' })).toBe(false)
  })

  it('does not send while the event says it is composing (Chromium, Firefox)', () => {
    const g = createImeGuard()
    expect(g.shouldSend({ key: 'Enter', isComposing: true, keyCode: 229 })).toBe(false)
    expect(g.shouldSend({ key: 'Enter', keyCode: 229 })).toBe(false)
    expect(g.shouldSend({ key: 'Enter', isComposing: true })).toBe(false)
  })

  it('does not send between compositionstart and compositionend', () => {
    const g = createImeGuard()
    g.compositionStart()
    expect(g.composing).toBe(true)
    expect(g.shouldSend({ key: 'Enter', keyCode: 13 })).toBe(false)
  })

  it('ignores the Enter right after compositionend (WebKit order), then sends later', () => {
    const c = clock()
    const g = createImeGuard(c.now)
    g.compositionStart()
    g.compositionEnd()
    c.advance(5)
    const confirming = { key: 'Enter', keyCode: 13, isComposing: false }
    expect(g.shouldSend(confirming)).toBe(false)
    expect(g.isImeEnter(confirming)).toBe(true)
    c.advance(COMPOSITION_GRACE_MS + 200)
    expect(g.shouldSend({ key: 'Enter', keyCode: 13 })).toBe(true)
  })
})
