import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { SettingField } from '@/api/types'
import MessageItem from '@/components/chat/MessageItem.vue'
import SettingFieldRow from '@/components/settings/SettingFieldRow.vue'
import { i18n, initLocale, setLocale } from '@/i18n'
import en from '@/locales/en'
import ja from '@/locales/ja'
import { useChatStore } from '@/stores/chat'
import { draftMessage, fromStored } from '@/utils/turn'
import { testI18n } from './helpers'

vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn() }))

const field = (over: Partial<SettingField> = {}): SettingField => ({
  key: 'OPENAI_API_KEY', value: 'sk-…abcd', secret: true, isSet: true, source: 'gui', label: 'OpenAI API key', group: 'models',
  kind: 'string', default: '', choices: [], doc: 'API key for openai/ models.', ...over,
})

beforeEach(() => setActivePinia(createPinia()))

describe('SettingFieldRow', () => {
  it('shows a secret masked and only offers an empty replace input', async () => {
    const w = mount(SettingFieldRow, {
      props: { field: field(), edit: undefined },
      global: { plugins: [testI18n()] },
    })
    expect(w.text()).toContain('sk-…abcd')
    expect(w.find('[data-testid="secret-input"]').exists()).toBe(false)
    await w.get('[data-testid="replace"]').trigger('click')
    const input = w.get('[data-testid="secret-input"]').element as HTMLInputElement
    expect(input.type).toBe('password')
    expect(input.value).toBe('')
    input.value = 'sk-new'
    await w.get('[data-testid="secret-input"]').trigger('input')
    expect(w.emitted('change')?.at(-1)).toEqual(['sk-new'])
    input.value = ''
    await w.get('[data-testid="secret-input"]').trigger('input')
    expect(w.emitted('change')?.at(-1)).toEqual([undefined]) // "" keeps the stored secret

    // Saved: the settings are read again; the new secret shows masked with Replace.
    await w.setProps({ field: field({ value: 'sk-…new1' }), edit: undefined })
    expect(w.find('[data-testid="secret-input"]').exists()).toBe(false)
    expect(w.find('[data-testid="replace"]').exists()).toBe(true)
    expect(w.text()).toContain('sk-…new1')
  })

  it('shows the source badge and a reset button only for values set in the GUI', async () => {
    const gui = mount(SettingFieldRow, {
      props: { field: field({ secret: false, key: 'DEFAULT_MODEL', value: 'openai/gpt-4o-mini' }), edit: undefined },
      global: { plugins: [testI18n()] },
    })
    expect(gui.get('[data-testid="source"]').text()).toBe('settings')
    await gui.get('[data-testid="reset"]').trigger('click')
    expect(gui.emitted('reset')).toHaveLength(1)
    const env = mount(SettingFieldRow, {
      props: { field: field({ secret: false, source: 'env' }), edit: undefined },
      global: { plugins: [testI18n()] },
    })
    expect(env.get('[data-testid="source"]').text()).toBe('environment')
    expect(env.find('[data-testid="reset"]').exists()).toBe(false)
  })

  it('edits booleans with a checkbox and choices with a select, showing help and default', async () => {
    const bool = mount(SettingFieldRow, {
      props: { field: field({ key: 'DEBUG', secret: false, kind: 'bool', value: 'false', default: 'false', source: 'default', doc: 'Verbose diagnostics.' }), edit: undefined },
      global: { plugins: [testI18n()] },
    })
    expect(bool.text()).toContain('Verbose diagnostics.')
    expect(bool.text()).toContain('Default: false')
    const box = bool.get('[data-testid="bool-input"]')
    ;(box.element as HTMLInputElement).checked = true
    await box.trigger('change')
    expect(bool.emitted('change')?.at(-1)).toEqual(['true'])
    ;(box.element as HTMLInputElement).checked = false
    await box.trigger('change')
    expect(bool.emitted('change')?.at(-1)).toEqual([undefined]) // back to the saved value

    const choice = mount(SettingFieldRow, {
      props: { field: field({ key: 'LOG_LEVEL', secret: false, value: 'info', choices: ['debug', 'info', 'warn', 'error'] }), edit: undefined },
      global: { plugins: [testI18n()] },
    })
    const select = choice.get('[data-testid="choice-input"]')
    expect(select.findAll('option').map((o) => o.text())).toEqual(['debug', 'info', 'warn', 'error'])
    await select.setValue('warn')
    expect(choice.emitted('change')?.at(-1)).toEqual(['warn'])
  })

  it('edits numbers in a text box with a numeric keyboard and shows the error it is given', async () => {
    const w = mount(SettingFieldRow, {
      props: { field: field({ key: 'MAX_OUTPUT_TOKENS', secret: false, kind: 'int', value: '1024', default: '1024' }), edit: undefined },
      global: { plugins: [testI18n()] },
    })
    const input = w.get('[data-testid="text-input"]')
    expect(input.attributes('type')).toBe('text')
    expect(input.attributes('inputmode')).toBe('numeric')
    ;(input.element as HTMLInputElement).value = 'abc'
    await input.trigger('input')
    expect(w.emitted('change')?.at(-1)).toEqual(['abc']) // kept as typed, not turned into ""
    expect(w.find('[data-testid="field-error"]').exists()).toBe(false)
    await w.setProps({ edit: 'abc', error: 'Enter a whole number, such as 1024' })
    expect(w.get('[data-testid="field-error"]').text()).toBe('Enter a whole number, such as 1024')
    expect(input.attributes('aria-invalid')).toBe('true')
    expect((input.element as HTMLInputElement).value).toBe('abc')

    const float = mount(SettingFieldRow, {
      props: { field: field({ key: 'LOCAL_KB_MIN_SCORE', secret: false, kind: 'float', value: '0.75' }), edit: undefined },
      global: { plugins: [testI18n()] },
    })
    expect(float.get('[data-testid="text-input"]').attributes('inputmode')).toBe('decimal')
  })

  it('shows Japanese help for known keys in the Japanese UI', () => {
    const w = mount(SettingFieldRow, {
      props: { field: field({ key: 'DEFAULT_MODEL', secret: false, kind: 'model', value: '' }), edit: undefined },
      global: { plugins: [testI18n('ja')] },
    })
    expect(w.text()).toContain('新しいチャットで使うモデル')
  })
})

