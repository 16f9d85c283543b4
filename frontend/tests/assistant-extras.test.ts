// Issue 26, what the first pass left: the assistant editor's pinned note
// pages, the context meter of a new chat started from an assistant, and
// Settings → Discord's assistant of each channel.
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Assistant } from '@/api/assistants'
import { normalizeReport, type ContextReport } from '@/api/context'
import type { NotePage } from '@/api/types'
import AssistantsPanel from '@/components/assistants/AssistantsPanel.vue'
import ChatSettingsFields from '@/components/assistants/ChatSettingsFields.vue'
import ContextMeter from '@/components/context/ContextMeter.vue'
import DiscordChannels from '@/components/settings/DiscordChannels.vue'
import { useAssistantStore } from '@/stores/assistants'
import { testI18n } from './helpers'

vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(() => () => {}), BrowserOpenURL: vi.fn() }))
vi.mock('@/api/assistants', async (orig) => {
  const real = await orig<typeof import('@/api/assistants')>()
  return { ...real, list: vi.fn(), update: vi.fn() }
})
vi.mock('@/api/notes', () => ({ list: vi.fn(), pins: vi.fn(async () => []) }))
vi.mock('@/api/context', async (orig) => {
  const real = await orig<typeof import('@/api/context')>()
  return { ...real, preview: vi.fn(), stored: vi.fn() }
})
vi.mock('@/api/discord', () => ({ discordChannels: vi.fn(), setChannelAssistant: vi.fn() }))
const assistantsApi = vi.mocked(await import('@/api/assistants'))
const notesApi = vi.mocked(await import('@/api/notes'))
const contextApi = vi.mocked(await import('@/api/context'))
const discordApi = vi.mocked(await import('@/api/discord'))

const teacher = (over: Partial<Assistant> = {}): Assistant =>
  ({
    id: 7, name: 'Teacher', icon: '🧑‍🏫', description: '', notePageIds: [2, 99], position: 0, version: 1, builtin: '',
    createdAt: '', updatedAt: '', settings: { systemPrompt: 'Correct my grammar.', temperature: 0.3 },
    ...over,
  }) as Assistant
const page = (id: number, title: string, section = ''): NotePage =>
  ({ id, title, content: '', section, position: 0, updatedAt: '', version: 1 }) as NotePage

beforeEach(() => {
  setActivePinia(createPinia())
  vi.clearAllMocks()
})

describe('the assistant editor’s pinned note pages', () => {
  it('lists every page by section, and saves the pages picked and unpicked (a deleted one too)', async () => {
    assistantsApi.list.mockResolvedValue([teacher()])
    assistantsApi.update.mockImplementation(async (id, d) => teacher({ id, notePageIds: d.notePageIds }))
    notesApi.list.mockResolvedValue([page(2, 'Grammar rules', 'Japanese'), page(3, 'Vocabulary', 'Japanese'), page(4, 'Inbox')])
    const w = mount(AssistantsPanel, { global: { plugins: [testI18n()] } })
    await flushPromises()
    await w.get('[data-testid="assistant-edit"]').trigger('click')
    await flushPromises()

    const box = (id: number) => w.get(`[data-testid="assistant-page-${id}"]`).element as HTMLInputElement
    const field = w.get('[data-testid="assistant-pages"]')
    expect(field.text()).toContain('Japanese')
    expect(field.text()).toContain('Page 99 (deleted)')
    expect([box(2).checked, box(3).checked, box(4).checked, box(99).checked]).toEqual([true, false, false, true])
    expect(w.get('[data-testid="assistant-pages-count"]').text()).toBe('2 picked')

    await w.get('[data-testid="assistant-page-3"]').setValue(true)
    await w.get('[data-testid="assistant-page-2"]').setValue(false)
    await w.get('[data-testid="assistant-page-99"]').setValue(false)
    await w.get('[data-testid="assistant-save"]').trigger('submit')
    await flushPromises()
    expect(assistantsApi.update).toHaveBeenCalledTimes(1)
    expect(assistantsApi.update.mock.calls[0][1].notePageIds).toEqual([3])
    expect(useAssistantStore().byId(7)?.notePageIds).toEqual([3])
  })

  it('says so when there are no pages yet', async () => {
    assistantsApi.list.mockResolvedValue([])
    notesApi.list.mockResolvedValue([])
    const w = mount(AssistantsPanel, { global: { plugins: [testI18n()] } })
    await flushPromises()
    await w.get('[data-testid="assistant-add"]').trigger('click')
    await flushPromises()
    expect(w.get('[data-testid="assistant-pages"]').text()).toContain('There are no note pages yet')
  })
})

