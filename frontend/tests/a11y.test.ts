// Keyboard and screen-reader access (issue 8, fault 7): the chat list works
// from the keyboard, every input has an accessible name (not only a
// placeholder), icon buttons say what they do, and the model picker shows
// which model is in use.
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { nextTick } from 'vue'
import type { Session } from '@/api/types'
import { answerConfirm, confirmState } from '@/composables/useConfirm'
import MessageInput from '@/components/chat/MessageInput.vue'
import ModelSelector from '@/components/chat/ModelSelector.vue'
import LogViewer from '@/components/logs/LogViewer.vue'
import PresetEditor from '@/components/settings/PresetEditor.vue'
import SessionList from '@/components/sessions/SessionList.vue'
import SidePanel from '@/components/common/SidePanel.vue'
import NoteCreateForm from '@/components/notes/NoteCreateForm.vue'
import { useModelStore } from '@/stores/models'
import { useSessionStore } from '@/stores/sessions'
import { buttonName, expectAllNamed, nameOf } from './a11yHelpers'
import { testI18n } from './helpers'

vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn() }))
vi.mock('@/api/sessions', () => ({
  list: vi.fn(async () => []),
  messages: vi.fn(async () => []),
  create: vi.fn(),
  rename: vi.fn(),
  setModel: vi.fn(),
  remove: vi.fn(async () => {}),
  exportToFile: vi.fn(),
  importFromFile: vi.fn(),
}))
vi.mock('@/api/logs', () => ({
  list: vi.fn(async () => ({
    entries: [{ id: 7, sessionId: 's1', model: 'openai/gpt-4o-mini', error: '', latencyMs: 120, createdAt: '2025-01-01T00:00:00Z', preview: 'hi', promptTokens: 0, completionTokens: 0 }],
    total: 1,
    usage: [],
  })),
  get: vi.fn(async () => null),
  remove: vi.fn(async () => {}),
  clear: vi.fn(async () => {}),
}))
vi.mock('@/api/models', () => ({
  options: vi.fn(async () => ({ defaultModel: '', presets: [], discovered: [], configured: true })),
  addPreset: vi.fn(),
  updatePreset: vi.fn(),
  deletePreset: vi.fn(),
}))

const session = (id: string, updatedAt: string): Session => ({
  id, title: 'Chat ' + id, model: '', createdAt: '2025-01-01T00:00:00Z', updatedAt,
})

let wrappers: VueWrapper[] = []
function mountIt<T>(c: T, opts: Record<string, unknown> = {}, locale: 'ja' | 'en' = 'en'): VueWrapper {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const w = mount(c as any, { attachTo: document.body, global: { plugins: [testI18n(locale)] }, ...opts })
  wrappers.push(w)
  return w
}

beforeEach(() => setActivePinia(createPinia()))
afterEach(() => {
  wrappers.forEach((w) => w.unmount())
  wrappers = []
})

