// A 10,000-character reply streamed in 500 steps (20 characters a step, as a
// frame might bring them), rendered block by block as the chat does now and
// whole on every step as it did before. Run: npx vitest bench --run
// Besides vitest's table, each case prints its total and slowest step.
import { bench, describe } from 'vitest'
import { MarkdownBlockRenderer, clearMarkdownCache, renderMarkdown } from '@/markdown/markdown'
import { longReply } from './markdownSamples'

const TEXT = longReply(10_000)
const STEPS = 500
const STEP = Math.ceil(TEXT.length / STEPS)

interface Timing {
  runs: number
  total: number
  slowest: number
  steps: number[]
}

function stream(render: (prefix: string, streaming: boolean) => void, t: Timing) {
  const start = performance.now()
  for (let n = STEP; n < TEXT.length + STEP; n += STEP) {
    const s = performance.now()
    const done = n >= TEXT.length
    render(TEXT.slice(0, Math.min(n, TEXT.length)), !done)
    const ms = performance.now() - s
    t.slowest = Math.max(t.slowest, ms)
    t.steps.push(ms)
  }
  t.total += performance.now() - start
  t.runs++
}

const reset = (t: Timing) => () => {
  Object.assign(t, { runs: 0, total: 0, slowest: 0, steps: [] })
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]
const report = (name: string, t: Timing) => () => {
  if (t.runs === 0) return
  console.log(
    `${name}: ${STEPS} steps of a ${TEXT.length}-char reply — total ${(t.total / t.runs).toFixed(1)} ms per reply (mean of ${t.runs}); ` +
      `step median ${pct(t.steps, 0.5).toFixed(2)} ms, p99 ${pct(t.steps, 0.99).toFixed(2)} ms, slowest ${t.slowest.toFixed(2)} ms`,
  )
}

describe(`stream a ${TEXT.length}-character reply in ${STEPS} steps`, () => {
  const blocks: Timing = { runs: 0, total: 0, slowest: 0, steps: [] }
  bench(
    'block renderer (only the growing block per step)',
    () => {
      clearMarkdownCache()
      const r = new MarkdownBlockRenderer()
      stream((src, streaming) => r.render(src, { streaming }), blocks)
    },
    { iterations: 5, time: 0, warmupIterations: 1, warmupTime: 0, setup: reset(blocks), teardown: report('blocks', blocks) },
  )

  const whole: Timing = { runs: 0, total: 0, slowest: 0, steps: [] }
  bench(
    'whole-message renderMarkdown per step (before)',
    () => stream((src, streaming) => renderMarkdown(src, { streaming }), whole),
    // One run only: under jsdom every DOMPurify call leaves its parsed document
    // reachable (a jsdom NodeIterator quirk, ~1 MB per call), and 500 whole
    // renders of a long reply come close to Node's heap limit.
    { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0, setup: reset(whole), teardown: report('whole', whole) },
  )
})
