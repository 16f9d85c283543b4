// MarkdownContent's code-block copy buttons and mermaid diagrams, and the
// copy-whole-message button (issue 12).
import { mount } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { nextTick } from 'vue'

const copied: string[] = []
let copyFails = false
vi.mock('@/api/clipboard', () => ({
  copyText: vi.fn(async (text: string) => {
    if (copyFails) throw new Error('denied')
    copied.push(text)
  }),
}))

import CopyMessageButton from '@/components/chat/CopyMessageButton.vue'
import MarkdownContent from '@/components/markdown/MarkdownContent.vue'
import { renderMarkdown } from '@/markdown/markdown'
import { mermaidLoader, resetMermaid } from '@/markdown/mermaidBlocks'
import { flush, testI18n } from './helpers'

beforeEach(() => {
  copied.length = 0
  copyFails = false
  resetMermaid()
})
afterEach(() => {
  vi.restoreAllMocks()
  vi.useRealTimers()
})

const show = (content: string, opts: { streaming?: boolean; locale?: 'ja' | 'en' } = {}) =>
  mount(MarkdownContent, {
    props: { content, streaming: opts.streaming },
    global: { plugins: [testI18n(opts.locale ?? 'en')] },
    attachTo: document.body,
  })

describe('code blocks', () => {
  it('are highlighted with a language label', () => {
    const root = document.createElement('div')
    root.innerHTML = renderMarkdown('```python\ndef f(x):\n    return "hi"  # note\n```')
    expect(root.querySelector('.md-code-head .md-code-lang')?.textContent).toBe('python')
    expect(root.querySelector('pre code.hljs.language-python .hljs-keyword')?.textContent).toBe('def')
    expect(root.querySelector('pre code .hljs-string')?.textContent).toBe('"hi"')
    expect(root.querySelector('pre code .hljs-comment')?.textContent).toBe('# note')
  })

  it('highlight every registered language and their common aliases', () => {
    for (const lang of ['js', 'ts', 'py', 'go', 'bash', 'sh', 'shell', 'json', 'yaml', 'yml', 'sql', 'html', 'xml',
      'css', 'rust', 'rs', 'java', 'c', 'cpp', 'diff', 'markdown', 'md']) {
      const html = renderMarkdown('```' + lang + '\nx = 1 // "s"\n```')
      expect(html, lang).toContain('md-code-lang">' + lang + '<')
    }
    expect(renderMarkdown('```go\nfunc main() {}\n```')).toContain('hljs-keyword')
  })

  it('an unknown language is plain escaped text with its label', () => {
    const root = document.createElement('div')
    root.innerHTML = renderMarkdown('```brainfuck\n<script>+-</script>\n```')
    expect(root.querySelector('.md-code-lang')?.textContent).toBe('brainfuck')
    expect(root.querySelector('pre code')?.textContent).toBe('<script>+-</script>')
    expect(root.querySelector('script')).toBeNull()
  })

  it('the copy button copies the source byte for byte', async () => {
    const code = "awk '{print $1, $2}' f\n\tif (a < b && c > d) { x = \"&amp;\" }  \n\n\\(not math\\) $x$ 日本語 `tick`\n"
    const w = show('Run:\n\n```sh\n' + code + '```')
    await flush()
    const buttons = w.findAll('button.md-copy')
    expect(buttons).toHaveLength(1)
    expect(buttons[0].text()).toBe('Copy')
    await buttons[0].trigger('click')
    await flush()
    expect(copied).toEqual([code.slice(0, -1)]) // a fence's content ends before its closing line
    expect(buttons[0].text()).toBe('Copied')
    w.unmount()
  })

  it('a code block without a language has a copy button too, labelled in Japanese', async () => {
    const w = show('```\nplain $1\n```', { locale: 'ja' })
    await flush()
    const b = w.get('button.md-copy')
    expect(b.text()).toBe('コピー')
    expect(b.attributes('aria-label')).toBe('コードをコピー')
    await b.trigger('click')
    await flush()
    expect(copied).toEqual(['plain $1'])
    expect(b.text()).toBe('コピーしました')
    w.unmount()
  })

  it('says when copying failed, then shows its label again', async () => {
    vi.useFakeTimers()
    copyFails = true
    const w = show('```js\nlet a\n```')
    await nextTick()
    await nextTick()
    const b = w.get('button.md-copy')
    await b.trigger('click')
    await vi.runAllTicks()
    await Promise.resolve()
    await Promise.resolve()
    expect(b.text()).toBe('Could not copy')
    vi.advanceTimersByTime(2000)
    expect(b.text()).toBe('Copy')
    w.unmount()
  })

  it('keeps its copy button while a later block streams', async () => {
    const w = show('```js\nlet a\n```\n\nmore', { streaming: true })
    await flush()
    await w.setProps({ content: '```js\nlet a\n```\n\nmore text' })
    await flush()
    expect(w.findAll('button.md-copy')).toHaveLength(1)
    w.unmount()
  })
})

