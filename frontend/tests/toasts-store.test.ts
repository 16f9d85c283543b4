import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { toError } from '@/api/errors'
import ToastList from '@/components/common/ToastList.vue'
import { ERROR_TOAST_TIMEOUT_MS, TOAST_TIMEOUT_MS, useToastStore } from '@/stores/toasts'
import { testI18n } from './helpers'

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
    toasts.push('first', 'info')
    vi.advanceTimersByTime(TOAST_TIMEOUT_MS / 2)
    toasts.push('second', 'success')
    expect(toasts.toasts.map((t) => t.message)).toEqual(['first', 'second'])
    vi.advanceTimersByTime(TOAST_TIMEOUT_MS / 2)
    expect(toasts.toasts.map((t) => t.message)).toEqual(['second'])
    vi.advanceTimersByTime(TOAST_TIMEOUT_MS / 2)
    expect(toasts.toasts).toEqual([])
  })

  it('keeps errors about 8 s, or until dismissed', () => {
    const toasts = useToastStore()
    expect(ERROR_TOAST_TIMEOUT_MS).toBe(8000)
    toasts.error('offline')
    vi.advanceTimersByTime(ERROR_TOAST_TIMEOUT_MS - 1)
    expect(toasts.toasts).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(toasts.toasts).toEqual([])
  })

  it('keeps a toast while the pointer is on it, then its full time again', () => {
    const toasts = useToastStore()
    const id = toasts.error('a long error to read')
    vi.advanceTimersByTime(ERROR_TOAST_TIMEOUT_MS - 100)
    toasts.hold(id)
    vi.advanceTimersByTime(60_000)
    expect(toasts.toasts).toHaveLength(1)
    toasts.release(id)
    vi.advanceTimersByTime(ERROR_TOAST_TIMEOUT_MS - 1)
    expect(toasts.toasts).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(toasts.toasts).toEqual([])
    toasts.release(id) // gone: nothing is re-armed
    expect(vi.getTimerCount()).toBe(0)
  })

  it('keeps a toast pushed with timeout 0 until dismissed', () => {
    const toasts = useToastStore()
    const id = toasts.push('sticky', 'error', 0)
    vi.advanceTimersByTime(600_000)
    expect(toasts.toasts).toHaveLength(1)
    toasts.dismiss(id)
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

describe('ToastList', () => {
  it('stacks the newest last (nearest the message box), holds on hover and dismisses on click', async () => {
    const toasts = useToastStore()
    const w = mount(ToastList, { global: { plugins: [testI18n()] } })
    toasts.info('saved')
    toasts.error('offline')
    await w.vm.$nextTick()
    const items = w.findAll('[data-testid="toast"]')
    expect(items.map((x) => x.get('.text').text())).toEqual(['saved', 'offline'])
    expect(items[1].attributes('role')).toBe('alert')
    await items[1].trigger('mouseenter')
    vi.advanceTimersByTime(ERROR_TOAST_TIMEOUT_MS * 2)
    await w.vm.$nextTick()
    expect(toasts.toasts.map((x) => x.message)).toEqual(['offline']) // the info went, the hovered error stays
    await w.get('[data-testid="toast"]').trigger('click')
    expect(toasts.toasts).toEqual([])
  })

  it('shows a backend error in the UI language, with the original words in the tooltip', async () => {
    const toasts = useToastStore()
    const w = mount(ToastList, { global: { plugins: [testI18n('ja')] } })
    // as the adapters rethrow the backend's {code, params, message}
    toasts.error(toError({ code: 'llm.providerStatus', params: { status: 429, detail: 'Rate limit reached' }, message: 'provider returned 429: Rate limit reached' }))
    toasts.error(toError({ code: 'app.starting', message: 'playchat is still starting' }), '起動時の読み込みに失敗しました')
    toasts.info('provider returned 429: an info toast is shown as pushed')
    await w.vm.$nextTick()
    const texts = w.findAll('[data-testid="toast-text"]')
    expect(texts.map((x) => x.text())).toEqual([
      'モデルのサーバーがエラーを返しました（429）: Rate limit reached\n利用の上限（レート制限）に達しました。しばらく待ってからもう一度試してください。',
      '起動時の読み込みに失敗しました: playchat はまだ起動中です。少し待ってからもう一度試してください',
      'provider returned 429: an info toast is shown as pushed',
    ])
    expect(texts[0].attributes('title')).toBe('provider returned 429: Rate limit reached')
    expect(texts[1].attributes('title')).toBe('起動時の読み込みに失敗しました: playchat is still starting')
    expect(texts[2].attributes('title')).toBeUndefined()
    // the store keeps the backend's words, for bug reports
    expect(toasts.toasts[0].message).toBe('provider returned 429: Rate limit reached')
  })
})
