// An in-app confirmation dialog (the webview's window.confirm is not reliable
// across platforms). ConfirmDialog.vue renders the state; callers await confirm().
import { reactive } from 'vue'

interface ConfirmState {
  open: boolean
  message: string
  okLabel: string
  danger: boolean
  resolve: ((ok: boolean) => void) | null
}

export const confirmState = reactive<ConfirmState>({
  open: false,
  message: '',
  okLabel: '',
  danger: true,
  resolve: null,
})

export interface ConfirmOptions {
  okLabel?: string
  danger?: boolean
}

/** Asks the user; resolves true on OK, false on cancel (or when another dialog replaces it). */
export function confirm(message: string, opts: ConfirmOptions = {}): Promise<boolean> {
  confirmState.resolve?.(false)
  return new Promise((resolve) => {
    confirmState.message = message
    confirmState.okLabel = opts.okLabel ?? ''
    confirmState.danger = opts.danger ?? true
    confirmState.resolve = resolve
    confirmState.open = true
  })
}

export function answerConfirm(ok: boolean) {
  const r = confirmState.resolve
  confirmState.open = false
  confirmState.resolve = null
  r?.(ok)
}
