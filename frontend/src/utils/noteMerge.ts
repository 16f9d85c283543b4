// Three-way merge of a note page, line by line (node-diff3): the draft the
// user is editing ("mine"), the text the draft started from ("base") and the
// text saved meanwhile by someone else, usually the AI ("theirs"). Changes to
// different lines merge cleanly, and so do two blocks diff3 only finds
// touching: lines both sides added at the same place are kept both (mine
// first, as git's union merge does: the AI's append stays last), and lines
// one side only added before or after lines the other side edited go around
// that edit. Where both sides changed the same lines the result is a conflict
// that keeps both sides, for the user to choose. Nothing here drops either.
import { diff3Merge } from 'node-diff3'

/** Lines both sides agree on after the merge. */
export interface MergeOk {
  kind: 'ok'
  lines: string[]
}

/** Lines the two sides changed differently from the base. */
export interface MergeConflict {
  kind: 'conflict'
  mine: string[]
  base: string[]
  theirs: string[]
}

export type MergeChunk = MergeOk | MergeConflict

/** A clean merge's text, or the chunks of a merge with conflicts. */
export type MergeResult = { clean: true; text: string } | { clean: false; chunks: MergeChunk[] }

/** How to settle every conflict of a merge. */
export type ConflictChoice = 'mine' | 'theirs' | 'both'

const lines = (text: string): string[] => text.split('\n')
const join = (ls: string[]): string => ls.join('\n')

/** Merges `mine` and `theirs`, two edits of `base`. */
export function mergeNote(base: string, mine: string, theirs: string): MergeResult {
  if (mine === theirs || theirs === base) return { clean: true, text: mine }
  if (mine === base) return { clean: true, text: theirs }
  const regions = diff3Merge<string>(lines(mine), lines(base), lines(theirs), { excludeFalseConflicts: true })
  const chunks: MergeChunk[] = []
  for (const r of regions) {
    if (r.ok) {
      const last = chunks[chunks.length - 1]
      if (last?.kind === 'ok') last.lines.push(...r.ok)
      else chunks.push({ kind: 'ok', lines: [...r.ok] })
    } else if (r.conflict) {
      const { a, o, b } = r.conflict
      const settled = settleAdjacent(a, o, b)
      if (settled) {
        const last = chunks[chunks.length - 1]
        if (last?.kind === 'ok') last.lines.push(...settled)
        else chunks.push({ kind: 'ok', lines: settled })
      } else {
        chunks.push({ kind: 'conflict', mine: a, base: o, theirs: b })
      }
    }
  }
  if (chunks.every((c) => c.kind === 'ok')) return { clean: true, text: join(chunks.flatMap((c) => (c as MergeOk).lines)) }
  return { clean: false, chunks }
}

/** True when `ls` holds `part` at index `at`. */
const holdsAt = (ls: string[], part: string[], at: number) => part.every((l, i) => ls[at + i] === l)

/**
 * The lines of a diff3 conflict block that is not a real conflict, or null:
 * - both sides only added lines (the base block is empty): mine, then theirs;
 * - one side kept the base block and only added lines before and/or after
 *   it: those lines around the other side's version of the block.
 */
function settleAdjacent(mine: string[], base: string[], theirs: string[]): string[] | null {
  if (base.length === 0) return [...mine, ...theirs]
  const around = (edited: string[], grown: string[]): string[] | null => {
    for (let at = 0; at + base.length <= grown.length; at++) {
      if (holdsAt(grown, base, at)) return [...grown.slice(0, at), ...edited, ...grown.slice(at + base.length)]
    }
    return null
  }
  return around(mine, theirs) ?? around(theirs, mine)
}

/**
 * The text of a merge with every conflict settled the same way: my lines,
 * theirs, or both (mine first). What merged cleanly is kept in every case.
 */
export function resolveConflicts(chunks: MergeChunk[], choice: ConflictChoice): string {
  const out: string[] = []
  for (const c of chunks) {
    if (c.kind === 'ok') out.push(...c.lines)
    else if (choice === 'mine') out.push(...c.mine)
    else if (choice === 'theirs') out.push(...c.theirs)
    else out.push(...c.mine, ...c.theirs)
  }
  return join(out)
}

/** The marker lines that open, split and close a conflict in the text. */
export const MARK_MINE = '<<<<<<<'
export const MARK_SPLIT = '======='
export const MARK_THEIRS = '>>>>>>>'

/**
 * The merge as one text to edit by hand: each conflict becomes a block of my
 * lines and theirs between marker lines (as git writes them), labelled.
 */
export function withConflictMarkers(chunks: MergeChunk[], labels: { mine: string; theirs: string }): string {
  const out: string[] = []
  for (const c of chunks) {
    if (c.kind === 'ok') out.push(...c.lines)
    else out.push(`${MARK_MINE} ${labels.mine}`, ...c.mine, MARK_SPLIT, ...c.theirs, `${MARK_THEIRS} ${labels.theirs}`)
  }
  return join(out)
}

/** True while the text still holds a conflict block written by withConflictMarkers. */
export function hasConflictMarkers(text: string): boolean {
  const ls = lines(text)
  const open = ls.findIndex((l) => l.startsWith(MARK_MINE))
  if (open < 0) return false
  const split = ls.findIndex((l, i) => i > open && l === MARK_SPLIT)
  return split > open && ls.some((l, i) => i > split && l.startsWith(MARK_THEIRS))
}

/** How many conflicts a merge has. */
export const conflictCount = (chunks: MergeChunk[]): number => chunks.filter((c) => c.kind === 'conflict').length
