import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import ChatComposer from '@/components/chat/ChatComposer.vue'
import ModelImagesSection from '@/components/settings/ModelImagesSection.vue'
import type { ImageSetting, StagedAttachment } from '@/api/attachments'
import { flush, testI18n } from './helpers'

// The per-model image setting (MODEL_IMAGES, issue 25): the Settings
// control for the chat's model and the list of models set, and the
// warning's "This model can see images", which sets it to yes.

vi.mock('@/api/chat', () => ({ streamTurn: vi.fn() }))
vi.mock('@/api/attachments', () => ({
  choose: vi.fn(),
  addFiles: vi.fn(),
  addData: vi.fn(),
  discard: vi.fn(async () => {}),
  dataURL: vi.fn(),
  fileToBase64: vi.fn(),
  addToKnowledge: vi.fn(),
  imageSetting: vi.fn(),
  imageOverrides: vi.fn(),
  setTakesImages: vi.fn(),
}))
const api = vi.mocked(await import('@/api/attachments'))
const { useAttachmentStore } = await import('@/stores/attachments')
const { useSessionStore } = await import('@/stores/sessions')
const { useToastStore } = await import('@/stores/toasts')
const { useModelStore } = await import('@/stores/models')

const image: StagedAttachment = {
  id: 'img-1', name: 'shot.png', kind: 'image', mime: 'image/png', size: 2048, width: 640, height: 480, chars: 0, pages: 0,
  thumbnail: 'data:image/png;base64,AAAA',
}

/** A fake of Go's settings: MODEL_IMAGES over the vision table. */
function fakeSettings(table: Record<string, 'yes' | 'no' | 'unknown'>, set: Record<string, 'yes' | 'no'> = {}) {
  const of = (model: string): ImageSetting => {
    const t = table[model] ?? 'unknown'
    const o = set[model] ?? ''
    return { model, override: o, table: t, effective: o || t }
  }
  api.imageSetting.mockImplementation(async (m) => of(m))
  api.imageOverrides.mockImplementation(async () => Object.keys(set).sort().map(of))
  api.setTakesImages.mockImplementation(async (m, v) => {
    if (!m.includes('/')) throw Object.assign(new Error('bad'), { code: 'config.invalidValue' })
    if (v) set[m] = v
    else delete set[m]
    return of(m)
  })
  return set
}

function openChat(model: string) {
  const sessions = useSessionStore()
  sessions.sessions = [{ id: 's1', title: 'a', model, createdAt: '', updatedAt: '' }]
  sessions.select('s1')
}

beforeEach(() => {
  setActivePinia(createPinia())
  vi.clearAllMocks()
})

describe('Settings: images per model', () => {
  it('shows the chat model’s setting with what the table says, and saves a choice at once', async () => {
    const set = fakeSettings({ 'ollama/llama3': 'no' })
    openChat('ollama/llama3')
    const w = mount(ModelImagesSection, { global: { plugins: [testI18n()] } })
    await flush()
    const select = w.get<HTMLSelectElement>('[data-testid="model-images-select"]')
    expect(w.text()).toContain('Images for ollama/llama3')
    expect(select.findAll('option').map((o) => o.text())).toEqual([
      'Automatic (table says: no)', 'Takes images', 'Does not take images'])
    expect(select.element.value).toBe('')
    expect(w.text()).toContain('No model is set by you')

    await select.setValue('yes')
    await flush()
    expect(api.setTakesImages).toHaveBeenCalledWith('ollama/llama3', 'yes')
    expect(set).toEqual({ 'ollama/llama3': 'yes' })
    expect(w.get<HTMLSelectElement>('[data-testid="model-images-select"]').element.value).toBe('yes')
    const items = w.findAll('[data-testid="model-images-item"]')
    expect(items).toHaveLength(1)
    expect(items[0].text()).toContain('ollama/llama3')
    expect(items[0].text()).toContain('takes images')
  })

  it('lists the models set and × gives one back to the table', async () => {
    const set = fakeSettings({ 'openai/gpt-4o': 'yes' }, { 'openai/gpt-4o': 'no', 'ollama/mystery': 'yes' })
    openChat('openai/gpt-4o')
    const w = mount(ModelImagesSection, { global: { plugins: [testI18n()] } })
    await flush()
    expect(w.findAll('[data-testid="model-images-item"]').map((i) => i.find('code').text())).toEqual([
      'ollama/mystery', 'openai/gpt-4o'])
    expect(w.get<HTMLSelectElement>('[data-testid="model-images-select"]').element.value).toBe('no')
    const remove = w.findAll('[data-testid="model-images-remove"]')[1]
    expect(remove.attributes('aria-label')).toBe('Back to automatic for openai/gpt-4o')
    await remove.trigger('click')
    await flush()
    expect(api.setTakesImages).toHaveBeenCalledWith('openai/gpt-4o', '')
    expect(set).toEqual({ 'ollama/mystery': 'yes' })
    expect(w.findAll('[data-testid="model-images-item"]')).toHaveLength(1)
    expect(w.get<HTMLSelectElement>('[data-testid="model-images-select"]').element.value).toBe('')
  })

  it('is worded in Japanese', async () => {
    fakeSettings({ 'ollama/llama3': 'no' })
    openChat('ollama/llama3')
    const w = mount(ModelImagesSection, { global: { plugins: [testI18n('ja')] } })
    await flush()
    expect(w.get('[data-testid="model-images-select"]').findAll('option').map((o) => o.text())).toEqual([
      '自動（表では: 受け付けない）', '画像を受け付ける', '画像を受け付けない'])
  })

  it('shows a refused input as an error toast and changes nothing', async () => {
    const set = fakeSettings({}, { 'openai/x': 'yes' })
    openChat('bad-model')
    const w = mount(ModelImagesSection, { global: { plugins: [testI18n()] } })
    await flush()
    await w.get('[data-testid="model-images-select"]').setValue('no')
    await flush()
    expect(useToastStore().toasts.some((x) => x.kind === 'error')).toBe(true)
    expect(set).toEqual({ 'openai/x': 'yes' })
  })
})

