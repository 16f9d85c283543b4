// The order of the notes panel's tabs: grouping pages into section runs and
// computing the complete new order after a drag and drop, which the panel
// sends to NotesService.Reorder in one call.
//
// Invariant (the backend checks it too): the pages of one named section are
// contiguous; ungrouped pages (section "") may sit anywhere between groups,
// but never inside another section's run.

/** The fields of a page that ordering needs. */
export interface OrderedPage {
  id: number
  section: string
}

/** Where a dragged tab lands: next to a tab, or the zone after the last group. */
export type DropTarget = { kind: 'before' | 'after'; pageId: number } | { kind: 'end' }

/** A drop to apply: every page id in the new order, and the dragged page's new section. */
export interface DropResult {
  order: number[]
  section: string
}

/** A run of adjacent tabs of one section ("" = ungrouped tabs, shown without a label). */
export interface PageGroup<P extends OrderedPage> {
  section: string
  pages: P[]
}

/** Splits pages (in tab order) into runs of adjacent pages of the same section. */
export function groupPages<P extends OrderedPage>(pages: readonly P[]): PageGroup<P>[] {
  const groups: PageGroup<P>[] = []
  for (const p of pages) {
    const last = groups[groups.length - 1]
    if (last && last.section === p.section) last.pages.push(p)
    else groups.push({ section: p.section, pages: [p] })
  }
  return groups
}

/** The distinct named sections, in tab order. */
export function sectionNames(pages: readonly OrderedPage[]): string[] {
  const out: string[] = []
  for (const p of pages) if (p.section && !out.includes(p.section)) out.push(p.section)
  return out
}

/** True when every named section's pages are adjacent. */
export function isContiguous(pages: readonly OrderedPage[]): boolean {
  const seen = new Set<string>()
  for (const g of groupPages(pages)) {
    if (!g.section) continue
    if (seen.has(g.section)) return false
    seen.add(g.section)
  }
  return true
}

/**
 * Gathers each named section's pages at its first run, keeping every other
 * relative order (the backend's normalize does the same). The identity on a
 * contiguous list.
 */
export function gatherSections<P extends OrderedPage>(pages: readonly P[]): P[] {
  const slots: P[][] = []
  const bySection = new Map<string, P[]>()
  for (const p of pages) {
    const slot = p.section ? bySection.get(p.section) : undefined
    if (slot) {
      slot.push(p)
      continue
    }
    const fresh = [p]
    slots.push(fresh)
    if (p.section) bySection.set(p.section, fresh)
  }
  return slots.flat()
}

/**
 * The result of dropping page `draggedId` on `target`, or null when the drop
 * changes nothing (onto itself, back where it was, or an unknown page).
 *
 * - before/after a tab: the page goes right next to that tab and takes its
 *   section ("" when the tab is ungrouped);
 * - end: the page is ungrouped and goes after every other page.
 *
 * The order always lists every id exactly once and keeps sections contiguous.
 */
export function computeDrop(
  pages: readonly OrderedPage[],
  draggedId: number,
  target: DropTarget,
): DropResult | null {
  const dragged = pages.find((p) => p.id === draggedId)
  if (!dragged) return null
  const rest = pages.filter((p) => p.id !== draggedId)

  let section: string
  let at: number
  if (target.kind === 'end') {
    section = ''
    at = rest.length
  } else {
    if (target.pageId === draggedId) return null
    const i = rest.findIndex((p) => p.id === target.pageId)
    if (i < 0) return null
    section = rest[i].section
    at = target.kind === 'before' ? i : i + 1
  }

  const moved: OrderedPage = { id: dragged.id, section }
  const next = [...rest.slice(0, at), moved, ...rest.slice(at)]
  // Next to a tab of its new section the page never splits a run, so this is
  // the identity for a valid list; it only repairs a list that was already broken.
  const order = gatherSections(next).map((p) => p.id)

  const unchanged =
    section === dragged.section && order.every((id, k) => id === pages[k].id)
  return unchanged ? null : { order, section }
}

/** Which half of a tab the pointer is over: its left half means "before". */
export function dropSide(clientX: number, left: number, width: number): 'before' | 'after' {
  return clientX < left + width / 2 ? 'before' : 'after'
}
