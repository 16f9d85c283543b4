// Issue 26: the chat settings panel, the assistant picker on a new chat and
// the context meter's part for the chat's own system prompt.
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Assistant, ChatSettingsView } from '@/api/assistants'
import { normalizeReport, type ContextReport } from '@/api/context'
import AssistantPicker from '@/components/assistants/AssistantPicker.vue'
import ChatSettingsPanel from '@/components/assistants/ChatSettingsPanel.vue'
import ContextReportPanel from '@/components/context/ContextReportPanel.vue'
import { useAssistantStore } from '@/stores/assistants'
import { useSessionStore } from '@/stores/sessions'
import { leftOutEntries, segments } from '@/utils/contextMeter'
import { settingsProblem } from '@/utils/chatSettings'
import { testI18n } from './helpers'

vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(() => () => {}), BrowserOpenURL: vi.fn() }))
vi.mock('@/api/assistants', async (orig) => {
  const real = await orig<typeof import('@/api/assistants')>()
  return {
    ...real,
    list: vi.fn(),
    chatSettings: vi.fn(),
    setChatSettings: vi.fn(),
    applyToChat: vi.fn(),
  }
})
vi.mock('@/api/sessions', () => ({ list: vi.fn(async () => []), setModel: vi.fn() }))
const api = vi.mocked(await import('@/api/assistants'))

const assistant = (over: Partial<Assistant> = {}): Assistant =>
  ({
    id: 1, name: '翻訳', icon: '🌐', description: 'translate', notePageIds: [], position: 0, version: 2,
    builtin: 'translate', createdAt: '', updatedAt: '',
    settings: { systemPrompt: 'Translate.', model: 'openai/gpt-4o-mini', temperature: 0.2 },
    ...over,
  }) as Assistant

const view = (over: Partial<ChatSettingsView> = {}): ChatSettingsView =>
  ({
    sessionId: 's1',
    settings: { systemPrompt: 'Be brief.', model: 'openai/o3-mini', temperature: 0.5, layersOff: ['kb'] },
    assistant: { assistant: assistant(), copiedVersion: 1, newer: true },
    unsupported: { temperature: 'table', top_p: 'table' },
    ...over,
  }) as ChatSettingsView

describe('the chat settings panel', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    vi.clearAllMocks()
  })

  it('shows the chat’s settings, what its model ignores, and saves the edits', async () => {
    useSessionStore().select('s1')
    api.chatSettings.mockResolvedValue(view())
    api.setChatSettings.mockImplementation(async (_id, s) => view({ settings: s as ChatSettingsView['settings'] }))
    const w = mount(ChatSettingsPanel, { global: { plugins: [testI18n()] } })
    await flushPromises()
    expect(api.chatSettings).toHaveBeenCalledWith('s1')
    expect((w.get('[data-testid="cs-system"]').element as HTMLTextAreaElement).value).toBe('Be brief.')
    expect((w.get('[data-testid="cs-layer-kb"]').element as HTMLInputElement).checked).toBe(false)
    expect((w.get('[data-testid="cs-layer-memory"]').element as HTMLInputElement).checked).toBe(true)
    expect(w.findAll('[data-testid="cs-unsupported"]')[0].text()).toContain('does not take temperature')

    await w.get('[data-testid="cs-system"]').setValue('Answer as a Japanese teacher.')
    await w.get('[data-testid="cs-temperature"]').setValue('')
    await w.get('[data-testid="cs-layer-memory"]').setValue(false)
    await w.get('[data-testid="cs-save"]').trigger('click')
    await flushPromises()
    expect(api.setChatSettings).toHaveBeenCalledWith('s1', {
      systemPrompt: 'Answer as a Japanese teacher.', model: 'openai/o3-mini', layersOff: ['kb', 'memory'],
    })
  })

  it('refuses a temperature out of range without saving', async () => {
    useSessionStore().select('s1')
    api.chatSettings.mockResolvedValue(view({ unsupported: {} }))
    const w = mount(ChatSettingsPanel, { global: { plugins: [testI18n()] } })
    await flushPromises()
    await w.get('[data-testid="cs-temperature"]').setValue('3')
    await w.get('[data-testid="cs-save"]').trigger('click')
    await flushPromises()
    expect(w.get('[data-testid="cs-problem"]').text()).toContain('from 0 to 2')
    expect(api.setChatSettings).not.toHaveBeenCalled()
    expect(settingsProblem({ topP: 0.5, maxOutputTokens: 100 })).toBeNull()
  })

  it('offers the assistant’s new version and applies it', async () => {
    useSessionStore().select('s1')
    api.chatSettings.mockResolvedValue(view())
    api.applyToChat.mockResolvedValue(view({ assistant: { assistant: assistant(), copiedVersion: 2, newer: false } as ChatSettingsView['assistant'] }))
    const w = mount(ChatSettingsPanel, { global: { plugins: [testI18n()] } })
    await flushPromises()
    expect(w.get('[data-testid="cs-assistant"]').text()).toContain('翻訳')
    await w.get('[data-testid="cs-apply-newer"]').trigger('click')
    await flushPromises()
    expect(api.applyToChat).toHaveBeenCalledWith('s1', 1)
    expect(w.find('[data-testid="cs-apply-newer"]').exists()).toBe(false)
  })
})

