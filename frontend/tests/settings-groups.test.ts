import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { SettingField } from '@/api/types'
import SettingsPanel from '@/components/settings/SettingsPanel.vue'
import { i18n, initLocale, startLocale } from '@/i18n'
import { labels as jaLabels } from '@/locales/setting-docs-ja'
import { groupSettings, settingLabel, SETTING_GROUPS } from '@/utils/settingGroups'
import { expectAllNamed, nameOf } from './a11yHelpers'
import { testI18n } from './helpers'

vi.mock('@/api/settings', () => ({ get: vi.fn(), save: vi.fn() }))
vi.mock('@/api/system', () => ({ info: vi.fn(async () => ({})), openExternal: vi.fn() }))
vi.mock('@/api/models', () => ({
  options: vi.fn(async () => ({ defaultModel: '', presets: [], discovered: [], configured: true })),
  addPreset: vi.fn(),
  updatePreset: vi.fn(),
  deletePreset: vi.fn(),
}))
const api = vi.mocked(await import('@/api/settings'))

const field = (key: string, group: string, label: string, over: Partial<SettingField> = {}): SettingField => ({
  key, value: '', secret: false, isSet: false, source: 'default', label, group,
  kind: 'string', default: '', choices: [], doc: '', ...over,
})

// As the backend sends them (config.Keys order), shuffled by group to check the page sorts by group.
const fields = [
  field('LOG_LEVEL', 'advanced', 'Log level', { choices: ['debug', 'info', 'warn', 'error'], value: 'info' }),
  field('SUMMARY_MODEL', 'memory', 'Model for summaries', { kind: 'model' }),
  field('DEFAULT_MODEL', 'models', 'Default model', { kind: 'model' }),
  field('OPENAI_API_KEY', 'models', 'OpenAI API key', { secret: true }),
  field('KNOWLEDGE_BASE_DIR', 'knowledge', 'Knowledge base folder'),
  field('SEARXNG_URL', 'websearch', 'SearXNG address', { kind: 'url' }),
  field('UI_LANGUAGE', 'advanced', 'Language', { choices: ['auto', 'ja', 'en'], value: 'auto', default: 'auto' }),
  field('NEW_KEY', 'someday', ''),
]

describe('groupSettings', () => {
  it('puts models and keys first, then memory, knowledge base and advanced, unknown groups last', () => {
    const groups = groupSettings(fields)
    expect(groups.map((g) => g.group)).toEqual(['models', 'memory', 'knowledge', 'websearch', 'advanced'])
    expect(groups[0].fields.map((f) => f.key)).toEqual(['DEFAULT_MODEL', 'OPENAI_API_KEY'])
    expect(groups[3].fields.map((f) => f.key)).toEqual(['SEARXNG_URL'])
    expect(groups[4].fields.map((f) => f.key)).toEqual(['LOG_LEVEL', 'NEW_KEY'])
  })

  it('leaves UI_LANGUAGE out of the groups (it has its own picker at the top) and drops empty groups', () => {
    const groups = groupSettings([fields[2], fields[6]])
    expect(groups.map((g) => g.group)).toEqual(['models'])
    expect(SETTING_GROUPS[0]).toBe('models')
  })
})

describe('settingLabel', () => {
  it('gives a plain label in each language and the key only when there is none', () => {
    expect(settingLabel(fields[2], 'en', jaLabels)).toBe('Default model')
    expect(settingLabel(fields[2], 'ja', jaLabels)).toBe('既定のモデル')
    expect(settingLabel(fields[7], 'ja', jaLabels)).toBe('NEW_KEY')
  })

  it('has a Japanese label for every key the backend knows', () => {
    const keys = ['DEFAULT_MODEL', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'OPENROUTER_API_KEY', 'OLLAMA_API_BASE',
      'LM_STUDIO_API_BASE', 'OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL', 'SUMMARY_MODEL', 'MEMORY_SUMMARIZE_THRESHOLD',
      'SESSION_NOTES_CONTENT_LIMIT', 'KNOWLEDGE_BASE_DIR', 'EMBEDDING_MODEL', 'LOCAL_KB_TOP_K', 'LOCAL_KB_MIN_SCORE',
      'KNOWLEDGE_CONTEXT_LIMIT', 'TAVILY_API_KEY', 'UI_LANGUAGE', 'CONTEXT_WINDOW_TOKENS', 'MAX_OUTPUT_TOKENS',
      'TOOL_MAX_ROUNDS', 'REMINDER_MAX_AHEAD_DAYS', 'DISCORD_BOT_TOKEN', 'DEBUG', 'LOG_LEVEL',
      'WEB_SEARCH_PROVIDER', 'TAVILY_BASE_URL', 'BRAVE_API_KEY', 'BRAVE_BASE_URL', 'SEARXNG_URL', 'KNOWLEDGE_REUSE_DAYS']
    for (const k of keys) expect(jaLabels[k], k).toBeTruthy()
  })
})

