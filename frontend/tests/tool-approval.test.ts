import { flushPromises, mount } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import ToolActivityList from '@/components/ToolActivityList.vue'
import { testI18n } from './helpers'

vi.mock('../wailsjs/go/app/ToolsService', () => ({ Decide: vi.fn(async () => true) }))
vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(() => () => {}) }))
const bound = vi.mocked(await import('../wailsjs/go/app/ToolsService'))

// A user's MCP tool that needs a click before it runs (issue 24).
describe('ToolActivityList approval', () => {
  it('shows the server and the approval buttons, and sends the decision', async () => {
    const w = mount(ToolActivityList, {
      props: { tools: [{ id: 'c1', name: 'fs__delete_file', label: 'delete_file', status: 'running', server: 'filesystem', approval: true }] },
      global: { plugins: [testI18n('en')] },
    })
    expect(w.get('[data-test="tool-label"]').text()).toBe('delete_file')
    expect(w.get('[data-test="tool-server"]').text()).toBe('filesystem')
    await w.get('[data-test="tool-allow-always"]').trigger('click')
    await flushPromises()
    expect(bound.Decide).toHaveBeenCalledWith('c1', 'always')
    expect(w.get('[data-test="tool-allow-once"]').attributes('disabled')).toBeDefined()
    await w.setProps({ tools: [{ id: 'c1', name: 'fs__delete_file', label: 'delete_file', status: 'done', server: 'filesystem', approval: true }] })
    expect(w.find('[data-test="tool-approval"]').exists()).toBe(false)
  })
})
