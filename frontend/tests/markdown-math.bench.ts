// Issue 12: a 10,000-character reply with math (inline and display KaTeX),
// highlighted code and prices/shell variables that must stay text, streamed
// in 500 steps through the block renderer as the chat does. Prints the total
// per reply and the slowest step. Run: cd frontend && npx vitest bench --run tests/markdown-math.bench.ts
import { bench, describe } from 'vitest'
import { MarkdownBlockRenderer, clearMarkdownCache } from '@/markdown/markdown'
import { mathReply } from './markdownSamples'

const TEXT = mathReply(10_000)
const STEPS = 500
const STEP = Math.ceil(TEXT.length / STEPS)

const timing = { runs: 0, total: 0, slowest: 0, steps: [] as number[] }

function stream() {
  const r = new MarkdownBlockRenderer()
  const start = performance.now()
  for (let n = STEP; n < TEXT.length + STEP; n += STEP) {
    const done = n >= TEXT.length
    const s = performance.now()
    r.render(TEXT.slice(0, Math.min(n, TEXT.length)), { streaming: !done })
    const ms = performance.now() - s
    timing.slowest = Math.max(timing.slowest, ms)
    timing.steps.push(ms)
  }
  timing.total += performance.now() - start
  timing.runs++
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]

describe(`stream a ${TEXT.length}-character reply with math and code in ${STEPS} steps`, () => {
  bench(
    'block renderer with KaTeX and highlight.js',
    () => {
      clearMarkdownCache()
      stream()
    },
    {
      iterations: 5,
      time: 0,
      warmupIterations: 1,
      warmupTime: 0,
      setup: () => {
        Object.assign(timing, { runs: 0, total: 0, slowest: 0, steps: [] })
      },
      teardown: () => {
        if (timing.runs === 0) return
        console.log(
          `math+code: ${STEPS} steps of a ${TEXT.length}-char reply — total ${(timing.total / timing.runs).toFixed(1)} ms per reply ` +
            `(mean of ${timing.runs}); step median ${pct(timing.steps, 0.5).toFixed(2)} ms, p99 ${pct(timing.steps, 0.99).toFixed(2)} ms, ` +
            `slowest ${timing.slowest.toFixed(2)} ms`,
        )
      },
    },
  )
})
