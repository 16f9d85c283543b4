import { mount, type VueWrapper } from '@vue/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import MessageInput from '@/components/chat/MessageInput.vue'
import { keydown, testI18n } from './helpers'

let t = 10_000
const now = () => t
let wrapper: VueWrapper | null = null

function setup(props: Record<string, unknown> = {}) {
  wrapper = mount(MessageInput, {
    props: { now, ...props },
    global: { plugins: [testI18n()] },
    attachTo: document.body,
  })
  const textarea = wrapper.get('textarea').element as HTMLTextAreaElement
  return { w: wrapper, textarea }
}

async function type(textarea: HTMLTextAreaElement, text: string) {
  textarea.value = text
  textarea.dispatchEvent(new Event('input'))
  await wrapper!.vm.$nextTick()
}

function press(textarea: HTMLTextAreaElement, init: Parameters<typeof keydown>[0]) {
  const e = keydown({ key: 'Enter', ...init })
  textarea.dispatchEvent(e)
  return e
}

const sent = () => (wrapper!.emitted('send') ?? []).map((args) => args[0])

afterEach(() => {
  wrapper?.unmount()
  wrapper = null
  t += 10_000
})

describe('MessageInput', () => {
  it('a press on the frame around the text puts the caret in the message box', async () => {
    const { w, textarea } = setup()
    textarea.blur()
    const press = new MouseEvent('mousedown', { bubbles: true, cancelable: true })
    w.get('form').element.dispatchEvent(press)
    expect(document.activeElement).toBe(textarea)
    expect(press.defaultPrevented).toBe(true)
  })

  it('a press on the Send button is left to the button', () => {
    const { w } = setup()
    const press = new MouseEvent('mousedown', { bubbles: true, cancelable: true })
    w.get('button').element.dispatchEvent(press)
    expect(press.defaultPrevented).toBe(false)
  })

  it('sends on Enter and clears the box', async () => {
    const { textarea } = setup()
    await type(textarea, 'こんにちは')
    const e = press(textarea, { keyCode: 13 })
    expect(sent()).toEqual(['こんにちは'])
    expect(e.defaultPrevented).toBe(true)
    await wrapper!.vm.$nextTick()
    expect(textarea.value).toBe('')
  })

  it('does not send on Shift+Enter (a newline)', async () => {
    const { textarea } = setup()
    await type(textarea, 'line 1')
    const e = press(textarea, { keyCode: 13, shiftKey: true })
    expect(sent()).toEqual([])
    expect(e.defaultPrevented).toBe(false)
  })

  it('does not send on Enter with isComposing', async () => {
    const { textarea } = setup()
    await type(textarea, 'にほんご')
    press(textarea, { isComposing: true, keyCode: 229 })
    press(textarea, { isComposing: true })
    expect(sent()).toEqual([])
    expect(textarea.value).toBe('にほんご')
  })

  it('does not send on keyCode 229', async () => {
    const { textarea } = setup()
    await type(textarea, 'にほんご')
    press(textarea, { keyCode: 229 })
    expect(sent()).toEqual([])
  })

  it('does not send between compositionstart and compositionend', async () => {
    const { textarea } = setup()
    await type(textarea, 'か')
    textarea.dispatchEvent(new CompositionEvent('compositionstart'))
    press(textarea, { keyCode: 13 })
    expect(sent()).toEqual([])
  })

  it('does not send in the WebKit order (compositionend, then the Enter keydown)', async () => {
    const { textarea } = setup()
    textarea.dispatchEvent(new CompositionEvent('compositionstart'))
    await type(textarea, '漢字')
    textarea.dispatchEvent(new CompositionEvent('compositionend'))
    t += 3 // the confirming keydown follows at once, isComposing already false
    const e = press(textarea, { keyCode: 13, isComposing: false })
    expect(sent()).toEqual([])
    expect(e.defaultPrevented).toBe(true) // no stray newline either
    expect(textarea.value).toBe('漢字')
  })

  it('sends on a later plain Enter after a composition', async () => {
    const { textarea } = setup()
    textarea.dispatchEvent(new CompositionEvent('compositionstart'))
    await type(textarea, '漢字')
    textarea.dispatchEvent(new CompositionEvent('compositionend'))
    t += 2
    press(textarea, { keyCode: 229, isComposing: false })
    expect(sent()).toEqual([])
    t += 800
    press(textarea, { keyCode: 13 })
    expect(sent()).toEqual(['漢字'])
  })

  it('does not send empty or whitespace-only input', async () => {
    const { w, textarea } = setup()
    press(textarea, { keyCode: 13 })
    await type(textarea, '   \n\t ')
    press(textarea, { keyCode: 13 })
    expect(sent()).toEqual([])
    expect(w.get('[data-testid="send"]').attributes('disabled')).toBeDefined()
  })

  it('sends with the Send button', async () => {
    const { w, textarea } = setup()
    await type(textarea, 'hi')
    await w.get('form').trigger('submit')
    expect(sent()).toEqual(['hi'])
  })

  it('does not send while streaming and shows Stop instead of Send', async () => {
    const { w, textarea } = setup({ streaming: true })
    await type(textarea, 'next question')
    press(textarea, { keyCode: 13 })
    await w.get('form').trigger('submit')
    expect(sent()).toEqual([])
    expect(w.find('[data-testid="send"]').exists()).toBe(false)
    const stop = w.get('[data-testid="stop"]')
    ;(stop.element as HTMLButtonElement).focus()
    await stop.trigger('click')
    expect(w.emitted('stop')).toHaveLength(1)
    expect(textarea.value).toBe('next question')
    // The keyboard goes back to the message box, not to the Stop button.
    expect(document.activeElement).toBe(textarea)
  })

  it('shows the draft it is given and reports edits (v-model)', async () => {
    const { w, textarea } = setup({ modelValue: 'draft for this chat' })
    expect(textarea.value).toBe('draft for this chat')
    await w.setProps({ modelValue: 'draft of another chat' })
    expect(textarea.value).toBe('draft of another chat')
    await type(textarea, 'edited')
    expect(w.emitted('update:modelValue')?.at(-1)).toEqual(['edited'])
  })

  it('starts one line high with no scrollbar for the placeholder', () => {
    const { textarea } = setup()
    expect(textarea.style.height).toBe('32px')
    expect(textarea.style.overflowY).toBe('hidden')
    expect(textarea.getAttribute('placeholder')).toBe('Message (Enter to send, Shift+Enter for a new line)')
  })

  it('lays nothing out while the window mounts: no measure, the focus in the first frame (issue 22: start-up)', async () => {
    // Reading a size or focusing in the mount forces a layout of the whole
    // window there (~150 ms of the start on a slow machine), on top of the
    // first frame's own.
    const measure = vi.spyOn(Element.prototype, 'scrollHeight', 'get')
    const { textarea } = setup()
    expect(measure).not.toHaveBeenCalled()
    expect(textarea.style.height).toBe('32px')
    expect(document.activeElement).not.toBe(textarea)
    await new Promise((r) => requestAnimationFrame(r))
    expect(document.activeElement).toBe(textarea)
    // Text still grows the box by its measured height.
    await type(textarea, 'one\ntwo')
    expect(measure).toHaveBeenCalled()
    measure.mockRestore()
  })
})
