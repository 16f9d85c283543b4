import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { lastReplyText, matchShortcut, useShortcuts } from '@/composables/useShortcuts'
import { useChatStore, type Turn } from '@/stores/chat'
import { useSearchStore } from '@/stores/search'
import { useSessionStore } from '@/stores/sessions'
import { useToastStore } from '@/stores/toasts'
import { draftMessage, fromStored } from '@/utils/turn'
import { flush, keydown, testI18n } from './helpers'

vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn(), ClipboardSetText: vi.fn() }))
const copyText = vi.fn(async (_text: string) => {})
vi.mock('@/api/clipboard', () => ({ copyText: (t: string) => copyText(t) }))

beforeEach(() => {
  setActivePinia(createPinia())
  copyText.mockClear()
  document.body.innerHTML = ''
})

const key = (init: KeyboardEventInit & { keyCode?: number }) => keydown(init)

describe('matchShortcut', () => {
  it('maps each shortcut', () => {
    expect(matchShortcut(key({ key: 'n', code: 'KeyN', ctrlKey: true }), false)).toBe('newChat')
    expect(matchShortcut(key({ key: 'k', code: 'KeyK', metaKey: true }), false)).toBe('search')
    expect(matchShortcut(key({ key: 'C', code: 'KeyC', ctrlKey: true, shiftKey: true }), false)).toBe('copyLast')
    expect(matchShortcut(key({ key: ',', code: 'Comma', ctrlKey: true }), false)).toBe('settings')
    expect(matchShortcut(key({ key: 'Escape' }), false)).toBe('stop')
    expect(matchShortcut(key({ key: '?', shiftKey: true }), false)).toBe('sheet')
    expect(matchShortcut(key({ key: 'n' }), false)).toBeNull()
    expect(matchShortcut(key({ key: 'c', code: 'KeyC', ctrlKey: true }), false)).toBeNull() // plain copy stays copy
  })

  it('fires nothing while an IME is composing', () => {
    const all = [
      { key: 'n', code: 'KeyN', ctrlKey: true },
      { key: 'k', code: 'KeyK', ctrlKey: true },
      { key: 'C', code: 'KeyC', ctrlKey: true, shiftKey: true },
      { key: ',', code: 'Comma', ctrlKey: true },
      { key: 'Escape' },
      { key: '?' },
    ]
    for (const init of all) {
      expect(matchShortcut(key({ ...init, isComposing: true }), false)).toBeNull()
      expect(matchShortcut(key({ ...init, keyCode: 229 }), false)).toBeNull()
      expect(matchShortcut(key(init), true)).toBeNull()
    }
  })

  it('leaves ? to text boxes and Esc to dialogs and editors other than the message box', () => {
    const box = document.createElement('textarea')
    box.setAttribute('data-testid', 'message-input')
    const other = document.createElement('input')
    document.body.append(box, other)
    const at = (el: Element, init: KeyboardEventInit) => {
      const e = key(init)
      Object.defineProperty(e, 'target', { get: () => el })
      return matchShortcut(e, false)
    }
    expect(at(box, { key: '?' })).toBeNull()
    expect(at(box, { key: 'Escape' })).toBe('stop')
    expect(at(other, { key: 'Escape' })).toBeNull()
    expect(at(other, { key: 'k', code: 'KeyK', ctrlKey: true })).toBe('search')
    const dialog = document.createElement('div')
    dialog.setAttribute('role', 'dialog')
    document.body.append(dialog)
    expect(at(box, { key: 'Escape' })).toBeNull() // the open panel takes Esc first
  })

  it('finds the last finished reply', () => {
    expect(lastReplyText([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'q2' },
      { role: 'assistant', content: 'partial', pending: true },
    ])).toBe('a1')
    expect(lastReplyText([{ role: 'user', content: 'q' }])).toBe('')
  })
})

function install(now: () => number = () => 1_000_000) {
  const hooks = { openSettings: vi.fn(), openSheet: vi.fn(), focusInput: vi.fn() }
  const Host = defineComponent({
    setup() {
      useShortcuts(hooks, now)
      return () => h('div')
    },
  })
  const w = mount(Host, { global: { plugins: [testI18n()] }, attachTo: document.body })
  return { hooks, w }
}

