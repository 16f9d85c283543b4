import { flushPromises, mount } from '@vue/test-utils'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import DiscordStatusLine from '@/components/settings/DiscordStatusLine.vue'
import { toDiscordStatus } from '@/api/discord'
import { testI18n } from './helpers'

const handlers = new Map<string, (v: unknown) => void>()
vi.mock('../wailsjs/runtime/runtime', () => ({
  EventsOn: vi.fn((name: string, fn: (v: unknown) => void) => {
    handlers.set(name, fn)
    return () => handlers.delete(name)
  }),
}))
vi.mock('../wailsjs/go/app/DiscordService', () => ({ Status: vi.fn() }))
const bound = vi.mocked(await import('../wailsjs/go/app/DiscordService'))

// Settings shows the Discord bot's connection live: off, connecting,
// connected as NAME, or retrying with the reason in plain words.
describe('DiscordStatusLine', () => {
  beforeEach(() => {
    vi.clearAllMocks()
    handlers.clear()
  })

  it('shows the bot name once connected, and follows discord:status events', async () => {
    bound.Status.mockResolvedValue({ state: 'connecting', user: '', reason: '', reasonCode: '', since: '' } as never)
    const w = mount(DiscordStatusLine, { global: { plugins: [testI18n('ja')] } })
    await flushPromises()
    expect(w.get('[data-testid="discord-status"]').attributes('data-state')).toBe('connecting')
    expect(w.get('[data-testid="discord-status-label"]').text()).toBe('Discord ボット: 接続中…')

    handlers.get('discord:status')!({ state: 'connected', user: 'playchat-bot', reason: '', reasonCode: '', since: '2026-12-01T00:00:00Z' })
    await flushPromises()
    expect(w.get('[data-testid="discord-status-label"]').text()).toBe('Discord ボット: playchat-bot として接続中')
    expect(w.find('[data-testid="discord-status-reason"]').exists()).toBe(false)

    w.unmount()
    expect(handlers.has('discord:status')).toBe(false)
  })

  it('says why it is retrying (the English reason when the code is unknown)', async () => {
    bound.Status.mockResolvedValue({
      state: 'retrying', user: '', reason: 'the gateway is unreachable: dial tcp: i/o timeout', reasonCode: 'discord.somethingNew', since: '',
    } as never)
    const w = mount(DiscordStatusLine, { global: { plugins: [testI18n('en')] } })
    await flushPromises()
    expect(w.get('[data-testid="discord-status-label"]').text()).toBe('Discord bot: not connected, retrying')
    expect(w.get('[data-testid="discord-status-reason"]').text()).toBe('the gateway is unreachable: dial tcp: i/o timeout')
  })

  it('reads an unknown payload as off rather than failing', () => {
    expect(toDiscordStatus(null)).toEqual({ state: 'off', user: '', reason: '', reasonCode: '', since: '' })
    expect(toDiscordStatus({ state: 'exploded', user: 3 }).state).toBe('off')
  })
})
