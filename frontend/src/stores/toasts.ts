import { defineStore } from 'pinia'
import { ref } from 'vue'
import { errorMessage } from '@/api/errors'

export type ToastKind = 'error' | 'info' | 'success'

export interface Toast {
  id: number
  kind: ToastKind
  message: string
}

/** How long a toast stays, in milliseconds. */
export const TOAST_TIMEOUT_MS = 6000

export const useToastStore = defineStore('toasts', () => {
  const toasts = ref<Toast[]>([])
  const timers = new Map<number, ReturnType<typeof setTimeout>>()
  let nextId = 1

  function dismiss(id: number) {
    const t = timers.get(id)
    if (t !== undefined) clearTimeout(t)
    timers.delete(id)
    toasts.value = toasts.value.filter((x) => x.id !== id)
  }

  function push(message: string, kind: ToastKind = 'error', timeout = TOAST_TIMEOUT_MS): number {
    const id = nextId++
    toasts.value = [...toasts.value, { id, kind, message }]
    // Keep the stack short: the oldest goes first.
    if (toasts.value.length > 5) dismiss(toasts.value[0].id)
    if (timeout > 0) timers.set(id, setTimeout(() => dismiss(id), timeout))
    return id
  }

  /** Shows any thrown value as an error toast. */
  function error(reason: unknown, prefix?: string): number {
    const msg = errorMessage(reason)
    return push(prefix ? `${prefix}: ${msg}` : msg, 'error')
  }

  const info = (message: string) => push(message, 'info')
  const success = (message: string) => push(message, 'success')

  return { toasts, push, dismiss, error, info, success }
})
