// Debug-only memory statistics of the page (issue 7). The app sets
// window.__playchatMemStats = N when PLAYCHAT_DEBUG_MEMSTATS=N is in its
// environment (app/webview/memstats.go); then every N finished turns the page
// emits what it holds on "debug:memstats" and the app prints it. Without the flag
// noteTurnEnded() is a counter increment and nothing else.
import { EventsEmit } from '../../wailsjs/runtime/runtime'
import { observedCount } from '@/composables/useNearViewport'
import { drawnDiagramCount, katexCacheSize, markdownCacheStats } from '@/markdown'

declare global {
  interface Window {
    __playchatMemStats?: number
  }
}

/** Figures a store adds to the report (sizes of its lists and maps). */
type Probe = () => Record<string, number>
const probes = new Map<string, Probe>()

/** Registers a store's figures under name (stores call it once). */
export function addMemStatsProbe(name: string, probe: Probe) {
  probes.set(name, probe)
}

let turnsEnded = 0

/** What the page holds now. */
export function collectMemStats(): Record<string, number> {
  const out: Record<string, number> = {
    turns: turnsEnded,
    domNodes: document.getElementsByTagName('*').length,
    messages: document.querySelectorAll('[data-testid="message"]').length,
    mdBlocks: document.querySelectorAll('.md-block').length,
    mdPlaceholders: document.querySelectorAll('[data-testid="md-placeholder"]').length,
    styleSheets: document.styleSheets.length,
  }
  const scroller = document.querySelector<HTMLElement>('[data-testid="scroller"]')
  if (scroller) out.observed = observedCount(scroller)
  const md = markdownCacheStats()
  out.mdCacheEntries = md.entries
  out.mdCacheChars = md.chars
  out.katexCache = katexCacheSize()
  out.mermaidDrawn = drawnDiagramCount()
  for (const [name, probe] of probes) {
    for (const [k, v] of Object.entries(probe())) out[`${name}.${k}`] = v
  }
  return out
}

/** Called when a turn ends: reports every N turns when the app asked for it. */
export function noteTurnEnded() {
  turnsEnded++
  const every = typeof window === 'undefined' ? 0 : (window.__playchatMemStats ?? 0)
  if (every > 0 && turnsEnded % every === 0) {
    try {
      EventsEmit('debug:memstats', collectMemStats())
    } catch {
      // debugging aid only
    }
  }
}
