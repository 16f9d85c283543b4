import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { SettingField } from '@/api/types'
import SettingsPanel from '@/components/settings/SettingsPanel.vue'
import { useToastStore } from '@/stores/toasts'
import { toError } from '@/api/errors'
import { cleanSettingValue, inputModeFor, normalizeNumber, settingProblem, settingRejection } from '@/utils/settings'
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

describe('settingProblem', () => {
  it('accepts whole numbers for int and rejects anything else', () => {
    for (const ok of ['0', '1024', '-3', '+7', ' 12 ', '', '１２']) expect(settingProblem('int', ok), ok).toBeNull()
    for (const bad of ['abc', '1.5', '1e3', '12abc', '0x10', '99999999999']) expect(settingProblem('int', bad), bad).toBe('int')
  })

  it('accepts decimal numbers for float', () => {
    for (const ok of ['0.75', '.5', '1', '-0.25', '1e-3', '０．５', '']) expect(settingProblem('float', ok), ok).toBeNull()
    for (const bad of ['abc', '0,75', '1.2.3', 'NaN', 'Infinity', '.']) expect(settingProblem('float', bad), bad).toBe('float')
  })

  it('wants absolute http(s) URLs for url and leaves other kinds to the backend', () => {
    expect(settingProblem('url', 'http://localhost:11434')).toBeNull()
    expect(settingProblem('url', 'localhost:11434')).toBe('url')
    expect(settingProblem('url', 'ftp://example.com')).toBe('url')
    expect(settingProblem('string', 'anything')).toBeNull()
    expect(settingProblem('model', 'openai/gpt-4o-mini')).toBeNull()
  })

  it('normalises full-width input and picks the keyboard', () => {
    expect(normalizeNumber(' １２３ ')).toBe('123')
    expect(normalizeNumber('－０．５')).toBe('-0.5')
    expect(cleanSettingValue('float', '０．５')).toBe('0.5')
    expect(cleanSettingValue('string', ' kept as is ')).toBe(' kept as is ')
    expect(inputModeFor('int')).toBe('numeric')
    expect(inputModeFor('float')).toBe('decimal')
    expect(inputModeFor('string')).toBeUndefined()
  })
})

describe('settingRejection', () => {
  const reason = { code: 'config.reason.intMin', params: { min: '1' }, message: 'must be an integer ≥ 1' }
  const refused = (code: string, key: string) => ({ code, params: { key, reason }, message: `config: invalid ${key}` })

  it('finds the key a backend ValueError names, with the reason alone', () => {
    expect(settingRejection(refused('config.invalidValueFrom', 'MAX_OUTPUT_TOKENS'), ['MAX_OUTPUT_TOKENS', 'DEBUG'])).toEqual({
      key: 'MAX_OUTPUT_TOKENS', reason,
    })
    expect(settingRejection(refused('config.invalidSecret', 'OPENAI_API_KEY'), ['OPENAI_API_KEY'])?.key).toBe('OPENAI_API_KEY')
  })

  it('names nothing when the error is about no edited key', () => {
    expect(settingRejection(refused('config.invalidValue', 'DEBUG'), ['LOG_LEVEL'])).toBeNull()
    expect(settingRejection('database is locked', ['LOG_LEVEL'])).toBeNull()
  })
})

const field = (over: Partial<SettingField>): SettingField => ({
  key: 'K', value: '', secret: false, isSet: false, source: 'default', label: '', group: 'models',
  kind: 'string', default: '', choices: [], doc: '', ...over,
})
const view = {
  dataDir: '/data',
  fields: [field({ key: 'MAX_OUTPUT_TOKENS', kind: 'int', value: '1024', default: '1024' })],
}