describe('the assistant picker', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    vi.clearAllMocks()
    localStorage.clear()
  })

  it('lists the assistants, picks one for the new chat with its model, and Ctrl+N starts from it again', async () => {
    api.list.mockResolvedValue([assistant(), assistant({ id: 2, name: 'Code review', icon: '🔍', settings: {} as Assistant['settings'] })])
    const w = mount(AssistantPicker, { global: { plugins: [testI18n()] } })
    await flushPromises()
    const chips = w.findAll('[role="radio"]')
    expect(chips.map((c) => c.text())).toEqual(['No assistant', '🌐翻訳', '🔍Code review'])
    expect(w.get('[data-testid="assistant-pick-none"]').attributes('aria-checked')).toBe('true')
    await w.get('[data-testid="assistant-pick-1"]').trigger('click')
    const store = useAssistantStore()
    const sessions = useSessionStore()
    expect(store.draftId).toBe(1)
    expect(sessions.draftModel).toBe('openai/gpt-4o-mini')
    expect(w.get('[data-testid="assistant-pick-1"]').attributes('aria-checked')).toBe('true')

    store.draftId = 0
    sessions.startDraft() // New chat / Ctrl+N
    expect(store.draftId).toBe(1)
    expect(sessions.draftModel).toBe('openai/gpt-4o-mini')
  })
})

describe('the context meter’s system-prompt part', () => {
  const report = (over: Partial<ContextReport> = {}) =>
    normalizeReport({
      model: 'm', window: 8000, output: 1000, input: 6650, used: 700, prompt: 40, message: 60, tools: 0,
      system: 300, systemFull: 300, systemCut: false, layers: [], history: { tokens: 300, sent: 2, leftOut: 0 },
      ...over,
    } as ContextReport)

  it('is its own segment after the prompt, and listed as sent', () => {
    const r = report()
    expect(segments(r).map((s) => s.key)).toEqual(['prompt', 'system', 'history'])
    expect(segments(r)[1]).toMatchObject({ tokens: 300, cut: false })
    const w = mount(ContextReportPanel, { props: { report: r, title: 't' }, global: { plugins: [testI18n()] } })
    expect(w.get('[data-testid="context-sent-system"]').text()).toContain('This chat’s system prompt')
  })

  it('says when the system prompt was cut to fit beside the message', () => {
    const r = report({ system: 120, systemFull: 900, systemCut: true })
    expect(segments(r).find((s) => s.key === 'system')?.cut).toBe(true)
    expect(leftOutEntries(r)[0]).toMatchObject({ layer: 'system', reason: 'truncated', kept: 120, total: 900 })
    const w = mount(ContextReportPanel, { props: { report: r, title: 't' }, global: { plugins: [testI18n()] } })
    expect(w.text()).toContain('cut to 120 of 900 tokens')
    const gone = report({ system: 0, systemFull: 900, systemCut: true })
    expect(leftOutEntries(gone)[0].reason).toBe('budget')
  })

  it('is absent for a chat without one (and for reports from before)', () => {
    const r = normalizeReport({ model: 'm', window: 8000, input: 6650, used: 100, prompt: 40, message: 60, layers: [], history: { tokens: 0, sent: 0, leftOut: 0 } } as Partial<ContextReport>)
    expect(segments(r).map((s) => s.key)).toEqual(['prompt'])
    expect(leftOutEntries(r)).toEqual([])
  })
})
