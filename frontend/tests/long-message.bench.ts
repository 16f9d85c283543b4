// What opening a 1 MiB reply costs the page's main thread (issue 21): the
// whole reply rendered in one pass, as MarkdownContent did before, against
// what it does now — cut the reply's beginning into sections and render the
// folded view, then one frame of "show all" at the largest budget. Also
// highlight.js on a long code block, against the plain code shown past
// HIGHLIGHT_MAX_CHARS. Run: npx vitest bench --run tests/long-message.bench.ts
// (jsdom's DOMPurify is several times slower than WebKit's: compare the
// cases with each other, not with the window). Each case prints its time.
import { bench, describe } from 'vitest'
import { REVEAL_MAX_CHARS } from '@/composables/useReveal'
import hljs from 'highlight.js/lib/core'
import { highlightCode } from '@/markdown/highlight'
import { PREVIEW_CHARS, SectionSplitter } from '@/utils/longMessage'
import { MarkdownBlockRenderer, clearMarkdownCache } from '@/markdown/markdown'

const MiB = 1 << 20

/** About `size` characters of varied paragraphs (no two alike, so the block cache does not help). */
function reply(size: number): string {
  const parts: string[] = []
  let n = 0
  for (let i = 0; n < size; i++) {
    const p =
      i % 3 === 0
        ? `Paragraph ${i}: the quick brown fox jumps over the lazy dog, and **dog ${i}** does not mind.\n\n`
        : i % 3 === 1
          ? `吾輩は猫である（${i}）。名前はまだ無い。どこで生れたかとんと見当がつかぬ。\n\n`
          : `- point ${i} with \`code ${i}\`\n- another point\n\n`
    parts.push(p)
    n += p.length
  }
  return parts.join('')
}

const TEXT = reply(MiB)
/** The one-pass render of all 1 MiB takes jsdom over a minute a run: a quarter stands in for it. */
const QUARTER = reply(MiB / 4)
const CODE = 'func add(a, b int) int { return a + b } // keep adding\n'.repeat(5000) // ~280,000 characters

const once = { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 }
const timed = (name: string, fn: () => void) => () => {
  clearMarkdownCache()
  const start = performance.now()
  fn()
  console.log(`${name}: ${(performance.now() - start).toFixed(0)} ms`)
}

describe(`open a reply of ${TEXT.length} characters`, () => {
  bench(
    `a quarter of it (${QUARTER.length} characters) in one pass, as before (all of it took four times as long)`,
    timed('whole quarter', () => new MarkdownBlockRenderer().render(QUARTER)),
    once,
  )
  bench(
    'the folded view: its sections up to PREVIEW_CHARS (now)',
    timed('folded', () => {
      const { sections } = new SectionSplitter().split(TEXT, PREVIEW_CHARS)
      let weight = 0
      for (const s of sections) {
        if (weight >= PREVIEW_CHARS) break
        new MarkdownBlockRenderer().render(s.text)
        weight += s.weight
      }
    }),
    once,
  )
  bench(
    'one frame of "show all" at the largest budget (now)',
    timed('frame', () => {
      const { sections } = new SectionSplitter().split(TEXT)
      let weight = 0
      for (const s of sections.slice(2)) {
        if (weight + s.weight > REVEAL_MAX_CHARS) break
        new MarkdownBlockRenderer().render(s.text)
        weight += s.weight
      }
    }),
    once,
  )
  bench('cutting all of it into sections (now, on "show all")', timed('split', () => new SectionSplitter().split(TEXT)), {
    ...once,
    iterations: 5,
  })
})

describe(`a code block of ${CODE.length} characters`, () => {
  // highlight.js itself (highlightCode registered Go on this instance).
  bench('highlight.js (before)', timed('highlight', () => void hljs.highlight(CODE, { language: 'go', ignoreIllegals: true })), once)
  bench('plain past HIGHLIGHT_MAX_CHARS (now)', timed('plain', () => highlightCode(CODE, 'go')), once)
})
