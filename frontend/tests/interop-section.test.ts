import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import ConfirmDialog from '@/components/common/ConfirmDialog.vue'
import InteropSection from '@/components/settings/InteropSection.vue'
import { testI18n } from './helpers'

vi.mock('../wailsjs/go/app/InteropService', () => ({
  Overview: vi.fn(), RotateMCPToken: vi.fn(), RotateAPIToken: vi.fn(), Test: vi.fn(),
}))
const copied: string[] = []
vi.mock('@/api/clipboard', () => ({ copyText: vi.fn(async (text: string) => void copied.push(text)) }))
const bound = vi.mocked(await import('../wailsjs/go/app/InteropService'))

const claude = '{\n  "mcpServers": {\n    "playchat": {\n      "command": "/usr/bin/playchat",\n      "args": [\n        "mcp"\n      ]\n    }\n  }\n}'
const overview = (over: Record<string, unknown> = {}) => ({
  http: { running: true, url: 'http://127.0.0.1:8765/mcp', err: '' },
  enabled: true, port: 8765, token: 'mcp-secret-token-abcd', allowWrite: false, shareNotes: false,
  binary: '/usr/bin/playchat',
  configs: [
    { client: 'claude-desktop', file: '~/.config/Claude/claude_desktop_config.json', text: claude },
    { client: 'vscode', file: '.vscode/mcp.json', text: '{"servers": {}}' },
    { client: 'open-webui-api', file: '', text: 'URL: http://127.0.0.1:8901/v1\nKey: pc-api' },
  ],
  api: { running: true, url: 'http://127.0.0.1:8901/v1', lan: false, err: '' },
  apiEnabled: true, apiToken: 'pc-api-token-wxyz', ...over,
})

async function mountSection(props: Record<string, unknown> = {}, lang: 'en' | 'ja' = 'en') {
  const w = mount(
    { components: { InteropSection, ConfirmDialog }, props: ['unsaved'], template: '<div><InteropSection :unsaved="unsaved" /><ConfirmDialog /></div>' },
    { props, global: { plugins: [testI18n(lang)] }, attachTo: document.body },
  )
  await flushPromises()
  return w
}

// Settings → Use from other tools (issue 23).
describe('InteropSection', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    setActivePinia(createPinia())
    copied.length = 0
    bound.Overview.mockResolvedValue(overview() as never)
  })

  it('shows where the servers run and what other tools may do, with the tokens masked until shown', async () => {
    const w = await mountSection()
    expect(w.get('[data-testid="interop-http"]').text()).toContain('running at http://127.0.0.1:8765/mcp')
    expect(w.get('[data-testid="interop-api"]').text()).toContain('running at http://127.0.0.1:8901/v1 (this computer only)')
    expect(w.get('[data-testid="interop-state"]').text()).toContain('Writing: not allowed (read-only)')
    expect(w.get('[data-testid="interop-state"]').text()).toContain('Notes: not shared')
    const tok = w.get('[data-testid="interop-mcp-token-text"]')
    expect(tok.text()).not.toContain('mcp-secret')
    expect(tok.text()).toMatch(/abcd$/)
    await w.get('[data-testid="interop-mcp-show-token"]').trigger('click')
    expect(w.get('[data-testid="interop-mcp-token-text"]').text()).toBe('mcp-secret-token-abcd')
    await w.get('[data-testid="interop-api-copy-token"]').trigger('click')
    await flushPromises()
    expect(copied).toEqual(['pc-api-token-wxyz'])
    w.unmount()
  })

  it('says why a server did not start, in the UI language', async () => {
    bound.Overview.mockResolvedValue(overview({
      http: { running: false, url: '', err: 'cannot listen on 127.0.0.1:8765: address already in use' },
      api: { running: false, url: '', lan: false, err: '' }, apiEnabled: false,
    }) as never)
    const w = await mountSection({}, 'ja')
    expect(w.get('[data-testid="interop-http"]').text()).toContain('HTTP の MCP サーバーを起動できません: cannot listen on 127.0.0.1:8765')
    expect(w.get('[data-testid="interop-api"]').text()).toBe('OpenAI 互換 API: オフ')
    w.unmount()
  })

  it('shows each client\'s configuration and copies it', async () => {
    const w = await mountSection()
    expect(w.get('[data-testid="interop-config"]').text()).toContain('claude_desktop_config.json')
    expect(w.get('[data-testid="interop-config"] pre').text()).toBe(claude)
    await w.get('[data-testid="interop-client-open-webui-api"]').trigger('click')
    expect(w.get('[data-testid="interop-config"] pre').text()).toContain('http://127.0.0.1:8901/v1')
    await w.get('[data-testid="interop-copy-config"]').trigger('click')
    await flushPromises()
    expect(copied).toEqual(['URL: http://127.0.0.1:8901/v1\nKey: pc-api'])
    w.unmount()
  })

  it('makes a new token only after a confirmation', async () => {
    bound.RotateMCPToken.mockResolvedValue(overview({ token: 'new-token-0123456789' }) as never)
    const w = await mountSection()
    await w.get('[data-testid="interop-mcp-rotate"]').trigger('click')
    await flushPromises()
    expect(bound.RotateMCPToken).not.toHaveBeenCalled()
    await w.get('[data-testid="confirm-ok"]').trigger('click')
    await flushPromises()
    expect(bound.RotateMCPToken).toHaveBeenCalledTimes(1)
    expect(bound.RotateAPIToken).not.toHaveBeenCalled()
    expect(w.get('[data-testid="interop-mcp-token-text"]').text()).toMatch(/6789$/)
    expect(w.text()).toContain('update it in your other tools')
    w.unmount()
  })

  it('runs the test and shows each transport, or the failure', async () => {
    bound.Test.mockResolvedValue({ mcp: [{ transport: 'stdio', tools: 9, domains: 3, millis: 420 },
      { transport: 'http', tools: 9, domains: 3, millis: 35 }], apiModels: 4, apiMillis: 12 } as never)
    const w = await mountSection({ unsaved: true })
    expect(w.text()).toContain('save your changes first')
    await w.get('[data-testid="interop-test"]').trigger('click')
    await flushPromises()
    const rs = w.findAll('[data-testid="interop-test-result"]').map((r) => r.text())
    expect(rs).toEqual(['stdio: 9 tools, 3 folders (420 ms)', 'http: 9 tools, 3 folders (35 ms)'])
    expect(w.get('[data-testid="interop-test-api"]').text()).toBe('API: 4 models (12 ms)')
    bound.Test.mockRejectedValue('playchat mcp (stdio): connecting over stdio: exit status 1')
    await w.get('[data-testid="interop-test"]').trigger('click')
    await flushPromises()
    expect(w.find('[data-testid="interop-test-result"]').exists()).toBe(false)
    expect(w.get('[data-testid="interop-test-error"]').text()).toContain('exit status 1')
    w.unmount()
  })
})