describe('mermaid diagrams', () => {
  function fakeMermaid(opts: { fail?: string } = {}) {
    const api = {
      initialize: vi.fn(),
      parse: vi.fn(async () => {
        if (opts.fail) throw new Error(opts.fail + '\nExpecting more')
        return {}
      }),
      render: vi.fn(async (id: string) => ({
        svg: `<svg id="${id}" onload="alert(1)"><g><text>A to B</text></g><script>alert(2)</script></svg>`,
      })),
    }
    const load = vi.spyOn(mermaidLoader, 'load').mockResolvedValue(api as never)
    return { api, load }
  }
  const diagram = '```mermaid\ngraph TD\n  A --> B\n```'

  it('are not loaded for a reply without one', async () => {
    const { load } = fakeMermaid()
    const w = show('# Title\n\n```js\nlet a\n```')
    await flush()
    expect(load).not.toHaveBeenCalled()
    w.unmount()
  })

  it('are not drawn while the fence is still streaming', async () => {
    const { load } = fakeMermaid()
    const w = show('```mermaid\ngraph TD\n  A --> B', { streaming: true })
    await flush()
    expect(load).not.toHaveBeenCalled()
    expect(w.find('.md-mermaid-open pre code').text()).toContain('A --> B')
    await w.setProps({ content: diagram + '\n\nAfter', streaming: true })
    // (a slow first render defers the next one by a few frames)
    await vi.waitFor(() => expect(w.find('.md-mermaid-diagram svg').exists()).toBe(true))
    expect(load).toHaveBeenCalledTimes(1)
    w.unmount()
  })

  it("are drawn with securityLevel 'strict', and mermaid's SVG is sanitised again", async () => {
    const { api } = fakeMermaid()
    const w = show(diagram)
    await flush()
    expect(api.initialize).toHaveBeenCalledWith(expect.objectContaining({ securityLevel: 'strict', startOnLoad: false }))
    const fig = w.get('.md-mermaid-diagram')
    expect(fig.text()).toContain('A to B')
    expect(fig.html()).not.toContain('onload')
    expect(fig.find('script').exists()).toBe(false)
    expect(w.get('.md-mermaid').attributes('data-drawn')).toBe('svg')
    w.unmount()
  })

  it('a broken diagram shows its source and a short error', async () => {
    fakeMermaid({ fail: 'Parse error on line 2' })
    const w = show('```mermaid\ngraph TD\n  A -->\n```')
    await flush()
    expect(w.find('.md-mermaid-diagram').exists()).toBe(false)
    expect(w.get('.md-mermaid pre code').text()).toBe('graph TD\n  A -->')
    expect(w.get('.md-mermaid-error').text()).toBe('The diagram could not be drawn: Parse error on line 2')
    w.unmount()
  })

  it('the same diagram is drawn once', async () => {
    const { api } = fakeMermaid()
    const a = show(diagram)
    await flush()
    const b = show(diagram)
    await flush()
    expect(api.render).toHaveBeenCalledTimes(1)
    expect(b.find('.md-mermaid-diagram svg').exists()).toBe(true)
    a.unmount()
    b.unmount()
  })
})

describe('copy the whole message', () => {
  it('copies the reply source exactly and says so', async () => {
    const text = 'Here: $x$ and\n\n```sh\necho $HOME\n```\n'
    const w = mount(CopyMessageButton, { props: { text }, global: { plugins: [testI18n('ja')] } })
    expect(w.text()).toBe('コピー')
    expect(w.attributes('aria-label')).toBe('メッセージをコピー')
    await w.trigger('click')
    await flush()
    expect(copied).toEqual([text])
    expect(w.text()).toBe('コピーしました')
  })
})
