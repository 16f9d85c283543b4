import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TOAST_TIMEOUT_MS, useToastStore } from '@/stores/toasts'

beforeEach(() => {
  setActivePinia(createPinia())
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('toasts store', () => {
  it('dismisses a toast by itself after the timeout', () => {
    const toasts = useToastStore()
    toasts.push('first')
    vi.advanceTimersByTime(TOAST_TIMEOUT_MS / 2)
    toasts.push('second')
    expect(toasts.toasts.map((t) => t.message)).toEqual(['first', 'second'])
    vi.advanceTimersByTime(TOAST_TIMEOUT_MS / 2)
    expect(toasts.toasts.map((t) => t.message)).toEqual(['second'])
    vi.advanceTimersByTime(TOAST_TIMEOUT_MS / 2)
    expect(toasts.toasts).toEqual([])
  })

  it('dismisses on demand and clears the timer', () => {
    const toasts = useToastStore()
    const id = toasts.push('click me')
    toasts.dismiss(id)
    expect(toasts.toasts).toEqual([])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('shows thrown strings and Errors alike', () => {
    const toasts = useToastStore()
    toasts.error('plain string from Go')
    toasts.error(new Error('an Error'), 'Save')
    expect(toasts.toasts.map((t) => [t.kind, t.message])).toEqual([
      ['error', 'plain string from Go'],
      ['error', 'Save: an Error'],
    ])
  })

  it('keeps at most five toasts', () => {
    const toasts = useToastStore()
    for (let i = 0; i < 7; i++) toasts.push('t' + i)
    expect(toasts.toasts.map((t) => t.message)).toEqual(['t2', 't3', 't4', 't5', 't6'])
  })
})