describe('session list from the keyboard', () => {
  async function mountList() {
    const sessions = useSessionStore()
    sessions.sessions = [session('a', '2025-01-03T00:00:00Z'), session('b', '2025-01-02T00:00:00Z'), session('c', '2025-01-01T00:00:00Z')]
    sessions.loaded = true
    sessions.currentId = 'b'
    const w = mountIt(SessionList)
    await nextTick()
    const rows = () => w.findAll('[data-testid="session-open"]')
    return { w, sessions, rows }
  }

  it('makes each row a button and lets Tab reach exactly one row, the open chat', async () => {
    const { rows } = await mountList()
    expect(rows()).toHaveLength(3)
    for (const r of rows()) {
      // a real <button>: Enter and Space open it natively
      expect(r.element.tagName).toBe('BUTTON')
      expect(r.attributes('type')).toBe('button')
    }
    expect(rows().map((r) => r.attributes('tabindex'))).toEqual(['-1', '0', '-1'])
    expect(rows()[1].attributes('aria-current')).toBe('true')
  })

  it('moves the focus with the arrow keys, Home and End, and opens the focused chat on activation', async () => {
    const { sessions, rows } = await mountList()
    ;(rows()[1].element as HTMLElement).focus()
    await rows()[1].trigger('keydown', { key: 'ArrowDown' })
    expect(document.activeElement).toBe(rows()[2].element)
    await rows()[2].trigger('keydown', { key: 'ArrowDown' }) // stays on the last
    expect(document.activeElement).toBe(rows()[2].element)
    await rows()[2].trigger('keydown', { key: 'Home' })
    expect(document.activeElement).toBe(rows()[0].element)
    await rows()[0].trigger('keydown', { key: 'ArrowUp' }) // stays on the first
    expect(document.activeElement).toBe(rows()[0].element)
    await rows()[0].trigger('keydown', { key: 'End' })
    expect(document.activeElement).toBe(rows()[2].element)
    await nextTick()
    // the focused row is the one Tab comes back to; the open chat has not changed
    expect(rows().map((r) => r.attributes('tabindex'))).toEqual(['-1', '-1', '0'])
    expect(sessions.currentId).toBe('b')
    await rows()[2].trigger('click')
    expect(sessions.currentId).toBe('c')
  })

  it('renames with F2 in a named input and puts the focus back on the row after Escape', async () => {
    const { w, rows } = await mountList()
    await rows()[0].trigger('keydown', { key: 'F2' })
    const input = w.get('[data-testid="rename-input"]')
    expect(nameOf(input.element as HTMLElement)).toBe('Chat name')
    await input.trigger('keydown', { key: 'Escape' })
    await nextTick()
    await nextTick()
    expect(w.find('[data-testid="rename-input"]').exists()).toBe(false)
    expect(document.activeElement).toBe(rows()[0].element)
  })

  it('deletes with the Delete key after asking, and keeps the focus in the list', async () => {
    const { sessions, rows } = await mountList()
    ;(rows()[1].element as HTMLElement).focus()
    await rows()[1].trigger('keydown', { key: 'Delete' })
    expect(confirmState.open).toBe(true)
    expect(confirmState.message).toContain('Chat b')
    ;(document.activeElement as HTMLElement).blur() // the dialog took the focus
    answerConfirm(true)
    await flushPromises()
    expect(sessions.sorted.map((x) => x.id)).toEqual(['a', 'c'])
    expect(document.activeElement).toBe(rows()[1].element)
    expect(rows()[1].text()).toContain('Chat c')
  })

  it('names the icon buttons of a row after what they do and which chat', async () => {
    const { w } = await mountList()
    const item = w.findAll('[data-testid="session-item"]')[0]
    expect(item.get('[data-testid="rename-session"]').attributes('aria-label')).toBe('Rename “Chat a”')
    expect(item.get('[data-testid="export-session"]').attributes('aria-label')).toBe('Export “Chat a”')
    expect(item.get('[data-testid="delete-session"]').attributes('aria-label')).toBe('Delete “Chat a”')
    await w.findAll('[data-testid="session-open"]')[0].trigger('keydown', { key: 'F2' })
    expectAllNamed(w)
  })
})

describe('other clickable lists', () => {
  it('opens an API log entry with Enter, as a click does', async () => {
    const logsApi = vi.mocked(await import('@/api/logs'))
    const w = mountIt(LogViewer)
    await flushPromises()
    const entry = w.get('[data-testid="log-entry"]')
    expect(entry.attributes('tabindex')).toBe('0')
    await entry.trigger('keydown', { key: 'Enter' })
    await flushPromises()
    expect(logsApi.get).toHaveBeenCalledWith(7)
  })

  it('names every control of the API log panel', async () => {
    const w = mountIt(LogViewer)
    await flushPromises()
    expect(expectAllNamed(w).buttons).toBeGreaterThan(0)
  })
})

describe('every input has an accessible name', () => {
  it('the message box is named and describes Enter/Shift+Enter even with the short placeholder', () => {
    const w = mountIt(MessageInput, { props: { modelValue: '', streaming: false } })
    const box = w.get('[data-testid="message-input"]').element as HTMLElement
    expect(nameOf(box)).toBe('Message')
    const hint = document.getElementById(box.getAttribute('aria-describedby') ?? '')
    expect(hint?.textContent).toContain('Shift+Enter')
    expectAllNamed(w)
  })

  it('the message box is named in Japanese too', () => {
    const w = mountIt(MessageInput, { props: { modelValue: '', streaming: false } }, 'ja')
    expect(nameOf(w.get('[data-testid="message-input"]').element as HTMLElement)).toBe('メッセージ')
  })

  it('the preset editor, while adding and while editing a preset', async () => {
    const models = useModelStore()
    models.options = { defaultModel: '', presets: [{ id: 1, label: 'Fast', value: 'openai/gpt-4o-mini' }], discovered: [], configured: true }
    const w = mountIt(PresetEditor)
    const counted = expectAllNamed(w)
    expect(counted.controls).toBe(2)
    expect(w.get('[data-testid="preset-label"]').attributes('aria-label')).toBe('Label of the new preset')
    const edit = w.findAll('button').find((b) => b.attributes('aria-label') === 'Edit the preset “Fast”')
    expect(edit).toBeTruthy()
    await edit!.trigger('click')
    expect(expectAllNamed(w).controls).toBe(4)
  })

  it('the new-page form of the notes', () => {
    const w = mountIt(NoteCreateForm)
    expect(nameOf(w.get('[data-testid="note-create-title"]').element as HTMLElement)).toBe('Page title')
    expect(nameOf(w.get('[data-testid="note-create-section"]').element as HTMLElement)).toBe('Section (optional)')
    expectAllNamed(w)
  })

  it('the side panel close button says Close, not ✕', () => {
    const w = mountIt(SidePanel, { props: { title: 'Settings' } })
    expect(buttonName(w.get('[data-testid="close-panel"]').element as HTMLElement)).toBe('Close')
  })
})

