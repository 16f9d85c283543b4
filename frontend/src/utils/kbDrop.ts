// Pure logic of dropping files on the Knowledge panel: which dropped paths
// go to the backend, and the report grouped by why files were skipped.
import type { DropReport } from '@/api/kbDrop'

/** The reasons the backend gives, in the order the report lists them. */
export const DROP_REASONS = ['unsupported', 'too_big', 'duplicate', 'exists', 'unreadable', 'limit'] as const

/** The extensions the knowledge base takes (a .txt is stored as .md). */
export const DROP_EXTENSIONS = ['.md', '.txt']

/** The file name at the end of a path (either separator). */
export function baseName(p: string): string {
  const parts = p.split(/[\\/]/).filter(Boolean)
  return parts[parts.length - 1] ?? p
}

/**
 * The paths worth sending: trimmed, non-empty, each once (a drop can repeat
 * a path when the same file is dragged from two places).
 */
export function dropPaths(paths: readonly unknown[] | null | undefined): string[] {
  const seen = new Set<string>()
  const out: string[] = []
  for (const p of paths ?? []) {
    if (typeof p !== 'string') continue
    const s = p.trim()
    if (!s || seen.has(s)) continue
    seen.add(s)
    out.push(s)
  }
  return out
}

/** One group of skipped files. */
export interface SkipGroup {
  reason: string
  count: number
  /** The file names (at most `max` of them). */
  names: string[]
}

/** The report in the form the panel shows it. */
export interface DropSummary {
  copied: number
  skipped: number
  groups: SkipGroup[]
}

/** Groups skipped files by reason (known reasons first), names shortened. */
export function summarizeDrop(r: DropReport, max = 5): DropSummary {
  const byReason = new Map<string, SkipGroup>()
  for (const s of r.skipped) {
    let g = byReason.get(s.reason)
    if (!g) {
      g = { reason: s.reason, count: 0, names: [] }
      byReason.set(s.reason, g)
    }
    g.count++
    if (g.names.length < max) g.names.push(baseName(s.path))
  }
  const order = (reason: string) => {
    const i = (DROP_REASONS as readonly string[]).indexOf(reason)
    return i < 0 ? DROP_REASONS.length : i
  }
  const groups = [...byReason.values()].sort((a, b) => order(a.reason) - order(b.reason))
  if (r.skippedMore > 0) groups.push({ reason: 'more', count: r.skippedMore, names: [] })
  return { copied: r.copied.length, skipped: r.skipped.length + r.skippedMore, groups }
}

/**
 * The files a drop on the message box attaches: its paths (dropPaths) that
 * are files on this computer. Wails hands a link dragged from a browser over
 * as an empty path (or, from some sources, as a URL), so such a drop gives
 * none — the message box then says so instead of doing nothing.
 */
export function attachablePaths(paths: readonly unknown[] | null | undefined): string[] {
  return dropPaths(paths).filter((p) => !p.includes('://'))
}
