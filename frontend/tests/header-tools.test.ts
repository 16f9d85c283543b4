// Issue 22: at 1200×820 with the notes pane open the ⚙ button was gone, and
// at 800×600 every header button could vanish. Tools that do not fit fold
// into a "…" menu, the least used first; Settings never folds.
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import HeaderTools from '@/components/shell/HeaderTools.vue'
import { testI18n } from './helpers'

/**
 * jsdom has no layout: the nav reports a scroll width of 40 px per shown
 * button and the room it is given.
 */
function withRoom(room: number) {
  Object.defineProperty(HTMLElement.prototype, 'scrollWidth', {
    configurable: true,
    get(this: HTMLElement) {
      return this.dataset.testid === 'header-tools' ? this.querySelectorAll(':scope > button').length * 40 : 0
    },
  })
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
    configurable: true,
    get(this: HTMLElement) {
      return this.dataset.testid === 'header-tools' ? room : 0
    },
  })
}

describe('HeaderTools', () => {
  beforeEach(() => setActivePinia(createPinia()))

  it('shows every tool when there is room', async () => {
    withRoom(1000)
    const w = mount(HeaderTools, { props: { panel: null, notesOpen: false }, global: { plugins: [testI18n()] } })
    await w.vm.fit()
    await flushPromises()
    expect(w.findAll('[data-testid="header-tools"] > button')).toHaveLength(9)
    expect(w.find('[data-testid="header-more"]').exists()).toBe(false)
    expect(w.find('[data-testid="open-settings"]').exists()).toBe(true)
  })

  it('folds the least used tools into … when room runs out, keeps Settings, and opens a folded panel', async () => {
    withRoom(130) // room for three buttons
    const w = mount(HeaderTools, { props: { panel: 'logs', notesOpen: false }, global: { plugins: [testI18n()] } })
    await w.vm.fit()
    await flushPromises()
    const shown = w.findAll('[data-testid="header-tools"] > button').map((b) => b.attributes('data-testid'))
    expect(shown).toEqual(['open-chat-settings', 'open-notes', 'open-kb'])
    expect(w.find('[data-testid="open-settings"]').exists()).toBe(true)
    const more = w.get('[data-testid="header-more"]')
    expect(more.classes()).toContain('on') // the open panel (logs) is folded in it
    expect(more.attributes('title')).toBe('More tools')
    await more.trigger('click')
    // The open menu is not covered by the button's own tooltip.
    expect(more.attributes('title')).toBeUndefined()
    expect(more.attributes('aria-label')).toBe('More tools')
    const items = w.findAll('[data-testid="header-more-menu"] button').map((b) => b.attributes('data-testid'))
    expect(items).toEqual(['open-search', 'open-learned', 'open-reminders', 'open-assistants', 'open-memory', 'open-logs'])
    await w.get('[data-testid="header-more-menu"] [data-testid="open-memory"]').trigger('click')
    expect(w.emitted('toggle')).toEqual([['memory']])
    expect(w.find('[data-testid="header-more-menu"]').exists()).toBe(false)
  })

  it('folds every tool but Settings in the narrowest header', async () => {
    withRoom(0)
    const w = mount(HeaderTools, { props: { panel: null, notesOpen: true }, global: { plugins: [testI18n('ja')] } })
    await w.vm.fit()
    await flushPromises()
    expect(w.findAll('[data-testid="header-tools"] > button')).toHaveLength(0)
    expect(w.find('[data-testid="open-settings"]').exists()).toBe(true)
    await w.get('[data-testid="header-more"]').trigger('click')
    expect(w.findAll('[data-testid="header-more-menu"] button')).toHaveLength(9)
    expect(w.get('[data-testid="header-more"]').attributes('aria-label')).toBe('ほかのツール')
  })

  it('closes the … menu on Esc with the focus on …, before a panel under it', async () => {
    withRoom(0)
    const w = mount(HeaderTools, {
      props: { panel: 'settings', notesOpen: false }, global: { plugins: [testI18n()] }, attachTo: document.body,
    })
    await w.vm.fit()
    await flushPromises()
    const more = w.get('[data-testid="header-more"]')
    ;(more.element as HTMLButtonElement).focus()
    await more.trigger('click')
    expect(w.find('[data-testid="header-more-menu"]').exists()).toBe(true)
    const esc = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true })
    more.element.dispatchEvent(esc)
    await flushPromises()
    expect(esc.defaultPrevented).toBe(true)
    expect(w.find('[data-testid="header-more-menu"]').exists()).toBe(false)
    expect(document.activeElement).toBe(more.element)
    w.unmount()
  })
})
