// A 1 MiB message opens at once: collapsed to its beginning, the rest
// rendered a few sections a frame on "show all" (issue 21). The frames are
// driven by hand, so what is asserted is how the work is cut up, not time.
import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { nextTick } from 'vue'

const copied: string[] = []
vi.mock('@/api/clipboard', () => ({ copyText: vi.fn(async (text: string) => void copied.push(text)) }))

import MarkdownContent from '@/components/markdown/MarkdownContent.vue'
import MessageItem from '@/components/chat/MessageItem.vue'
import { REVEAL_FRAMES, REVEAL_MAX_CHARS, REVEAL_START_CHARS, type RevealScheduler } from '@/composables/useReveal'
import { HIGHLIGHT_MAX_CHARS } from '@/markdown/highlight'
import { LONG_MESSAGE_CHARS, PREVIEW_CHARS, SectionSplitter } from '@/utils/longMessage'
import { markdownStats } from '@/markdown/markdown'
import { fromStored } from '@/utils/turn'
import { flush, testI18n } from './helpers'

/** Frames that come only when the test says so, on a clock it sets; the fallback timers never fire. */
class HandFrames implements RevealScheduler {
  queue: (() => void)[] = []
  clock = 0
  /** How far the clock moves from one frame to the next. */
  frameMs = 16
  now() {
    return this.clock
  }
  frame(cb: () => void) {
    this.queue.push(cb)
    return () => {
      this.queue = this.queue.filter((f) => f !== cb)
    }
  }
  timeout() {
    return () => {}
  }
  /** Runs the frames asked for so far; false when none was. */
  run(): boolean {
    const q = this.queue
    this.queue = []
    this.clock += this.frameMs
    for (const f of q) f()
    return q.length > 0
  }
}

let frames: HandFrames
beforeEach(() => {
  frames = new HandFrames()
  copied.length = 0
  setActivePinia(createPinia())
})

const MiB = 1 << 20

/**
 * About n characters of replies' Markdown: prose in two languages, lists,
 * code, a table, math (only prose when plain: jsdom's sanitiser is slow).
 */
function longReply(n: number, plain = false): string {
  const units = plain ? ['The quick brown fox jumps over the lazy dog, and **the dog** does not mind at all.\n\n'] : [
    'The quick brown fox jumps over the lazy dog, and **the dog** does not mind at all.\n\n',
    '吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。\n\n',
    '- first point with `inline code`\n- second point\n- third point\n\n',
    '```go\nfunc add(a, b int) int {\n\treturn a + b\n}\n```\n\n',
    '| key | value |\n|---|---|\n| 東京 | 晴れ |\n\n',
    'The formula $x^2$ holds.\n\n',
  ]
  let s = 'LONGSTART\n\n'
  for (let i = 0; s.length < n; i++) s += units[i % units.length]
  return s + 'LONGEND'
}

const view = (content: string, props: Record<string, unknown> = {}) =>
  mount(MarkdownContent, {
    props: { content, ...props },
    global: { plugins: [testI18n('en')], provide: { [REVEAL_FRAMES as symbol]: frames } },
  })