describe('MessageItem', () => {
  const mountItem = (message: ReturnType<typeof fromStored>) =>
    mount(MessageItem, { props: { message }, global: { plugins: [testI18n()] } })
  const base = { id: 1, sessionId: 's', content: 'x', error: '', model: '', createdAt: '2025-01-01T00:00:00Z' }

  it('labels archived, partial and failed messages', () => {
    const archived = mountItem(fromStored({ ...base, role: 'user', status: 'complete', archived: true, forgotten: false }))
    expect(archived.get('[data-testid="archived"]').text()).toBe('summarised into memory')
    expect(archived.classes()).toContain('archived')
    const forgotten = mountItem(fromStored({ ...base, role: 'user', status: 'complete', archived: true, forgotten: true }))
    expect(forgotten.get('[data-testid="archived"]').text()).toBe('forgotten (its memory was deleted)')
    const partial = mountItem(fromStored({ ...base, role: 'assistant', status: 'partial', archived: false, forgotten: false }))
    expect(partial.find('[data-testid="partial"]').exists()).toBe(true)
    const failed = mountItem(
      fromStored({ ...base, role: 'assistant', status: 'error', error: 'quota', archived: false, forgotten: false }),
    )
    expect(failed.find('[data-testid="error"]').exists()).toBe(true)
    expect(failed.text()).toContain('quota')
  })

  it('tells a stopped reply from one cut by a failure, and shows the latter\'s error', () => {
    const reply = (error: string) =>
      mountItem(fromStored({ ...base, role: 'assistant', content: 'Half an answer', status: 'partial', error, archived: false, forgotten: false }))
    const stopped = reply('stopped')
    expect(stopped.get('[data-testid="partial"]').text()).toBe('Stopped early')
    expect(stopped.find('[data-testid="interrupted"]').exists()).toBe(false)
    expect(stopped.find('[data-testid="error-text"]').exists()).toBe(false)
    expect(stopped.text()).not.toContain('stopped')

    const cut = reply('connection reset by peer')
    expect(cut.get('[data-testid="interrupted"]').text()).toBe('Interrupted')
    expect(cut.find('[data-testid="partial"]').exists()).toBe(false)
    expect(cut.get('[data-testid="error-text"]').text()).toBe('connection reset by peer')
    expect(cut.text()).toContain('Half an answer')
    expect(cut.classes()).toContain('interrupted')

    const ja = mount(MessageItem, {
      props: { message: fromStored({ ...base, role: 'assistant', status: 'partial', error: 'EOF', archived: false, forgotten: false }) },
      global: { plugins: [testI18n('ja')] },
    })
    expect(ja.get('[data-testid="interrupted"]').text()).toBe('中断')
  })

  it('shows a known backend error in the UI language, with the original in the tooltip', () => {
    const error = 'stream interrupted before the reply finished: unexpected EOF'
    // as stored with the reply: the English text and its code
    const errorInfo = { code: 'llm.interrupted', params: { detail: { code: '', message: 'unexpected EOF' } }, message: error }
    const w = mount(MessageItem, {
      props: { message: fromStored({ ...base, role: 'assistant', status: 'partial', error, errorInfo, archived: false, forgotten: false }) },
      global: { plugins: [testI18n('ja')] },
    })
    const text = w.get('[data-testid="error-text"]')
    expect(text.text()).toBe('返答の途中で接続が切れました（unexpected EOF）')
    expect(text.attributes('title')).toBe(error)
    const unknown = mountItem(
      fromStored({ ...base, role: 'assistant', status: 'error', error: 'quota', archived: false, forgotten: false }),
    )
    expect(unknown.get('[data-testid="error-text"]').attributes('title')).toBeUndefined()
  })

  it('marks a reply playchat could not finish (interrupted at the next start) in the UI language', () => {
    const error = 'playchat ended before this reply was complete (it was closed by force, crashed, or the computer lost power); the text that had arrived is kept'
    const errorInfo = { code: 'chat.replyInterrupted', params: {}, message: error }
    const message = fromStored({ ...base, role: 'assistant', content: 'Half of the story', status: 'partial', error, errorInfo, archived: false, forgotten: false })
    const ja = mount(MessageItem, { props: { message }, global: { plugins: [testI18n('ja')] } })
    expect(ja.get('[data-testid="interrupted"]').text()).toBe('中断')
    expect(ja.get('[data-testid="error-text"]').text()).toContain('返答が終わる前に playchat が終了しました')
    expect(ja.text()).toContain('Half of the story')
    const en = mountItem(message)
    expect(en.get('[data-testid="error-text"]').text()).toContain('playchat ended before this reply was complete')
  })

  it('marks a stored reply another playchat is still writing', () => {
    const w = mountItem(fromStored({ ...base, role: 'assistant', content: 'so far', status: 'streaming', archived: false, forgotten: false }))
    expect(w.get('[data-testid="writing"]').text()).toBe('Being written')
    expect(w.find('[data-testid="interrupted"]').exists()).toBe(false)
    expect(w.find('[data-testid="error"]').exists()).toBe(false)
    expect(w.text()).toContain('so far')
  })

  it('offers no Regenerate under a reply another playchat is still writing', () => {
    const chat = useChatStore()
    const q = fromStored({ ...base, id: 1, role: 'user', status: 'complete', archived: false, forgotten: false })
    const writing = fromStored({ ...base, id: 2, role: 'assistant', status: 'streaming', archived: false, forgotten: false })
    chat.stored = [q, writing]
    expect(mountItem(writing).find('[data-testid="regenerate"]').exists()).toBe(false)
    const done = { ...writing, status: 'complete' }
    chat.stored = [q, done]
    expect(mountItem(done).find('[data-testid="regenerate"]').exists()).toBe(true)
  })

  it('renders markdown for the assistant only', () => {
    const a = mountItem(fromStored({ ...base, role: 'assistant', content: '**bold**', status: 'complete', archived: false, forgotten: false }))
    expect(a.find('strong').text()).toBe('bold')
    const u = mountItem(fromStored({ ...base, role: 'user', content: '**bold**', status: 'complete', archived: false, forgotten: false }))
    expect(u.find('strong').exists()).toBe(false)
    expect(u.text()).toContain('**bold**')
  })

  it('shows a waiting line before the first chunk', () => {
    const w = mountItem(draftMessage('k', 'assistant', '', '', 's'))
    expect(w.text()).toContain('Thinking')
  })
})

describe('i18n', () => {
  function keys(o: object, prefix = ''): string[] {
    return Object.entries(o).flatMap(([k, v]) =>
      v && typeof v === 'object' ? keys(v, prefix + k + '.') : [prefix + k],
    )
  }

  it('has the same keys in both languages', () => {
    expect(keys(en).sort()).toEqual(keys(ja).sort())
  })

  it('follows the OS locale unless UI_LANGUAGE picks one, and never reads the webview storage', () => {
    localStorage.setItem('playchat.locale', 'en') // left by an earlier version, shared by every data dir
    initLocale('ja', 'auto')
    expect(i18n.global.locale.value).toBe('ja')
    initLocale('en', undefined)
    expect(i18n.global.locale.value).toBe('en')
    initLocale('en', 'ja')
    expect(i18n.global.locale.value).toBe('ja')
    setLocale('en')
    expect(i18n.global.locale.value).toBe('en')
    setLocale('auto')
    expect(i18n.global.locale.value).toBe('en')
    initLocale('ja', 'xx')
    expect(i18n.global.locale.value).toBe('ja')
  })
})
