// Pure helpers for the knowledge-base browser: search excerpts, links between
// KB documents, progress and headings. Paths are relative to the KB root and
// slash-separated, as KBService returns them.

/** The guide seeded into a new knowledge base (knowledge_base/ in the repository). */
export const SEEDED_GUIDE = 'playchat-guide.md'

/** Status polling while the browser is open: fast during indexing, slow otherwise. */
export const KB_POLL_FAST_MS = 1000
export const KB_POLL_SLOW_MS = 5000

/** The marks the backend puts around matched terms in an excerpt. */
export const MARK_OPEN = '«'
export const MARK_CLOSE = '»'

export interface ExcerptPart {
  text: string
  mark: boolean
}

/**
 * Splits an excerpt into plain and matched («…») runs, marks removed. An
 * unclosed « stays text. The parts are rendered as text nodes, never as HTML.
 */
export function excerptParts(excerpt: string): ExcerptPart[] {
  const out: ExcerptPart[] = []
  const push = (text: string, mark: boolean) => {
    if (!text) return
    const last = out[out.length - 1]
    if (last && last.mark === mark) last.text += text
    else out.push({ text, mark })
  }
  let i = 0
  while (i < excerpt.length) {
    const open = excerpt.indexOf(MARK_OPEN, i)
    if (open < 0) break
    const close = excerpt.indexOf(MARK_CLOSE, open + 1)
    if (close < 0) break
    push(excerpt.slice(i, open), false)
    push(excerpt.slice(open + 1, close), true)
    i = close + 1
  }
  push(excerpt.slice(i), false)
  return out
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/

/**
 * Resolves a link found in the KB document `currentPath` to the KB document
 * it points to, or null when it is not one: a URL with a scheme, an absolute
 * path, a path climbing above the KB root, a non-.md target, or a bare
 * #fragment. Percent-escapes are decoded; the query and fragment are dropped.
 */
export function resolveKbLink(currentPath: string, href: string): string | null {
  let h = href.trim()
  const cut = h.search(/[?#]/)
  if (cut >= 0) h = h.slice(0, cut)
  if (!h || SCHEME.test(h)) return null
  let rel: string
  try {
    rel = decodeURIComponent(h)
  } catch {
    return null
  }
  if (CONTROL.test(rel)) return null
  rel = rel.replace(/\\/g, '/')
  if (rel.startsWith('/') || /^[a-z]:/i.test(rel)) return null
  const parts = currentPath.replace(/\\/g, '/').split('/').slice(0, -1).filter((p) => p !== '')
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue
    if (seg === '..') {
      if (parts.length === 0) return null // would leave the KB root
      parts.pop()
      continue
    }
    parts.push(seg)
  }
  const out = parts.join('/')
  return /\.md$/i.test(out) ? out : null
}

/** The decoded #fragment of a link ("" when it has none). */
export function linkFragment(href: string): string {
  const i = href.indexOf('#')
  if (i < 0) return ''
  const frag = href.slice(i + 1)
  try {
    return decodeURIComponent(frag)
  } catch {
    return frag
  }
}

/** Whole percent done of a pass, 0–100 (0 when nothing is counted). */
export function progressPercent(done: number, total: number): number {
  if (!Number.isFinite(done) || !Number.isFinite(total) || total <= 0) return 0
  return Math.floor(Math.min(1, Math.max(0, done / total)) * 100)
}

/** The folders above a path, outermost first: "a/b/c.md" → ["a", "a/b"]. */
export function ancestorFolders(path: string): string[] {
  const parts = path.split('/').filter((p) => p !== '')
  const out: string[] = []
  for (let i = 1; i < parts.length; i++) out.push(parts.slice(0, i).join('/'))
  return out
}

/** True when a root folder's entries are nothing or only the seeded guide. */
export function isSeedOnly(entries: { name: string; dir: boolean }[]): boolean {
  return entries.every((e) => !e.dir && e.name === SEEDED_GUIDE)
}

/** The last heading of a heading path ("A › B" → "B"). */
export function headingLeaf(heading: string): string {
  const parts = heading.split(' › ')
  return (parts[parts.length - 1] ?? '').trim()
}

/** A GitHub-style anchor slug: "Getting started!" → "getting-started". */
export function slugify(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase()

/** True when a rendered heading's text is `target`, given as heading text or as an anchor slug. */
export function headingMatches(text: string, target: string): boolean {
  if (!target.trim()) return false
  return squash(text) === squash(target) || slugify(text) === slugify(target)
}

/** A rendered heading: its explicit anchor ("" when it has none) and its text. */
export interface HeadingInfo {
  anchor: string
  text: string
}

/**
 * The index of the heading a scroll target names: first one whose explicit
 * anchor ("## Usage {#basic-usage}") is the target, else one whose text or
 * slug matches; -1 when none does.
 */
export function findHeading(headings: HeadingInfo[], target: string): number {
  const t = target.trim()
  if (!t) return -1
  const byAnchor = headings.findIndex((h) => h.anchor !== '' && h.anchor === t)
  return byAnchor >= 0 ? byAnchor : headings.findIndex((h) => headingMatches(h.text, t))
}

/** A file size for people: 512 B, 3.4 KB, 1.2 MB. */
export function formatBytes(size: number): string {
  if (!Number.isFinite(size) || size < 1024) return `${Math.max(0, Math.round(size || 0))} B`
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`
  return `${(size / (1024 * 1024)).toFixed(1)} MB`
}

/** The status fields that tell whether the index's contents moved on. */
export interface IndexMarks {
  indexing: boolean
  indexed: number
  lastIndexedAt: string
  failed: unknown[]
}

/**
 * True when a new status shows a settled index whose contents changed since
 * the previous one (a pass finished, or the watcher indexed a file): the
 * tree, the open document and the results are then worth fetching again.
 */
export function indexChanged(prev: IndexMarks, next: IndexMarks): boolean {
  if (next.indexing) return false
  return (
    prev.indexing ||
    prev.indexed !== next.indexed ||
    prev.lastIndexedAt !== next.lastIndexedAt ||
    prev.failed.length !== next.failed.length
  )
}