describe('a long reply', () => {
  /**
   * Runs frames until none is asked for (or maxFrames); checks that each
   * mounts sections of at most `most` weighted characters of Markdown
   * together but for its last one. Returns how many sections each frame
   * mounted.
   */
  async function runFrames(text: string, sections: () => unknown[], maxFrames = Infinity, most = REVEAL_MAX_CHARS): Promise<number[]> {
    const sizes = new SectionSplitter().split(text).sections.map((x) => x.weight)
    let count = sections().length
    const mountedPerFrame: number[] = []
    while (mountedPerFrame.length < maxFrames && frames.run()) {
      await nextTick()
      const now = sections().length
      expect(now).toBeGreaterThan(count)
      const chars = sizes.slice(count, now - 1).reduce((a, b) => a + b, 0)
      expect(chars).toBeLessThan(most)
      mountedPerFrame.push(now - count)
      count = now
    }
    return mountedPerFrame
  }

  it('mounts collapsed with its beginning shown, and "show all" renders the rest a little each frame', async () => {
    const text = longReply(MiB)
    const w = view(text)
    const sections = () => w.findAll('[data-testid="md-section"]')
    expect(sections().length).toBeGreaterThan(1) // the folded view at once
    expect(w.text()).toContain('LONGSTART')
    expect(w.text()).not.toContain('LONGEND')
    const shownChars = () => sections().reduce((n, s) => n + (s.element.textContent ?? '').length, 0)
    expect(shownChars()).toBeLessThan(2 * PREVIEW_CHARS)
    expect(w.find('[data-testid="md-more"]').text()).toMatch(/^A long message: the first \d+ KB of 1\.\d MB is shown\./)
    expect(w.get('[data-testid="show-all"]').text()).toMatch(/^Show all \(1\.\d MB\)$/)
    expect(frames.queue).toHaveLength(0) // nothing more is rendered until asked

    await w.get('[data-testid="show-all"]').trigger('click')
    expect(w.emitted('update:expanded')).toEqual([[true]])
    await nextTick()
    expect(w.find('[data-testid="md-rendering"]').text()).toMatch(/^Showing the rest… \d+%$/)
    // The first frames (all of them would take minutes in jsdom: see the next test).
    expect(await runFrames(text, sections, 4)).toHaveLength(4)
    expect(frames.queue).toHaveLength(1) // and the next is asked for
    expect(w.text()).not.toContain('LONGEND')
  }, 60_000)

  it('renders all of a long reply over many frames, loses nothing, and collapses again', async () => {
    // 256 KiB: the whole of 1 MiB takes a minute in jsdom (the end-to-end
    // test, scripts/e2e-long.sh, shows all of 1 MiB in the real window).
    const text = longReply(MiB / 4, true)
    const w = view(text, { expanded: true })
    const sections = () => Array.from(w.element.children as HTMLCollection).filter((c: Element) => c.classList.contains('md-section'))
    // Frames that come at once: the budget doubles each frame, up to its cap.
    const perFrame = await runFrames(text, sections)
    expect(perFrame.length).toBeGreaterThan(text.length / REVEAL_MAX_CHARS)
    expect(perFrame[0]).toBe(1)
    expect(Math.max(...perFrame)).toBeGreaterThan(4)
    expect(w.text()).toContain('LONGEND')
    expect(w.find('[data-testid="md-more"]').exists()).toBe(false)
    expect(w.element.querySelectorAll('strong').length).toBe(text.split('**the dog**').length - 1)
    await w.get('[data-testid="show-less"]').trigger('click')
    expect(w.emitted('update:expanded')).toEqual([[false]])
    await w.setProps({ expanded: false })
    expect(w.text()).not.toContain('LONGEND')
    expect(w.find('[data-testid="show-all"]').exists()).toBe(true)
  }, 60_000)

  it('mounts one section a frame while frames come late (a page costly to lay out, a busy machine)', async () => {
    const text = longReply(MiB / 8, true)
    frames.frameMs = 120
    const w = view(text, { expanded: true })
    const sections = () => Array.from(w.element.children as HTMLCollection).filter((c: Element) => c.classList.contains('md-section'))
    const perFrame = await runFrames(text, sections, Infinity, REVEAL_START_CHARS)
    expect(perFrame.length).toBeGreaterThan(10)
    expect(perFrame.slice(2).every((n) => n === 1)).toBe(true)
    expect(w.text()).toContain('LONGEND')
  }, 60_000)

  it('keeps a short reply as one block list, with no section or control', () => {
    const w = view(longReply(LONG_MESSAGE_CHARS - 100, true))
    expect(w.find('[data-testid="md-long"]').exists()).toBe(false)
    expect(w.find('[data-testid="show-all"]').exists()).toBe(false)
    expect(w.text()).toContain('LONGEND')
  }, 30_000)

  it('shows the beginning of one huge code block, and all of it on "show all" in pieces that copy whole', async () => {
    const code = 'func add(a, b int) int { return a + b } // keep adding\n'.repeat(20_000) // ~1.1 MB
    const w = view('Here it is:\n\n```go\n' + code + '```\n')
    const preview = () => w.find('[data-testid="md-preview"]').exists()
      ? w.get('[data-testid="md-preview"]') : w.get('[data-testid="md-section"]')
    expect(preview().text()).toContain('Here it is:')
    expect(w.text()).toContain('func add')
    expect(w.text().length).toBeLessThan(3 * PREVIEW_CHARS)
    await w.get('[data-testid="show-all"]').trigger('click')
    while (frames.run()) await nextTick()
    await nextTick()
    // One 1 MiB block laid out in one piece held the window for seconds
    // (e2e-long step 4): it is cut into code blocks of its own lines.
    const pieces = w.findAll('[data-testid="md-section"] pre code')
    expect(pieces.length).toBeGreaterThan(50)
    expect(pieces.map((p) => p.element.textContent).join('\n')).toBe(code.slice(0, -1)) // the fence's last line break is not code
    for (const p of pieces) expect((p.element.textContent ?? '').length).toBeLessThan(HIGHLIGHT_MAX_CHARS)
    expect(pieces[1].find('.hljs-keyword').exists()).toBe(true) // each piece is small enough to highlight
    // The copy button of any piece copies the whole block.
    copied.length = 0
    const buttons = w.findAll('[data-testid="md-section"] .md-copy')
    for (const b of [buttons[0], buttons[7], buttons[buttons.length - 1]]) await b.trigger('click')
    await flush(1)
    expect(copied).toHaveLength(3)
    for (const c of copied) expect(c).toBe(code.slice(0, -1))
  }, 60_000)

  it('streams a long reply whole: only the growing section renders again, the closed ones once', async () => {
    const text = longReply(120_000)
    const w = view(text.slice(0, 1000), { streaming: true })
    let before = markdownStats.blockRenders
    const perStep: number[] = []
    for (let n = 5000; n < text.length; n += 5000) {
      before = markdownStats.blockRenders
      await w.setProps({ content: text.slice(0, n) })
      while (frames.run()) await nextTick()
      await flush(1) // the deferred render of a slow growing block
      perStep.push(markdownStats.blockRenders - before)
    }
    expect(w.find('[data-testid="show-all"]').exists()).toBe(false)
    expect(w.findAll('[data-testid="md-section"]').length).toBeGreaterThan(10)
    // A step renders the blocks of the text that arrived (a section closing
    // renders its last blocks once more), never the reply so far.
    expect(Math.max(...perStep)).toBeLessThan(120)
    await w.setProps({ content: text, streaming: false })
    await nextTick()
    // Finished and not expanded: it is collapsed like any long message.
    expect(w.find('[data-testid="show-all"]').exists()).toBe(true)
  }, 60_000)
})

