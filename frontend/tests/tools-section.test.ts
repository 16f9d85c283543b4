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
    const fs = w.get('[data-testid="tools-server-filesystem"]')
    expect(fs.get('[data-testid="tools-state"]').text()).toBe('Ready (2 tools)')
    expect(fs.get('[data-testid="tools-tool-read_file"]').text()).toContain('read_file')
    expect(fs.get('[data-testid="tools-tool-delete_file"]').text()).toContain('asks first')
    expect((fs.get('[data-testid="tools-tool-delete_file"] input').element as HTMLInputElement).checked).toBe(false)
    const gh = w.get('[data-testid="tools-server-github"]')
    expect(gh.get('[data-testid="tools-state"]').text()).toBe('Failed')
    expect(gh.get('[data-testid="tools-failure"]').text()).toContain('the server exited with code 1 (exit code 1)')
    expect(gh.get('[data-testid="tools-stderr"]').text()).toContain('GITHUB_PERSONAL_ACCESS_TOKEN not set')
  })

  it('imports pasted JSON, lists refused entries with their reason and imports the others on request', async () => {
    bound.List.mockResolvedValue([] as never)
    const w = await mountSection()
    expect(w.find('[data-testid="tools-none"]').exists()).toBe(true)
    bound.Import.mockResolvedValueOnce({ applied: false, added: [], replaced: [], refused: [{ name: 'bad', reason: 'the entry has neither "command" nor "url"' }], servers: [] } as never)
    await w.get('[data-testid="tools-paste"]').setValue('{"mcpServers":{}}')
    await w.get('[data-testid="tools-import"]').trigger('click')
    await flushPromises()
    expect(w.get('[data-testid="tools-import-result"]').text()).toContain('nothing was changed')
    expect(w.get('[data-testid="tools-refused"]').text()).toContain('bad: the entry has neither')
    bound.Import.mockResolvedValueOnce({ applied: true, added: ['filesystem'], replaced: [], refused: [{ name: 'bad', reason: 'x' }], servers: [ready] } as never)
    await w.get('[data-testid="tools-import-others"]').trigger('click')
    await flushPromises()
    expect(bound.Import).toHaveBeenLastCalledWith('{"mcpServers":{}}', true)
    expect(w.get('[data-testid="tools-import-result"]').text()).toContain('1 server(s) added')
    expect(w.find('[data-testid="tools-server-filesystem"]').exists()).toBe(true)
  })

  it('switches a tool and restarts a server', async () => {
    const w = await mountSection()
    bound.SetToolEnabled.mockResolvedValue([ready, failed] as never)
    bound.Restart.mockResolvedValue([ready, failed] as never)
    const input = w.get('[data-testid="tools-tool-delete_file"] input')
    ;(input.element as HTMLInputElement).checked = true
    await input.trigger('change')
    await flushPromises()
    expect(bound.SetToolEnabled).toHaveBeenCalledWith('filesystem', 'delete_file', true)
    await w.get('[data-testid="tools-server-github"] [data-testid="tools-restart"]').trigger('click')
    await flushPromises()
    expect(bound.Restart).toHaveBeenCalledWith('github')
  })

  it('speaks Japanese', async () => {
    const w = await mountSection('ja')
    expect(w.get('[data-testid="tools-server-filesystem"] [data-testid="tools-state"]').text()).toBe('準備完了（ツール 2 個）')
  })
})

describe('ToolServerForm', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    setActivePinia(createPinia())
    bound.List.mockResolvedValue([] as never)
  })

  it('adds a stdio server typed by hand, arguments one per line and env as NAME=value', async () => {
    bound.Save.mockResolvedValue([ready] as never)
    const w = mount(ToolsSection, { global: { plugins: [testI18n()] } })
    await flushPromises()
    await w.get('[data-testid="tools-add"]').trigger('click')
    await w.get('[data-testid="tools-form-name"]').setValue('filesystem')
    await w.get('[data-testid="tools-form-command"]').setValue('npx')
    await w.get('[data-testid="tools-form-args"]').setValue('-y\n@modelcontextprotocol/server-filesystem\n/home/me/文書\n')
    await w.get('[data-testid="tools-form-env"]').setValue('API_KEY=abc=def\n')
    await w.get('[data-testid="tools-form"]').trigger('submit')
    await flushPromises()
    const [cfg, prev] = bound.Save.mock.calls[0] as unknown as [Record<string, unknown>, string]
    expect(prev).toBe('')
    expect(cfg).toMatchObject({ name: 'filesystem', transport: 'stdio', command: 'npx', url: '',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/文書'], env: { API_KEY: 'abc=def' } })
    expect(w.find('[data-testid="tools-form"]').exists()).toBe(false)
    expect(w.find('[data-testid="tools-server-filesystem"]').exists()).toBe(true)
  })

  it('adds a URL with headers, and says why when a line cannot be read or the backend refuses', async () => {
    const w = mount(ToolsSection, { global: { plugins: [testI18n()] } })
    await flushPromises()
    await w.get('[data-testid="tools-add"]').trigger('click')
    await w.get('[data-testid="tools-form-http"]').setValue(true)
    await w.get('[data-testid="tools-form-name"]').setValue('github')
    await w.get('[data-testid="tools-form-url"]').setValue('https://api.githubcopilot.com/mcp/')
    await w.get('[data-testid="tools-form-headers"]').setValue('Authorization Bearer x')
    await w.get('[data-testid="tools-form"]').trigger('submit')
    await flushPromises()
    expect(bound.Save).not.toHaveBeenCalled()
    expect(w.get('[data-testid="tools-form-error"]').text()).toContain('Authorization Bearer x')
    await w.get('[data-testid="tools-form-headers"]').setValue('Authorization: Bearer x')
    bound.Save.mockRejectedValue('the url must be http or https')
    await w.get('[data-testid="tools-form"]').trigger('submit')
    await flushPromises()
    const [cfg] = bound.Save.mock.calls[0] as unknown as [Record<string, unknown>]
    expect(cfg).toMatchObject({ transport: 'http', url: 'https://api.githubcopilot.com/mcp/', command: '',
      headers: { Authorization: 'Bearer x' } })
    expect(w.get('[data-testid="tools-form-error"]').text()).toContain('http or https')
    expect(w.find('[data-testid="tools-form"]').exists()).toBe(true)
  })
})
