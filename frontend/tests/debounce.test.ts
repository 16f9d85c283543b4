import { mount } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { useWindowFocus } from '@/composables/useWindowFocus'
import { debounce } from '@/utils/debounce'

describe('debounce', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('runs once, after the last request of a burst', () => {
    const fn = vi.fn()
    const d = debounce(fn, 300)
    d()
    vi.advanceTimersByTime(200)
    d()
    vi.advanceTimersByTime(200)
    d()
    expect(fn).not.toHaveBeenCalled()
    expect(d.pending).toBe(true)
    vi.advanceTimersByTime(300)
    expect(fn).toHaveBeenCalledTimes(1)
    expect(d.pending).toBe(false)
    d()
    vi.advanceTimersByTime(300)
    expect(fn).toHaveBeenCalledTimes(2)
  })

  it('can be cancelled', () => {
    const fn = vi.fn()
    const d = debounce(fn, 300)
    d()
    d.cancel()
    vi.advanceTimersByTime(1000)
    expect(fn).not.toHaveBeenCalled()
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('useWindowFocus', () => {
  it('calls back on window focus and when the page becomes visible, until unmounted', () => {
    const cb = vi.fn()
    const w = mount(defineComponent({ setup: () => (useWindowFocus(cb), () => h('div')) }))
    window.dispatchEvent(new Event('focus'))
    expect(cb).toHaveBeenCalledTimes(1)
    let state: DocumentVisibilityState = 'hidden'
    const spy = vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => state)
    document.dispatchEvent(new Event('visibilitychange'))
    expect(cb).toHaveBeenCalledTimes(1) // hidden: nothing
    state = 'visible'
    document.dispatchEvent(new Event('visibilitychange'))
    expect(cb).toHaveBeenCalledTimes(2)
    w.unmount()
    window.dispatchEvent(new Event('focus'))
    document.dispatchEvent(new Event('visibilitychange'))
    expect(cb).toHaveBeenCalledTimes(2)
    spy.mockRestore()
  })
})