describe('a long message in the chat', () => {
  const message = (role: 'user' | 'assistant', content: string) =>
    fromStored({
      id: 7, sessionId: 's', role, content, status: 'complete', error: '', model: '', createdAt: '2026-01-01T00:00:00Z',
      archived: false, tools: [],
    } as never)
  const item = (role: 'user' | 'assistant', content: string) =>
    mount(MessageItem, {
      props: { message: message(role, content) },
      global: { plugins: [testI18n('ja')], provide: { [REVEAL_FRAMES as symbol]: frames } },
    })

  it('a user message of 1 MiB shows its beginning as typed, and Copy takes all of it', async () => {
    const typed = 'ログをそのまま貼ります: ' + 'ERROR connection reset by peer\n'.repeat(MiB / 31)
    const w = item('user', typed)
    const parts = () => w.findAll('[data-testid="plain-part"]')
    expect(parts().length).toBeLessThanOrEqual(3)
    expect(parts()[0].text().startsWith('ログをそのまま貼ります')).toBe(true)
    expect(w.get('[data-testid="show-all"]').text()).toBe('すべて表示（1.0 MB）')
    await w.get('.copy-msg').trigger('click')
    await flush()
    expect(copied).toEqual([typed])
    await w.get('[data-testid="show-all"]').trigger('click')
    await nextTick()
    let renderFrames = 0
    while (frames.run()) {
      await nextTick()
      renderFrames++
    }
    expect(renderFrames).toBeGreaterThan(10)
    expect(parts().map((p) => p.element.textContent).join('')).toBe(typed)
    expect(w.get('[data-testid="show-less"]').text()).toBe('折りたたむ')
  })

  it('an assistant reply of 1 MiB copies whole while collapsed', async () => {
    const text = longReply(MiB)
    const w = item('assistant', text)
    expect(w.text()).not.toContain('LONGEND')
    await w.get('.copy-msg').trigger('click')
    await flush()
    expect(copied).toEqual([text])
  })
})
