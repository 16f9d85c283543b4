import { flushPromises, mount } from '@vue/test-utils'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import ToolActivityList from '@/components/chat/ToolActivityList.vue'
import type { ToolActivity } from '@/api/types'
import { mergeTool } from '@/utils/turn'
import { testI18n } from './helpers'

vi.mock('../wailsjs/go/app/ToolsService', () => ({ Decide: vi.fn(async () => true) }))
vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(() => () => {}) }))
const bound = vi.mocked(await import('../wailsjs/go/app/ToolsService'))

const start: ToolActivity = { id: 'c1', name: 'fs__delete_file', label: 'delete_file', status: 'running', server: 'filesystem' }

/** The item as the chat store builds it from the turn's events, in order. */
function fromEvents(...evs: ToolActivity[]): ToolActivity[] {
  return evs.reduce((list, ev) => mergeTool(list, ev), [] as ToolActivity[])
}

function mountList(tools: ToolActivity[], ended = false) {
  return mount(ToolActivityList, { props: { tools, ended }, global: { plugins: [testI18n('en')] } })
}

// A user's MCP tool that needs a click before it runs (issue 24).
describe('ToolActivityList approval', () => {
  beforeEach(() => bound.Decide.mockReset().mockResolvedValue(true))

  it('shows the server and the approval buttons, and sends the decision', async () => {
    const w = mountList(fromEvents(start, { id: 'c1', status: 'running', server: 'filesystem', approval: true }))
    expect(w.get('[data-testid="tool-label"]').text()).toBe('delete_file')
    expect(w.get('[data-testid="tool-server"]').text()).toBe('filesystem')
    await w.get('[data-testid="tool-allow-always"]').trigger('click')
    await flushPromises()
    expect(bound.Decide).toHaveBeenCalledWith('c1', 'always')
    // Sent: disabled until the answer's event arrives.
    expect(w.get('[data-testid="tool-allow-once"]').attributes('disabled')).toBeDefined()
  })

  it('keeps the buttons usable while the call waits, whatever else the turn does', async () => {
    // The wait can be long: events of other calls and a Decide that failed
    // to reach the backend must not take the buttons away.
    bound.Decide.mockRejectedValueOnce('backend busy')
    let tools = fromEvents(start, { id: 'c1', status: 'running', server: 'filesystem', approval: true })
    const w = mountList(tools)
    await w.get('[data-testid="tool-allow-once"]').trigger('click')
    await flushPromises()
    tools = mergeTool(tools, { id: 'c0', name: 'read_note', status: 'running' })
    tools = mergeTool(tools, { id: 'c0', status: 'done', result: 'page' })
    tools = mergeTool(tools, { id: 'c1', status: 'running', server: 'filesystem' }) // a repeat without the flag
    await w.setProps({ tools })
    const row = w.get('[data-tool-id="c1"]')
    expect(row.find('[data-testid="tool-approval"]').exists()).toBe(true)
    for (const b of ['tool-allow-once', 'tool-allow-always', 'tool-deny']) {
      expect(row.get(`[data-testid="${b}"]`).attributes('disabled'), b).toBeUndefined()
    }
    await row.get('[data-testid="tool-deny"]').trigger('click')
    await flushPromises()
    expect(bound.Decide).toHaveBeenLastCalledWith('c1', 'deny')
  })

  it('replaces the buttons by the answer once given, and keeps it after the call', async () => {
    let tools = fromEvents(start, { id: 'c1', status: 'running', server: 'filesystem', approval: true })
    const w = mountList(tools)
    tools = mergeTool(tools, { id: 'c1', status: 'running', server: 'filesystem', decision: 'once' })
    await w.setProps({ tools })
    expect(w.find('[data-testid="tool-approval"]').exists()).toBe(false)
    expect(w.get('[data-testid="tool-decision"]').text()).toBe('Allowed once')
    expect(w.get('[data-testid="tool-state"]').attributes('data-state')).toBe('running')
    tools = mergeTool(tools, { id: 'c1', status: 'done', server: 'filesystem', decision: 'once', result: 'deleted' })
    await w.setProps({ tools })
    expect(w.get('[data-testid="tool-decision"]').text()).toBe('Allowed once')
    expect(w.get('[data-testid="tool-state"]').attributes('data-state')).toBe('done')
  })

  it('takes the buttons away when no call waits any more or the call ended', async () => {
    bound.Decide.mockResolvedValueOnce(false)
    const waiting = fromEvents(start, { id: 'c1', status: 'running', server: 'filesystem', approval: true })
    const w = mountList(waiting)
    await w.get('[data-testid="tool-allow-once"]').trigger('click')
    await flushPromises()
    expect(w.find('[data-testid="tool-approval"]').exists()).toBe(false)

    const stopped = mountList(mergeTool(waiting, { id: 'c1', status: 'error', error: { code: 'tool.failed', message: 'context canceled' } }))
    expect(stopped.find('[data-testid="tool-approval"]').exists()).toBe(false)
    // A reply left by a playchat that died with the call waiting: failed, no buttons.
    const left = mountList(waiting, true)
    expect(left.find('[data-testid="tool-approval"]').exists()).toBe(false)
    expect(left.get('[data-testid="tool-state"]').attributes('data-state')).toBe('error')
  })
})