describe('SettingsPanel', () => {
  beforeEach(() => {
    setActivePinia(createPinia())
    vi.clearAllMocks()
    api.get.mockResolvedValue(view)
  })

  async function mountPanel() {
    const w = mount(SettingsPanel, { global: { plugins: [testI18n()] } })
    await flushPromises()
    return w
  }

  async function type(w: Awaited<ReturnType<typeof mountPanel>>, value: string) {
    const input = w.get('[data-testid="text-input"]')
    ;(input.element as HTMLInputElement).value = value
    await input.trigger('input')
  }

  it('shows an error under a field that is not a number and keeps Save disabled', async () => {
    const w = await mountPanel()
    await type(w, 'abc')
    expect(w.get('[data-testid="field-error"]').text()).toBe('Enter a whole number, such as 1024')
    expect(w.get('[data-testid="settings-invalid"]').text()).toBe('Correct the values marked in red to save')
    expect(w.get('[data-testid="save-settings"]').attributes('disabled')).toBeDefined()
    await type(w, '2048')
    expect(w.find('[data-testid="field-error"]').exists()).toBe(false)
    expect(w.get('[data-testid="save-settings"]').attributes('disabled')).toBeUndefined()
  })

  it('marks a value that is invalid where it was set (.env) until it is edited', async () => {
    const bad = {
      code: 'config.invalidValueFrom',
      params: { key: 'MAX_OUTPUT_TOKENS', value: 'lots', source: '/data/.env', sourceId: 'dotenv',
        reason: { code: 'config.reason.intMin', params: { min: '1' }, message: 'must be an integer ≥ 1' } },
      message: 'config: invalid MAX_OUTPUT_TOKENS="lots" from /data/.env: must be an integer ≥ 1',
    }
    api.get.mockResolvedValue({ dataDir: '/data', fields: [field({ key: 'MAX_OUTPUT_TOKENS', kind: 'int', value: '1024', default: '1024', error: bad as never })] })
    const w = await mountPanel()
    const shown = w.get('[data-testid="field-error"]')
    expect(shown.text()).toContain('MAX_OUTPUT_TOKENS')
    expect(shown.attributes('title')).toBe(bad.message)
    await type(w, '2048')
    expect(w.find('[data-testid="field-error"]').exists()).toBe(false)
  })

  it('shows the backend\'s refusal under the field, keeps the value and says nothing was saved', async () => {
    const w = await mountPanel()
    const toasts = useToastStore()
    // as the adapter rethrows the backend's {code, params, message}
    api.save.mockRejectedValueOnce(
      toError({
        code: 'config.invalidValue',
        params: { key: 'MAX_OUTPUT_TOKENS', value: '0', reason: { code: 'config.reason.intMin', params: { min: '1' }, message: 'must be an integer ≥ 1' } },
        message: 'config: invalid MAX_OUTPUT_TOKENS "0": must be an integer ≥ 1',
      }),
    )
    await type(w, '0')
    await w.get('[data-testid="save-settings"]').trigger('click')
    await flushPromises()
    expect(api.save).toHaveBeenCalledWith({ values: { MAX_OUTPUT_TOKENS: '0' }, clear: [] })
    expect(w.get('[data-testid="field-error"]').text()).toBe('Not saved: must be a whole number ≥ 1')
    // the backend's own words stay in the tooltip, for bug reports
    expect(w.get('[data-testid="field-error"]').attributes('title')).toBe(
      'config: invalid MAX_OUTPUT_TOKENS "0": must be an integer ≥ 1',
    )
    expect((w.get('[data-testid="text-input"]').element as HTMLInputElement).value).toBe('0')
    expect(toasts.toasts.filter((x) => x.kind === 'success')).toEqual([])
    await type(w, '10') // editing again clears the refusal
    expect(w.find('[data-testid="field-error"]').exists()).toBe(false)
  })

  it('saves full-width digits as ASCII', async () => {
    const w = await mountPanel()
    api.save.mockResolvedValueOnce(view)
    await type(w, '２０４８')
    await w.get('[data-testid="save-settings"]').trigger('click')
    await flushPromises()
    expect(api.save).toHaveBeenCalledWith({ values: { MAX_OUTPUT_TOKENS: '2048' }, clear: [] })
    expect(useToastStore().toasts.map((x) => x.message)).toEqual(['Settings saved'])
  })

  it('shows an error that names no edited field in the footer', async () => {
    const w = await mountPanel()
    api.save.mockRejectedValueOnce('database is locked')
    await type(w, '5')
    await w.get('[data-testid="save-settings"]').trigger('click')
    await flushPromises()
    expect(w.get('[data-testid="save-error"]').text()).toBe('database is locked')
  })
})

describe('settingProblem bounds', () => {
  it('checks the inclusive bounds the backend reports', () => {
    expect(settingProblem('int', '3', { min: 4 })).toBe('min')
    expect(settingProblem('int', '4', { min: 4 })).toBeNull()
    expect(settingProblem('float', '1.5', { min: 0, max: 1 })).toBe('max')
    expect(settingProblem('float', '０．７５', { min: 0, max: 1 })).toBeNull()
    expect(settingProblem('int', 'abc', { min: 4 })).toBe('int')
    expect(settingProblem('int', '', { min: 4 })).toBeNull()
  })
})
