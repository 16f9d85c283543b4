import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import ToolsSection from '@/components/settings/ToolsSection.vue'
import { testI18n } from './helpers'

vi.mock('../wailsjs/go/app/ToolsService', () => ({
  List: vi.fn(), Import: vi.fn(), Save: vi.fn(), SetEnabled: vi.fn(), SetSafety: vi.fn(),
  SetToolEnabled: vi.fn(), Restart: vi.fn(), Remove: vi.fn(), Decide: vi.fn(),
}))
vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(() => () => {}) }))
const bound = vi.mocked(await import('../wailsjs/go/app/ToolsService'))

const config = (over: Record<string, unknown> = {}) => ({
  name: 'filesystem', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem'],
  env: { API_KEY: '••••••' }, cwd: '', url: '', headers: {}, disabled: false, askFirst: false, alwaysAllow: false,
  allowDiscord: false, timeoutSeconds: 0, ...over,
})
const ready = {
  name: 'filesystem', transport: 'stdio', state: 'ready', reason: '', exitCode: null, stderr: [], logFile: '',
  tools: [
    { name: 'read_file', modelName: 'filesystem__read_file', title: '', description: 'Read a file', enabled: true, readOnly: true, destructive: false },
    { name: 'delete_file', modelName: 'filesystem__delete_file', title: '', description: 'Delete', enabled: false, readOnly: false, destructive: true },
  ],
  config: config(),
}
const failed = {
  name: 'github', transport: 'stdio', state: 'failed', reason: 'the server exited with code 1', exitCode: 1,
  stderr: ['Error: GITHUB_PERSONAL_ACCESS_TOKEN not set'], logFile: '/data/logs/mcp/github.log', tools: [],
  config: config({ name: 'github', command: 'docker' }),
}

async function mountSection(lang: 'en' | 'ja' = 'en') {
  const w = mount(ToolsSection, { global: { plugins: [testI18n(lang)] }, attachTo: document.body })
  await flushPromises()
  return w
}

// Settings → Tools (MCP) (issue 24).
describe('ToolsSection', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    setActivePinia(createPinia())
    bound.List.mockResolvedValue([ready, failed] as never)
  })

  it('shows each server with its state, tools and switches, and a failure with its exit code and stderr', async () => {
    const w = await mountSection()
    const fs = w.get('[data-test="tools-server-filesystem"]')
    expect(fs.get('[data-test="tools-state"]').text()).toBe('Ready (2 tools)')
    expect(fs.get('[data-test="tools-tool-read_file"]').text()).toContain('read_file')
    expect(fs.get('[data-test="tools-tool-delete_file"]').text()).toContain('asks first')
    expect((fs.get('[data-test="tools-tool-delete_file"] input').element as HTMLInputElement).checked).toBe(false)
    const gh = w.get('[data-test="tools-server-github"]')
    expect(gh.get('[data-test="tools-state"]').text()).toBe('Failed')
    expect(gh.get('[data-test="tools-failure"]').text()).toContain('the server exited with code 1 (exit code 1)')
    expect(gh.get('[data-test="tools-stderr"]').text()).toContain('GITHUB_PERSONAL_ACCESS_TOKEN not set')
  })

  it('imports pasted JSON, lists refused entries with their reason and imports the others on request', async () => {
    bound.List.mockResolvedValue([] as never)
    const w = await mountSection()
    expect(w.find('[data-test="tools-none"]').exists()).toBe(true)
    bound.Import.mockResolvedValueOnce({ applied: false, added: [], replaced: [], refused: [{ name: 'bad', reason: 'the entry has neither "command" nor "url"' }], servers: [] } as never)
    await w.get('[data-test="tools-paste"]').setValue('{"mcpServers":{}}')
    await w.get('[data-test="tools-import"]').trigger('click')
    await flushPromises()
    expect(w.get('[data-test="tools-import-result"]').text()).toContain('nothing was changed')
    expect(w.get('[data-test="tools-refused"]').text()).toContain('bad: the entry has neither')
    bound.Import.mockResolvedValueOnce({ applied: true, added: ['filesystem'], replaced: [], refused: [{ name: 'bad', reason: 'x' }], servers: [ready] } as never)
    await w.get('[data-test="tools-import-others"]').trigger('click')
    await flushPromises()
    expect(bound.Import).toHaveBeenLastCalledWith('{"mcpServers":{}}', true)
    expect(w.get('[data-test="tools-import-result"]').text()).toContain('1 server(s) added')
    expect(w.find('[data-test="tools-server-filesystem"]').exists()).toBe(true)
  })

  it('switches a tool and restarts a server', async () => {
    const w = await mountSection()
    bound.SetToolEnabled.mockResolvedValue([ready, failed] as never)
    bound.Restart.mockResolvedValue([ready, failed] as never)
    const input = w.get('[data-test="tools-tool-delete_file"] input')
    ;(input.element as HTMLInputElement).checked = true
    await input.trigger('change')
    await flushPromises()
    expect(bound.SetToolEnabled).toHaveBeenCalledWith('filesystem', 'delete_file', true)
    await w.get('[data-test="tools-server-github"] [data-test="tools-restart"]').trigger('click')
    await flushPromises()
    expect(bound.Restart).toHaveBeenCalledWith('github')
  })

  it('speaks Japanese', async () => {
    const w = await mountSection('ja')
    expect(w.get('[data-test="tools-server-filesystem"] [data-test="tools-state"]').text()).toBe('準備完了（ツール 2 個）')
  })
})