describe('model picker', () => {
  function setOptions(defaultModel: string, presets: { id: number; label: string; value: string }[] = []) {
    useModelStore().options = { defaultModel, presets, discovered: ['ollama/qwen3:8b'], configured: true }
  }

  it('shows the model name and keeps the whole id in its name and tooltip', () => {
    setOptions('openai/gpt-4o-mini')
    const w = mountIt(ModelSelector, { props: { modelValue: 'openrouter/anthropic/claude-3.5-sonnet' } })
    const trigger = w.get('[data-testid="model-trigger"]')
    expect(w.get('[data-testid="model-provider"]').text()).toBe('openrouter/')
    expect(w.get('[data-testid="model-name"]').text()).toBe('anthropic/claude-3.5-sonnet')
    expect(trigger.attributes('aria-label')).toBe('Model: openrouter/anthropic/claude-3.5-sonnet')
    expect(trigger.attributes('title')).toBe('Model: openrouter/anthropic/claude-3.5-sonnet')
  })

  it('names the default model it uses when the chat has none', () => {
    setOptions('openai/gpt-4o-mini')
    const w = mountIt(ModelSelector, { props: { modelValue: '' } })
    expect(w.get('[data-testid="model-name"]').text()).toBe('gpt-4o-mini')
    expect(w.get('[data-testid="model-trigger"]').attributes('aria-label')).toBe('Model: Default (openai/gpt-4o-mini)')
  })

  it('shows a preset by its label with the model id in the name', () => {
    setOptions('', [{ id: 1, label: 'Fast', value: 'openai/gpt-4o-mini' }])
    const w = mountIt(ModelSelector, { props: { modelValue: 'openai/gpt-4o-mini' } })
    expect(w.get('[data-testid="model-name"]').text()).toBe('Fast')
    expect(w.get('[data-testid="model-trigger"]').attributes('aria-label')).toBe('Model: Fast (openai/gpt-4o-mini)')
  })

  it('keeps room for the model name in a narrow header', async () => {
    // jsdom has no layout: check the rule that keeps the picker from
    // shrinking to "ope…" is in the component's styles
    const src = await import('@/components/chat/ModelSelector.vue?raw')
    expect(src.default).toMatch(/\.selector\s*{[^}]*min-width:\s*1[4-9]\dpx/)
  })

  it('closes its menu with Escape and gives the focus back to the picker', async () => {
    setOptions('openai/gpt-4o-mini')
    const w = mountIt(ModelSelector, { props: { modelValue: '' } })
    await w.get('[data-testid="model-trigger"]').trigger('click')
    await nextTick()
    const custom = w.get('[data-testid="model-menu"] input')
    ;(custom.element as HTMLElement).focus()
    await custom.trigger('keydown', { key: 'Escape' })
    expect(w.find('[data-testid="model-menu"]').exists()).toBe(false)
    expect(document.activeElement).toBe(w.get('[data-testid="model-trigger"]').element)
  })

  it('opens a menu whose inputs and buttons are all named', async () => {
    setOptions('openai/gpt-4o-mini', [{ id: 1, label: 'Fast', value: 'openai/gpt-4o-mini' }])
    const w = mountIt(ModelSelector, { props: { modelValue: '' } })
    await w.get('[data-testid="model-trigger"]').trigger('click')
    expect(w.get('[data-testid="model-trigger"]').attributes('aria-expanded')).toBe('true')
    await flushPromises()
    expectAllNamed(w)
  })
})
