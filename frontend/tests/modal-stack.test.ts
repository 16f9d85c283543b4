import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defineComponent, h, ref } from 'vue'
import ConfirmDialog from '@/components/common/ConfirmDialog.vue'
import ShortcutsSheet from '@/components/shell/ShortcutsSheet.vue'
import SidePanel from '@/components/common/SidePanel.vue'
import { confirm } from '@/composables/useConfirm'
import { matchShortcut } from '@/composables/useShortcuts'
import { modalDepth, modalOpen } from '@/composables/useModal'
import { testI18n } from './helpers'

// The modal stack (useModal.ts) with the real dialogs: a side panel with a
// confirmation over it, and the shortcuts sheet, driven by the keyboard.

const key = (k: string, init: KeyboardEventInit = {}) => {
  const target = document.activeElement ?? document.body
  const e = new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init })
  target.dispatchEvent(e)
  return e
}

const Host = defineComponent({
  setup() {
    const panelOpen = ref(false)
    const sheetOpen = ref(false)
    return () =>
      h('div', [
        h('button', { id: 'opener', onClick: () => (panelOpen.value = true) }, 'open panel'),
        h('button', { id: 'sheet-opener', onClick: () => (sheetOpen.value = true) }, 'open sheet'),
        panelOpen.value
          ? h(SidePanel, { title: 'Settings', onClose: () => (panelOpen.value = false) }, () => [
              h('button', { id: 'in-panel' }, 'delete'),
            ])
          : null,
        h(ShortcutsSheet, { open: sheetOpen.value, onClose: () => (sheetOpen.value = false) }),
        h(ConfirmDialog),
      ])
  },
})

describe('the modal stack', () => {
  beforeEach(() => setActivePinia(createPinia()))
  afterEach(() => {
    document.body.innerHTML = ''
  })

  const mountHost = () => mount(Host, { attachTo: document.body, global: { plugins: [testI18n()] } })

  it('closes the topmost layer only on Esc and gives focus back to each opener in turn', async () => {
    const w = mountHost()
    const opener = w.get('#opener').element as HTMLButtonElement
    opener.focus()
    await w.get('#opener').trigger('click')
    await flushPromises()
    expect(modalDepth()).toBe(1)

    const inPanel = w.get('#in-panel').element as HTMLButtonElement
    inPanel.focus()
    let answer: boolean | undefined
    void confirm('Delete it?').then((ok) => (answer = ok))
    await flushPromises()
    expect(modalDepth()).toBe(2)
    // The dialog took focus (its OK button).
    const dialog = document.querySelector('[role="alertdialog"]') as HTMLElement
    expect(dialog.contains(document.activeElement)).toBe(true)

    // Esc answers the confirmation only; the panel stays, focus is back on its button.
    expect(key('Escape').defaultPrevented).toBe(true)
    await flushPromises()
    expect(answer).toBe(false)
    expect(document.querySelector('[role="alertdialog"]')).toBeNull()
    expect(w.find('aside').exists()).toBe(true)
    expect(document.activeElement).toBe(inPanel)

    // Esc again closes the panel; focus goes back to what opened it.
    key('Escape')
    await flushPromises()
    expect(w.find('aside').exists()).toBe(false)
    expect(modalOpen()).toBe(false)
    expect(document.activeElement).toBe(opener)
  })

  it('gives the keyboard to a side panel when it opens', async () => {
    const w = mountHost()
    ;(w.get('#opener').element as HTMLButtonElement).focus()
    await w.get('#opener').trigger('click')
    await flushPromises()
    expect(w.get('aside').element.contains(document.activeElement)).toBe(true)
    key('Escape')
    await flushPromises()
    expect(document.activeElement).toBe(w.get('#opener').element)
  })

  it('keeps Tab and Shift+Tab inside a dialog, and not inside a side panel', async () => {
    const w = mountHost()
    ;(w.get('#sheet-opener').element as HTMLButtonElement).focus()
    await w.get('#sheet-opener').trigger('click')
    await flushPromises()
    const sheet = document.querySelector('[data-testid="shortcuts-sheet"] [role="dialog"]') as HTMLElement
    const buttons = [...sheet.querySelectorAll('button')]
    expect(buttons.length).toBeGreaterThan(0)
    // jsdom has no layout: every button counts as shown.
    const last = buttons[buttons.length - 1]
    last.focus()
    expect(key('Tab').defaultPrevented).toBe(true)
    expect(document.activeElement).toBe(buttons[0])
    expect(key('Tab', { shiftKey: true }).defaultPrevented).toBe(true)
    expect(document.activeElement).toBe(last)
    key('Escape')
    await flushPromises()
    expect(document.activeElement).toBe(w.get('#sheet-opener').element)

    await w.get('#opener').trigger('click')
    await flushPromises()
    ;(w.get('#in-panel').element as HTMLButtonElement).focus()
    expect(key('Tab').defaultPrevented).toBe(false)
    key('Escape')
    await flushPromises()
  })

  it('leaves Esc to an IME composition, and suppresses the shortcuts behind an open layer', async () => {
    const w = mountHost()
    await w.get('#opener').trigger('click')
    await flushPromises()
    ;(w.get('#in-panel').element as HTMLButtonElement).focus()
    expect(key('Escape', { isComposing: true }).defaultPrevented).toBe(false)
    expect(w.find('aside').exists()).toBe(true)
    // Esc would stop the reply, Ctrl+N start a new chat: not from inside the panel.
    const inPanel = w.get('#in-panel').element
    expect(matchShortcut({ key: 'Escape', code: 'Escape', target: inPanel } as unknown as KeyboardEvent, false)).toBeNull()
    expect(matchShortcut({ key: 'n', code: 'KeyN', ctrlKey: true, target: inPanel } as unknown as KeyboardEvent, false)).toBeNull()
    // Nor with the focus left outside the panel (on the button that opened it).
    const outside = w.get('#opener').element
    expect(matchShortcut({ key: 'n', code: 'KeyN', ctrlKey: true, target: outside } as unknown as KeyboardEvent, false)).toBeNull()
    key('Escape')
    await flushPromises()
    expect(matchShortcut({ key: 'Escape', code: 'Escape', target: document.body } as unknown as KeyboardEvent, false)).toBe('stop')
  })
})