const press = (init: KeyboardEventInit & { keyCode?: number }) => {
  const e = key(init)
  document.body.dispatchEvent(e)
  return e
}

function streamingTurn(): Turn {
  return {
    turnId: 't1', sessionId: '', status: 'streaming', error: null, notesUpdated: false, notePageIds: [],
    user: draftMessage('u', 'user', 'hi', 'm', ''), assistant: draftMessage('a', 'assistant', '', 'm', ''),
  }
}

describe('useShortcuts', () => {
  it('runs each shortcut', async () => {
    const { hooks, w } = install()
    const sessions = useSessionStore()
    const search = useSearchStore()
    const chat = useChatStore()
    const toasts = useToastStore()
    const startDraft = vi.spyOn(sessions, 'startDraft').mockImplementation(() => {})
    const stop = vi.spyOn(chat, 'stop').mockImplementation(async () => {})

    expect(press({ key: 'n', code: 'KeyN', ctrlKey: true }).defaultPrevented).toBe(true)
    expect(startDraft).toHaveBeenCalledOnce()
    expect(hooks.focusInput).toHaveBeenCalledOnce()

    press({ key: 'k', code: 'KeyK', ctrlKey: true })
    expect(search.open).toBe(true)
    press({ key: 'k', code: 'KeyK', ctrlKey: true })
    expect(search.open).toBe(false)

    press({ key: ',', code: 'Comma', ctrlKey: true })
    expect(hooks.openSettings).toHaveBeenCalledOnce()
    press({ key: '?', shiftKey: true })
    expect(hooks.openSheet).toHaveBeenCalledOnce()

    // Esc stops only a reply being written.
    expect(press({ key: 'Escape' }).defaultPrevented).toBe(false)
    expect(stop).not.toHaveBeenCalled()
    chat.turns = [streamingTurn()]
    expect(press({ key: 'Escape' }).defaultPrevented).toBe(true)
    expect(stop).toHaveBeenCalledOnce()

    chat.stored = [
      fromStored({ id: 1, sessionId: 's', role: 'assistant', content: 'the answer', status: 'complete', error: '',
        model: '', createdAt: '', archived: false, forgotten: false, tools: [] } as never),
    ]
    press({ key: 'C', code: 'KeyC', ctrlKey: true, shiftKey: true })
    await flush()
    expect(copyText).toHaveBeenCalledWith('the answer')
    expect(toasts.toasts.at(-1)?.message).toBe('Copied the last reply')
    w.unmount()
    press({ key: 'k', code: 'KeyK', ctrlKey: true })
    expect(search.open).toBe(false) // removed with the component
  })

  it('ignores every shortcut during an IME composition and just after it ends', () => {
    let t = 1_000_000
    const { hooks } = install(() => t)
    const sessions = useSessionStore()
    const search = useSearchStore()
    const chat = useChatStore()
    const startDraft = vi.spyOn(sessions, 'startDraft').mockImplementation(() => {})
    const stop = vi.spyOn(chat, 'stop').mockImplementation(async () => {})
    chat.turns = [streamingTurn()]

    document.body.dispatchEvent(new CompositionEvent('compositionstart', { bubbles: true }))
    press({ key: 'n', code: 'KeyN', ctrlKey: true })
    press({ key: 'k', code: 'KeyK', ctrlKey: true })
    press({ key: ',', code: 'Comma', ctrlKey: true })
    press({ key: '?' })
    press({ key: 'Escape' }) // cancels the conversion, not the reply
    document.body.dispatchEvent(new CompositionEvent('compositionend', { bubbles: true }))
    // WebKit: the key that ended the composition arrives just after compositionend.
    t += 10
    press({ key: 'Escape' })
    press({ key: 'Escape', keyCode: 229 })
    expect(startDraft).not.toHaveBeenCalled()
    expect(search.open).toBe(false)
    expect(hooks.openSettings).not.toHaveBeenCalled()
    expect(hooks.openSheet).not.toHaveBeenCalled()
    expect(stop).not.toHaveBeenCalled()
    // Later keys work again.
    t += 1000
    press({ key: 'Escape' })
    expect(stop).toHaveBeenCalledOnce()
  })
})
