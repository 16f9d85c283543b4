// Debug-only memory statistics (utils/memStats.ts): silent unless the app
// armed them (window.__playchatMemStats), then one report every N turns.
import { afterEach, describe, expect, it, vi } from 'vitest'

const emitted: unknown[][] = []
vi.mock('../wailsjs/runtime/runtime', () => ({
  EventsOn: vi.fn(),
  EventsEmit: (...args: unknown[]) => emitted.push(args),
}))

import { addMemStatsProbe, collectMemStats, noteTurnEnded } from '@/utils/memStats'

afterEach(() => {
  delete window.__playchatMemStats
  emitted.length = 0
})

describe('memory statistics', () => {
  it('reports nothing unless the app asked for it', () => {
    for (let i = 0; i < 10; i++) noteTurnEnded()
    expect(emitted).toEqual([])
  })

  it('reports every N turns, with the page figures and the stores’ probes', () => {
    document.body.innerHTML = '<div data-testid="scroller"><article data-testid="message"></article></div>'
    addMemStatsProbe('test', () => ({ size: 7 }))
    window.__playchatMemStats = 3
    for (let i = 0; i < 7; i++) noteTurnEnded()
    expect(emitted).toHaveLength(2)
    const [name, stats] = emitted[1] as [string, Record<string, number>]
    expect(name).toBe('debug:memstats')
    expect(stats.messages).toBe(1)
    expect(stats['test.size']).toBe(7)
    expect(stats.domNodes).toBeGreaterThan(0)
    expect(Object.keys(collectMemStats())).toContain('mdCacheEntries')
  })
})
