import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import BranchSwitcher from '@/components/branches/BranchSwitcher.vue'
import MessageEditor from '@/components/branches/MessageEditor.vue'
import { keydown, testI18n } from './helpers'

const mountSwitcher = (current: number, disabled = false) =>
  mount(BranchSwitcher, {
    props: { ids: [11, 15, 20], current, disabled },
    global: { plugins: [testI18n()] },
  })

describe('BranchSwitcher', () => {
  it('shows the version shown out of all of them', () => {
    const w = mountSwitcher(15)
    expect(w.get('[data-testid="branch-position"]').text()).toBe('2/3')
    expect(w.get('[data-testid="branch-switcher"]').attributes('aria-label')).toBe('Version 2 of 3')
  })

  it('asks for the previous and the next version by id', async () => {
    const w = mountSwitcher(15)
    await w.get('[data-testid="branch-prev"]').trigger('click')
    await w.get('[data-testid="branch-next"]').trigger('click')
    expect(w.emitted('select')).toEqual([[11], [20]])
  })

  it('disables the arrow at each end, and both while a reply streams', async () => {
    const first = mountSwitcher(11)
    expect(first.get('[data-testid="branch-prev"]').attributes('disabled')).toBeDefined()
    expect(first.get('[data-testid="branch-next"]').attributes('disabled')).toBeUndefined()
    await first.get('[data-testid="branch-prev"]').trigger('click')
    expect(first.emitted('select')).toBeUndefined()

    const last = mountSwitcher(20)
    expect(last.get('[data-testid="branch-next"]').attributes('disabled')).toBeDefined()
    expect(last.get('[data-testid="branch-prev"]').attributes('disabled')).toBeUndefined()
    expect(last.get('[data-testid="branch-position"]').text()).toBe('3/3')

    const busy = mountSwitcher(15, true)
    expect(busy.get('[data-testid="branch-prev"]').attributes('disabled')).toBeDefined()
    expect(busy.get('[data-testid="branch-next"]').attributes('disabled')).toBeDefined()
  })
})

describe('MessageEditor', () => {
  const mountEditor = () =>
    mount(MessageEditor, { props: { text: '元の質問' }, global: { plugins: [testI18n()] }, attachTo: document.body })

  it('resends the edited text on Enter, but not on the Enter that confirms an IME conversion', async () => {
    const w = mountEditor()
    const box = w.get('[data-testid="message-editor-input"]')
    await box.setValue('編集した質問')
    box.element.dispatchEvent(keydown({ key: 'Enter', isComposing: true, keyCode: 229 }))
    expect(w.emitted('submit')).toBeUndefined()
    box.element.dispatchEvent(keydown({ key: 'Enter', shiftKey: true }))
    expect(w.emitted('submit')).toBeUndefined()
    box.element.dispatchEvent(keydown({ key: 'Enter' }))
    expect(w.emitted('submit')).toEqual([['編集した質問']])
    w.unmount()
  })

  it('cancels on Esc and on Cancel, and keeps Send off for blank text', async () => {
    const w = mountEditor()
    const box = w.get('[data-testid="message-editor-input"]')
    box.element.dispatchEvent(keydown({ key: 'Escape' }))
    await w.get('[data-testid="message-editor-cancel"]').trigger('click')
    expect(w.emitted('cancel')).toHaveLength(2)
    await box.setValue('   ')
    expect(w.get('[data-testid="message-editor-send"]').attributes('disabled')).toBeDefined()
    w.unmount()
  })
})