describe('SettingsPanel groups and language', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    vi.clearAllMocks()
    api.get.mockResolvedValue({ dataDir: '/data', fields })
    api.save.mockImplementation(async (u) => ({
      dataDir: '/data',
      fields: fields.map((f) => (u.values[f.key] !== undefined ? { ...f, value: u.values[f.key], source: 'gui' } : f)),
    }))
  })

  async function mountPanel(locale: 'ja' | 'en' = 'en') {
    const w = mount(SettingsPanel, { global: { plugins: [testI18n(locale)] } })
    await flushPromises()
    return w
  }

  it('shows the groups in task order with plain labels and the .env name as secondary text', async () => {
    const w = await mountPanel()
    const headings = w.findAll('[data-testid^="settings-group-"] h3').map((h) => h.text())
    expect(headings).toEqual(['Models and API keys', 'Memory', 'Knowledge base', 'Web search', 'Advanced'])
    const first = w.get('[data-testid="settings-group-models"]')
    expect(first.findAll('[data-testid="setting-label"]').map((l) => l.text())).toEqual(['Default model', 'OpenAI API key'])
    expect(first.findAll('[data-testid="setting-key"]').map((l) => l.text())).toEqual(['DEFAULT_MODEL', 'OPENAI_API_KEY'])
    // UI_LANGUAGE is the picker at the top, not a row
    expect(w.findAll('[data-testid="setting-key"]').map((l) => l.text())).not.toContain('UI_LANGUAGE')
  })

  it('labels the rows in Japanese in the Japanese UI', async () => {
    const w = await mountPanel('ja')
    expect(w.findAll('h3')[0].text()).toBe('モデルと API キー')
    expect(w.get('[data-testid="settings-group-models"] [data-testid="setting-label"]').text()).toBe('既定のモデル')
  })

  it('saves the language as UI_LANGUAGE through the settings service and shows it at once', async () => {
    initLocale('ja', 'auto')
    const w = await mountPanel()
    const select = w.get('[data-testid="language"]')
    expect((select.element as HTMLSelectElement).value).toBe('auto')
    await select.setValue('en')
    await flushPromises()
    expect(api.save).toHaveBeenCalledWith({ values: { UI_LANGUAGE: 'en' }, clear: [] })
    expect(i18n.global.locale.value).toBe('en')
    expect(localStorage.getItem('playchat.locale')).toBeNull()
    await select.setValue('auto')
    await flushPromises()
    expect(api.save).toHaveBeenLastCalledWith({ values: { UI_LANGUAGE: 'auto' }, clear: [] })
    expect(i18n.global.locale.value).toBe('ja')
  })

  it('shows the saved UI_LANGUAGE of the data dir in the picker', async () => {
    api.get.mockResolvedValue({ dataDir: '/data', fields: fields.map((f) => (f.key === 'UI_LANGUAGE' ? { ...f, value: 'ja' } : f)) })
    const w = await mountPanel()
    expect((w.get('[data-testid="language"]').element as HTMLSelectElement).value).toBe('ja')
  })

  it('names every input and button, the per-setting buttons after their setting', async () => {
    api.get.mockResolvedValue({
      dataDir: '/data',
      fields: [
        ...fields,
        field('DEBUG', 'advanced', 'Debug mode', { kind: 'bool', value: 'false' }),
        field('ANTHROPIC_API_KEY', 'models', 'Anthropic API key', { secret: true, isSet: true, value: 'sk-…wxyz', source: 'gui' }),
      ],
    })
    const w = mount(SettingsPanel, { attachTo: document.body, global: { plugins: [testI18n()] } })
    await flushPromises()
    await w.get('[data-testid="replace"]').trigger('click')
    expect(w.findAll('[data-testid="replace"]')).toHaveLength(1) // the other secret's
    const counted = expectAllNamed(w)
    expect(counted.controls).toBeGreaterThanOrEqual(6)
    expect(nameOf(w.get('[data-testid="secret-input"]').element as HTMLElement)).toContain('OpenAI API key')
    expect(w.get('[data-testid="reset"]').attributes('aria-label')).toBe('Reset “Anthropic API key” to default')
    expect(nameOf(w.get('[data-testid="language"]').element as HTMLElement)).toContain('Language')
    w.unmount()
  })
})

describe('startLocale', () => {
  beforeEach(() => localStorage.clear())

  it('moves a language an earlier version kept in the webview storage into UI_LANGUAGE, once', () => {
    localStorage.setItem('playchat.locale', 'en')
    const save = vi.fn(async () => {})
    startLocale({ locale: 'ja', uiLanguage: 'auto' }, save)
    expect(save).toHaveBeenCalledWith('en')
    expect(i18n.global.locale.value).toBe('en')
    expect(localStorage.getItem('playchat.locale')).toBeNull()
    // a data dir started later follows the OS again
    startLocale({ locale: 'ja', uiLanguage: 'auto' }, save)
    expect(save).toHaveBeenCalledTimes(1)
    expect(i18n.global.locale.value).toBe('ja')
  })

  it('keeps the data dir\'s own UI_LANGUAGE over the old storage', () => {
    localStorage.setItem('playchat.locale', 'en')
    const save = vi.fn(async () => {})
    startLocale({ locale: 'en', uiLanguage: 'ja' }, save)
    expect(save).not.toHaveBeenCalled()
    expect(i18n.global.locale.value).toBe('ja')
    expect(localStorage.getItem('playchat.locale')).toBeNull()
  })

  it('leaves the old storage alone when the backend did not answer', () => {
    localStorage.setItem('playchat.locale', 'en')
    const save = vi.fn(async () => {})
    startLocale(null, save)
    expect(save).not.toHaveBeenCalled()
    expect(localStorage.getItem('playchat.locale')).toBe('en')
  })

  it('shows the UI in the OS language when nothing picks one, and survives a failed save', () => {
    startLocale({ locale: 'en', uiLanguage: 'auto' }, vi.fn(async () => {}))
    expect(i18n.global.locale.value).toBe('en')
    localStorage.setItem('playchat.locale', 'ja')
    startLocale({ locale: 'en', uiLanguage: '' }, vi.fn(async () => Promise.reject(new Error('locked'))))
    expect(i18n.global.locale.value).toBe('ja')
  })
})