describe('ChatComposer: the warning’s “This model can see images”', () => {
  it('sets the model to take images, and the warning goes', async () => {
    const set = fakeSettings({ 'ollama/llama3': 'no' })
    openChat('ollama/llama3')
    useAttachmentStore().restore('s1', [image])
    const w = mount(ChatComposer, { global: { plugins: [testI18n()] }, attachTo: document.body })
    await flush()
    expect(w.get('[data-testid="attach-warning"]').text()).toContain('ollama/llama3 cannot see images')
    await w.get('[data-testid="attach-can-see"]').trigger('click')
    await flush()
    expect(api.setTakesImages).toHaveBeenCalledWith('ollama/llama3', 'yes')
    expect(set).toEqual({ 'ollama/llama3': 'yes' })
    expect(w.find('[data-testid="attach-warning"]').exists()).toBe(false)
    expect(useToastStore().toasts.map((x) => x.message)).toContain('ollama/llama3 is now set to take images (Settings, Models)')
    // The image stays, ready to send.
    expect(w.findAll('[data-testid="attach-chip"]')).toHaveLength(1)
    w.unmount()
  })

  it('says so when the user set the model not to take images, and offers the same button', async () => {
    fakeSettings({ 'openai/gpt-4o': 'yes' }, { 'openai/gpt-4o': 'no' })
    openChat('openai/gpt-4o')
    useAttachmentStore().restore('s1', [image])
    const w = mount(ChatComposer, { global: { plugins: [testI18n()] }, attachTo: document.body })
    await flush()
    expect(w.get('[data-testid="attach-warning"]').text()).toContain('You set openai/gpt-4o not to take images')
    expect(w.find('[data-testid="attach-can-see"]').exists()).toBe(true)
    w.unmount()
  })

  it('warns for a new chat that goes to DEFAULT_MODEL', async () => {
    fakeSettings({ 'ollama/llama3': 'no' })
    useModelStore().options = { defaultModel: 'ollama/llama3', presets: [], discovered: [], configured: true }
    useAttachmentStore().restore(null, [image])
    const w = mount(ChatComposer, { global: { plugins: [testI18n()] }, attachTo: document.body })
    await flush()
    expect(api.imageSetting).toHaveBeenCalledWith('ollama/llama3')
    expect(w.get('[data-testid="attach-warning"]').text()).toContain('ollama/llama3 cannot see images')
    w.unmount()
  })

  it('shows no warning for a model that takes images or is unknown', async () => {
    fakeSettings({ 'openai/gpt-4o': 'yes' })
    for (const model of ['openai/gpt-4o', 'ollama/new-thing']) {
      setActivePinia(createPinia())
      openChat(model)
      useAttachmentStore().restore('s1', [image])
      const w = mount(ChatComposer, { global: { plugins: [testI18n()] }, attachTo: document.body })
      await flush()
      expect(w.find('[data-testid="attach-warning"]').exists()).toBe(false)
      w.unmount()
    }
  })
})
