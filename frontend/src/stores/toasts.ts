import { defineStore } from 'pinia'
import { ref } from 'vue'
import { infoOf, type ErrorInfo } from '@/api/errors'
import { useFatalStore } from './fatal'
import { localizeError, type Translate } from '@/utils/errorText'

export type ToastKind = 'error' | 'info' | 'success'

export interface Toast {
  id: number
  kind: ToastKind
  /** The text as pushed: for an error, the backend's own words (kept for bug reports). */
  message: string
  /** What error() put before the backend's text ("<prefix>: <error>"). */
  prefix?: string
  /** An error toast's error as a value ({code, params}), worded when shown. */
  error?: ErrorInfo
}

/**
 * The text a toast shows: an error in the UI language, worded from its code
 * and params when it is shown (a prefix given to error() stays as it is);
 * other toasts as pushed.
 */
export function toastText(toast: Toast, t: Translate): string {
  if (toast.kind !== 'error' || !toast.error) return toast.message
  const lead = toast.prefix ? `${toast.prefix}: ` : ''
  return lead + localizeError(toast.error, t)
}

/** How long an info or success toast stays, in milliseconds. */
export const TOAST_TIMEOUT_MS = 5000
/** Errors stay longer: until dismissed, or this long. */
export const ERROR_TOAST_TIMEOUT_MS = 8000
/** The most toasts shown at once; the oldest goes first. */
export const MAX_TOASTS = 5

export const timeoutFor = (kind: ToastKind): number =>
  kind === 'error' ? ERROR_TOAST_TIMEOUT_MS : TOAST_TIMEOUT_MS

export const useToastStore = defineStore('toasts', () => {
  const fatal = useFatalStore()
  const toasts = ref<Toast[]>([])
  const timers = new Map<number, ReturnType<typeof setTimeout>>()
  const durations = new Map<number, number>()
  let nextId = 1

  function clearTimer(id: number) {
    const t = timers.get(id)
    if (t !== undefined) clearTimeout(t)
    timers.delete(id)
  }

  function arm(id: number) {
    clearTimer(id)
    const ms = durations.get(id) ?? 0
    if (ms > 0) timers.set(id, setTimeout(() => dismiss(id), ms))
  }

  function dismiss(id: number) {
    clearTimer(id)
    durations.delete(id)
    toasts.value = toasts.value.filter((x) => x.id !== id)
  }

  /** Shows a toast; `timeout` 0 keeps it until dismissed. */
  function push(message: string, kind: ToastKind = 'error', timeout = timeoutFor(kind)): number {
    if (kind !== 'error') return add({ kind, message }, timeout)
    const info = infoOf(message)
    fatal.check(info)
    return add({ kind, message: info.message, error: info }, timeout)
  }

  function add(toast: Omit<Toast, 'id'>, timeout: number): number {
    const id = nextId++
    toasts.value = [...toasts.value, { id, ...toast }]
    // Keep the stack short: the oldest goes first.
    while (toasts.value.length > MAX_TOASTS) dismiss(toasts.value[0].id)
    durations.set(id, timeout)
    arm(id)
    return id
  }

  /** Keeps a toast while the pointer is on it (reading a long error). */
  function hold(id: number) {
    clearTimer(id)
  }

  /** Lets a held toast go: it stays its full time again from now. */
  function release(id: number) {
    if (toasts.value.some((x) => x.id === id)) arm(id)
  }

  /** Shows any thrown value as an error toast (ToastList words it in the UI language). */
  function error(reason: unknown, prefix?: string): number {
    // A damaged database (store.damaged) ends the chat: the error screen.
    const info = infoOf(reason)
    fatal.check(info)
    const msg = info.message || 'unknown error'
    const message = prefix ? `${prefix}: ${msg}` : msg
    return add({ kind: 'error', message, prefix, error: info }, timeoutFor('error'))
  }

  const info = (message: string) => push(message, 'info')
  const success = (message: string) => push(message, 'success')

  return { toasts, push, dismiss, hold, release, error, info, success }
})
