// The window's keyboard shortcuts, installed once (App.vue):
//   Ctrl+N new chat · Ctrl+K search all chats · Esc stop the reply being
//   written (when no dialog or side panel is open to take it) ·
//   Ctrl+Shift+C copy the last reply · Ctrl+, Settings ·
//   ? (outside text boxes) the shortcuts sheet.
// (⌘ works for Ctrl on macOS.) Up in an empty message box edits the last
// message; the message box handles that one itself.
//
// Nothing fires while an IME is composing: the keydown says so (isComposing,
// keyCode 229), and since WebKit ends the composition just BEFORE the key
// that ends it, a key within COMPOSITION_GRACE_MS after compositionend is
// the IME's too (see utils/ime.ts).
import { onBeforeUnmount, onMounted } from 'vue'
import { useI18n } from 'vue-i18n'
import { copyText } from '@/api/clipboard'
import { useChatStore } from '@/stores/chat'
import { useSearchStore } from '@/stores/search'
import { useSessionStore } from '@/stores/sessions'
import { useToastStore } from '@/stores/toasts'
import { inModalLayer, modalOpen } from './useModal'
import { COMPOSITION_GRACE_MS } from '@/utils/ime'

export type Shortcut = 'newChat' | 'search' | 'stop' | 'copyLast' | 'settings' | 'sheet'

/** The shortcuts as the sheet lists them: i18n key under shortcuts.*, and the keys. */
export const SHORTCUT_LIST: { id: Shortcut | 'editLast'; keys: string[] }[] = [
  { id: 'newChat', keys: ['Ctrl', 'N'] },
  { id: 'search', keys: ['Ctrl', 'K'] },
  { id: 'stop', keys: ['Esc'] },
  { id: 'copyLast', keys: ['Ctrl', 'Shift', 'C'] },
  { id: 'editLast', keys: ['↑'] },
  { id: 'settings', keys: ['Ctrl', ','] },
  { id: 'sheet', keys: ['?'] },
]

/** The parts of a keydown the decision reads. */
export interface ShortcutKey {
  key: string
  code?: string
  keyCode?: number
  isComposing?: boolean
  ctrlKey?: boolean
  metaKey?: boolean
  shiftKey?: boolean
  altKey?: boolean
  defaultPrevented?: boolean
  target?: EventTarget | null
}

function isTextField(el: Element | null): boolean {
  if (!el) return false
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true
  if (el instanceof HTMLInputElement) {
    return !['button', 'checkbox', 'radio', 'range', 'submit', 'reset', 'color', 'file'].includes(el.type)
  }
  return el instanceof HTMLElement && el.isContentEditable
}

// Popovers (the context meter, the model list, an image's preview) are
// dialogs that are not modal layers: focus inside one keeps its keys too.
const POPOVERS = '[role="dialog"], [role="alertdialog"]'
/** Focus is in a modal layer (the modal stack, useModal.ts) or a popover. */
const inModal = (el: Element | null) => inModalLayer(el) || !!el?.closest(POPOVERS)
/** The message box at the bottom of the chat (Esc there stops the reply). */
const isMessageBox = (el: Element | null) => !!el?.closest('[data-testid="message-input"]')

/**
 * The shortcut a keydown asks for, or null. composing is true while (or just
 * after) an IME composition.
 */
export function matchShortcut(e: ShortcutKey, composing: boolean): Shortcut | null {
  if (composing || e.isComposing || e.keyCode === 229 || e.key === 'Process') return null
  const target = e.target instanceof Element ? e.target : null
  const mod = (e.ctrlKey || e.metaKey) && !e.altKey
  const letter = e.code?.startsWith('Key') ? e.code.slice(3).toLowerCase() : e.key.toLowerCase()
  if (mod) {
    if (e.shiftKey) return letter === 'c' ? 'copyLast' : null
    if (letter === 'k') return 'search'
    if (inModal(target)) return null
    // A new chat behind an open panel or dialog would change what is under
    // it without the person seeing it: not while one is open, wherever the
    // focus is.
    if (letter === 'n') return modalOpen() ? null : 'newChat'
    if (e.key === ',' || e.code === 'Comma') return 'settings'
    return null
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return null
  if (e.key === 'Escape') {
    // A dialog or side panel takes Esc first (it closes); so does a text
    // box other than the message box (an inline editor cancels).
    if (e.defaultPrevented || modalOpen() || inModal(target) || document.querySelector(POPOVERS)) return null
    if (isTextField(target) && !isMessageBox(target)) return null
    return 'stop'
  }
  if (e.key === '?' && !isTextField(target) && !inModal(target)) return 'sheet'
  return null
}

/** The text of the newest finished reply among messages, or "". */
export function lastReplyText(messages: { role: string; content: string; pending?: boolean }[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]
    if (m.role === 'assistant' && !m.pending && m.content.trim()) return m.content
  }
  return ''
}

export interface ShortcutHooks {
  /** Opens the Settings panel. */
  openSettings(): void
  /** Opens the shortcuts sheet. */
  openSheet(): void
  /** Puts the keyboard in the message box (after Ctrl+N). */
  focusInput(): void
}

/** Listens for the shortcuts on the document while the component is mounted. */
export function useShortcuts(hooks: ShortcutHooks, now: () => number = () => Date.now()) {
  const { t } = useI18n()
  const chat = useChatStore()
  const sessions = useSessionStore()
  const search = useSearchStore()
  const toasts = useToastStore()
  let composing = false
  let endedAt = -Infinity

  async function copyLast() {
    const text = lastReplyText(chat.messages)
    if (!text) {
      toasts.push(t('shortcuts.nothingToCopy'), 'info')
      return
    }
    try {
      await copyText(text)
      toasts.push(t('shortcuts.copied'), 'success')
    } catch (e) {
      toasts.error(e, t('shortcuts.copyFailed'))
    }
  }

  function run(s: Shortcut) {
    switch (s) {
      case 'newChat':
        search.close()
        sessions.startDraft()
        hooks.focusInput()
        return
      case 'search':
        if (search.open) search.close()
        else search.show()
        return
      case 'stop':
        void chat.stop()
        return
      case 'copyLast':
        void copyLast()
        return
      case 'settings':
        search.close()
        hooks.openSettings()
        return
      case 'sheet':
        hooks.openSheet()
    }
  }

  function onKeydown(e: KeyboardEvent) {
    const s = matchShortcut(e, composing || now() - endedAt < COMPOSITION_GRACE_MS)
    if (!s) return
    // Esc is the stop key only while a reply is being written; otherwise it
    // stays with whatever else uses it.
    if (s === 'stop' && !chat.isStreaming) return
    e.preventDefault()
    run(s)
  }
  const onStart = () => {
    composing = true
  }
  const onEnd = () => {
    composing = false
    endedAt = now()
  }

  onMounted(() => {
    document.addEventListener('keydown', onKeydown)
    document.addEventListener('compositionstart', onStart, true)
    document.addEventListener('compositionend', onEnd, true)
  })
  onBeforeUnmount(() => {
    document.removeEventListener('keydown', onKeydown)
    document.removeEventListener('compositionstart', onStart, true)
    document.removeEventListener('compositionend', onEnd, true)
  })
}