describe('the settings’ number fields', () => {
  it('keep a decimal typed key by key (0 → 0. → 0.3), and show a value set from outside', async () => {
    const w = mount(ChatSettingsFields, {
      props: { modelValue: {}, 'onUpdate:modelValue': (v: unknown) => w.setProps({ modelValue: v as object }) },
      global: { plugins: [testI18n()] },
    })
    const field = w.get('[data-testid="cs-temperature"]')
    const el = field.element as HTMLInputElement
    for (const typed of ['0', '0.', '0.3']) {
      await field.setValue(typed)
      expect(el.value).toBe(typed)
    }
    expect(w.props('modelValue')).toEqual({ temperature: 0.3 })
    await field.setValue('')
    expect(w.props('modelValue')).toEqual({})
    await w.setProps({ modelValue: { temperature: 1.5, maxOutputTokens: 200 } })
    expect([el.value, (w.get('[data-testid="cs-max-output"]').element as HTMLInputElement).value]).toEqual(['1.5', '200'])
  })
})

describe('the context meter of a new chat started from an assistant', () => {
  const report = (system: number) =>
    normalizeReport({
      model: 'openai/m', window: 8000, output: 1000, input: 6650, used: 40 + system, prompt: 40, message: 0,
      system, systemFull: system, layers: [], history: { tokens: 0, sent: 0, leftOut: 0 },
    } as Partial<ContextReport>)

  it('measures the assistant’s system prompt before the first message, and again when the pick changes', async () => {
    contextApi.preview.mockImplementation(async (_s, _t, _m, cs) => report(cs?.systemPrompt ? 120 : 0))
    const store = useAssistantStore()
    store.items = [teacher()]
    store.pick(7)
    const w = mount(ContextMeter, { props: { sessionId: null, draft: '', model: 'openai/m' }, global: { plugins: [testI18n()] } })
    await flushPromises()
    expect(contextApi.preview).toHaveBeenLastCalledWith('', '', 'openai/m', expect.objectContaining({ systemPrompt: 'Correct my grammar.', temperature: 0.3 }), [])
    expect(w.findAll('[data-testid="context-segment"]').map((s) => s.attributes('data-layer'))).toEqual(['prompt', 'system'])

    store.pick(0) // "No assistant"
    await flushPromises()
    expect(contextApi.preview).toHaveBeenLastCalledWith('', '', 'openai/m', undefined, [])
    expect(w.findAll('[data-testid="context-segment"]').map((s) => s.attributes('data-layer'))).toEqual(['prompt'])
  })

  it('leaves a saved chat to its own settings', async () => {
    contextApi.preview.mockResolvedValue(report(0))
    const store = useAssistantStore()
    store.items = [teacher()]
    store.pick(7)
    mount(ContextMeter, { props: { sessionId: 's1', draft: '', model: '' }, global: { plugins: [testI18n()] } })
    await flushPromises()
    expect(contextApi.preview).toHaveBeenLastCalledWith('s1', '', '', undefined, [])
  })
})

describe('Settings → Discord: the assistant of each channel', () => {
  const general = { id: '4000', name: 'general', guildId: '3000', sessionId: 's1', assistantId: 0 }

  it('lists the channels with their assistants, changes one, and adds a channel by its id', async () => {
    assistantsApi.list.mockResolvedValue([teacher()])
    discordApi.discordChannels.mockResolvedValue([general])
    discordApi.setChannelAssistant.mockImplementation(async (id, a) =>
      id === '4000' ? [{ ...general, assistantId: a }] : [general, { id, name: '', guildId: '', sessionId: '', assistantId: a }],
    )
    const w = mount(DiscordChannels, { global: { plugins: [testI18n()] } })
    await flushPromises()
    const rows = () => w.findAll('[data-testid="discord-channel"]')
    expect(rows().map((r) => r.text())).toEqual([expect.stringContaining('#general')])
    const select = w.get('[data-testid="discord-channel-assistant"]')
    expect(select.findAll('option').map((o) => o.text())).toEqual(['No assistant (defaults)', '🧑‍🏫 Teacher'])
    await select.setValue('7')
    await flushPromises()
    expect(discordApi.setChannelAssistant).toHaveBeenLastCalledWith('4000', 7)

    const add = w.get('[data-testid="discord-channel-add"]')
    await w.get('[data-testid="discord-channel-id"]').setValue('#general')
    await w.get('[data-testid="discord-channel-new-assistant"]').setValue('7')
    expect(add.attributes('disabled')).toBeDefined() // not an id
    await w.get('[data-testid="discord-channel-id"]').setValue(' 123456789012345678 ')
    expect(add.attributes('disabled')).toBeUndefined()
    await w.get('form').trigger('submit')
    await flushPromises()
    expect(discordApi.setChannelAssistant).toHaveBeenLastCalledWith('123456789012345678', 7)
    expect(rows()[1].text()).toContain('Not answered in yet')
    expect((w.get('[data-testid="discord-channel-id"]').element as HTMLInputElement).value).toBe('')
  })
})
