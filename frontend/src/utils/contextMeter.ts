// Pure helpers of the context meter: the bar's segments and the list of
// what was left out or cut, from a ContextReport (all sizes in tokens).
import type { ContextReport } from '@/api/context'

/** The layers the meter knows by name (others are shown by their id). */
export const KNOWN_LAYERS = ['system', 'knowledge', 'notes', 'pinned_notes', 'kb', 'memory', 'clock'] as const

/** One coloured part of the bar. */
export interface Segment {
  /**
   * "prompt" (base prompt + the newest message), "system" (the chat's own
   * system prompt), "tools" (their definitions), a layer's id, or "history".
   */
  key: string
  tokens: number
  /** Width as a percentage of the window. */
  percent: number
  /** Something of this part was left out or cut. */
  cut: boolean
}

/** One entry of the "left out or cut" list. */
export interface LeftOutEntry {
  /** The layer's id, or "history". */
  layer: string
  kind: string
  id: string
  title: string
  /** budget | truncated | sections | char_limit | top_k | history | attachments_too_long | more (count others not listed) */
  reason: string
  kept: number
  total: number
  unit: string
  /** For "history": how many of the oldest messages were left out. */
  count: number
}

function pct(tokens: number, window: number): number {
  if (window <= 0 || tokens <= 0) return 0
  return Math.min(100, (tokens / window) * 100)
}

/** The bar's segments in request order; empty parts are left out. */
export function segments(r: ContextReport): Segment[] {
  const window = r.window > 0 ? r.window : r.input
  const out: Segment[] = []
  const prompt = r.prompt + r.message
  if (prompt > 0) out.push({ key: 'prompt', tokens: prompt, percent: pct(prompt, window), cut: false })
  const attached = r.attachments ?? 0
  // Documents that do not fit beside the conversation (a preview): sending
  // brings the offer, so the part shows as cut.
  if (attached > 0) out.push({ key: 'attachments', tokens: attached, percent: pct(attached, window), cut: !!r.attachmentsTooLong })
  const system = r.system ?? 0
  if (system > 0 || r.systemCut) {
    out.push({ key: 'system', tokens: system, percent: pct(system, window), cut: !!r.systemCut })
  }
  const tools = r.tools ?? 0
  const toolsCut = (r.toolsLeftOut ?? []).length > 0
  if (tools > 0 || toolsCut) out.push({ key: 'tools', tokens: tools, percent: pct(tools, window), cut: toolsCut })
  for (const u of r.layers) {
    const cut = u.leftOut.length > 0 || u.leftOutMore > 0
    if (u.tokens <= 0 && !cut) continue
    out.push({ key: u.layer, tokens: u.tokens, percent: pct(u.tokens, window), cut })
  }
  if (r.history.tokens > 0 || r.history.leftOut > 0) {
    out.push({
      key: 'history',
      tokens: r.history.tokens,
      percent: pct(r.history.tokens, window),
      cut: r.history.leftOut > 0,
    })
  }
  return out
}

/**
 * Everything left out or cut: the tools not sent (an MCP server's, when
 * they did not all fit or passed the provider's limit on their number),
 * the layers' items in layer order, then the history.
 */
export function leftOutEntries(r: ContextReport): LeftOutEntry[] {
  const out: LeftOutEntry[] = []
  if (r.attachmentsTooLong) {
    // A preview's documents that sending would offer to send in part.
    out.push({
      layer: 'attachments', kind: 'block', id: '', title: '', reason: 'attachments_too_long',
      kept: 0, total: r.attachments ?? 0, unit: 'tokens', count: 0,
    })
  }
  for (const o of r.toolsLeftOut ?? []) {
    out.push({ layer: 'tools', kind: o.kind, id: o.id, title: o.title, reason: o.reason, kept: o.kept, total: o.total, unit: o.unit, count: 0 })
  }
  if (r.systemCut) {
    // The chat's system prompt yields only to the newest message: cut (or,
    // with no room at all, left out) so the message fits.
    const kept = r.system ?? 0
    out.push({
      layer: 'system', kind: 'block', id: '', title: '', reason: kept > 0 ? 'truncated' : 'budget',
      kept, total: r.systemFull ?? 0, unit: 'tokens', count: 0,
    })
  }
  for (const u of r.layers) {
    for (const o of u.leftOut) {
      out.push({
        layer: u.layer,
        kind: o.kind,
        id: o.id,
        title: o.title,
        reason: o.reason,
        kept: o.kept,
        total: o.total,
        unit: o.unit,
        count: 0,
      })
    }
    if (u.leftOutMore > 0) {
      out.push({ layer: u.layer, kind: 'more', id: '', title: '', reason: 'more', kept: 0, total: 0, unit: '', count: u.leftOutMore })
    }
  }
  if (r.history.leftOut > 0) {
    out.push({ layer: 'history', kind: 'messages', id: '', title: '', reason: 'history', kept: 0, total: 0, unit: '', count: r.history.leftOut })
  }
  return out
}

/** How full the request budget is: "ok" below 75 %, "high" below 100 %, "over" when the turn would fail. */
export function fillLevel(r: ContextReport): 'ok' | 'high' | 'over' {
  if (r.tooLong || (r.input > 0 && r.used > r.input)) return 'over'
  if (r.input > 0 && r.used >= r.input * 0.75) return 'high'
  return 'ok'
}

/**
 * A draft too long for the model even alone: how many tokens it needs, how
 * many fit (the request budget less the system prompt) and how many are
 * over. null when the report is not too long.
 */
export function tooLongBy(r: ContextReport): { message: number; fits: number; over: number } | null {
  if (!r.tooLong) return null
  const fits = Math.max(0, r.input - r.prompt - (r.tools ?? 0))
  return { message: r.message, fits, over: Math.max(1, r.message - fits) }
}

/** Tokens as a short figure: 950, 12.3k, 128k. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(Math.max(0, Math.round(n)))
  if (n < 10000) return (n / 1000).toFixed(1).replace(/\.0$/, '') + 'k'
  return Math.round(n / 1000) + 'k'
}
