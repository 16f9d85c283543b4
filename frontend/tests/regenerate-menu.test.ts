// Issue 22: Regenerate ▾ offered no other model when there were no presets
// and one discovered model. It offers DEFAULT_MODEL, the presets, the
// discovered models and any model typed in.
import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import RegenerateButton from '@/components/branches/RegenerateButton.vue'
import { useBranchStore } from '@/stores/branches'
import { useModelStore } from '@/stores/models'
import { useSessionStore } from '@/stores/sessions'
import { testI18n } from './helpers'

vi.mock('@/api/chat', () => ({ streamTurn: vi.fn(), regenerateTurn: vi.fn(), editTurn: vi.fn(), removeUnanswered: vi.fn() }))

describe('Regenerate ▾', () => {
  beforeEach(() => setActivePinia(createPinia()))

  function mountWith(defaultModel: string, discovered: string[], current: string) {
    const models = useModelStore()
    models.options = { defaultModel, presets: [], discovered, configured: true } as never
    const sessions = useSessionStore()
    sessions.sessions = [{ id: 's1', title: 's', model: current, createdAt: '', updatedAt: '' } as never]
    sessions.currentId = 's1'
    const regen = vi.spyOn(useBranchStore(), 'regenerate').mockReturnValue(true)
    const w = mount(RegenerateButton, { global: { plugins: [testI18n()] }, attachTo: document.body })
    return { w, regen }
  }

  it('offers the default model and a typed-in one besides the current', async () => {
    const { w, regen } = mountWith('openai/gpt-4o-mini', ['ollama/llama3.1'], 'ollama/llama3.1')
    await w.get('[data-testid="regenerate-menu"]').trigger('click')
    const offered = w.findAll('[data-testid="regenerate-model"]').map((b) => b.attributes('data-model'))
    expect(offered).toEqual(['ollama/llama3.1', 'openai/gpt-4o-mini'])
    await w.findAll('[data-testid="regenerate-model"]')[1].trigger('click')
    expect(regen).toHaveBeenLastCalledWith('openai/gpt-4o-mini')

    await w.get('[data-testid="regenerate-menu"]').trigger('click')
    await w.get('[data-testid="regenerate-custom"]').setValue('anthropic/claude-3-5-haiku-latest')
    await w.get('[data-testid="regenerate-custom"]').trigger('submit')
    expect(regen).toHaveBeenLastCalledWith('anthropic/claude-3-5-haiku-latest')
    w.unmount()
  })

  it('opens upwards under the last reply at the bottom of the chat, downwards with room below (issue 25)', async () => {
    // A new-user try had to scroll to see the menu: it opened below the
    // visible area.
    const { w } = mountWith('openai/gpt-4o-mini', [], 'ollama/llama3.1')
    const place = (top: number) =>
      vi.spyOn(w.element as HTMLElement, 'getBoundingClientRect').mockReturnValue({ top, bottom: top + 20, left: 0, right: 80, width: 80, height: 20, x: 0, y: top, toJSON: () => ({}) } as DOMRect)
    Object.defineProperty(window, 'innerHeight', { value: 800, configurable: true })
    place(740)
    await w.get('[data-testid="regenerate-menu"]').trigger('click')
    expect(w.get('[data-testid="regenerate-models"]').classes()).toContain('up')
    await w.get('[data-testid="regenerate-menu"]').trigger('click')
    place(100)
    await w.get('[data-testid="regenerate-menu"]').trigger('click')
    expect(w.get('[data-testid="regenerate-models"]').classes()).not.toContain('up')
    w.unmount()
  })
})
