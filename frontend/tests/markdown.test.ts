import { describe, expect, it } from 'vitest'
import { closeOpenFence } from '@/markdown/fence'
import { HEADING_ID_PREFIX, anchorOf, renderMarkdown, splitHeadingAnchor } from '@/markdown/markdown'

function dom(html: string): HTMLElement {
  const div = document.createElement('div')
  div.innerHTML = html
  return div
}

/** No element may carry an event handler or a script-capable URL. */
function assertSafe(html: string) {
  const root = dom(html)
  for (const el of Array.from(root.querySelectorAll('*'))) {
    for (const attr of Array.from(el.attributes)) {
      expect(attr.name.toLowerCase().startsWith('on'), `${el.tagName} has ${attr.name}`).toBe(false)
      if (['href', 'src', 'xlink:href', 'action', 'formaction'].includes(attr.name.toLowerCase())) {
        expect(attr.value.trim()).not.toMatch(/^(javascript|data|vbscript):/i)
      }
    }
  }
  for (const tag of ['script', 'iframe', 'object', 'embed', 'form', 'svg', 'style']) {
    expect(root.querySelector(tag), `<${tag}> survived`).toBeNull()
  }
  return root
}

const payloads: [string, string][] = [
  ['img onerror', '<img src=x onerror=alert(1)>'],
  ['script', '<script>alert(1)</script>'],
  ['javascript: link', '[a](javascript:alert(1))'],
  ['svg onload', '<svg onload=alert(1)>'],
  ['data: link', '[x](data:text/html;base64,PHNjcmlwdD4=)'],
  ['vbscript: anchor', '<a href="vbscript:msgbox(1)">v</a>'],
  ['iframe', '<iframe src="https://evil.example"></iframe>'],
  ['mixed-case javascript:', '<a href="JaVaScRiPt:alert(1)">m</a>'],
  ['entity-encoded javascript:', '<a href="&#106;avascript:alert(1)">e</a>'],
  ['tab in scheme', '<a href="java\tscript:alert(1)">t</a>'],
  ['object/embed', '<object data="x.swf"></object><embed src="x.swf">'],
  ['form', '<form action="https://evil.example"><input name=a><button>go</button></form>'],
  ['inline handler on allowed tag', '<b onclick="alert(1)" onmouseover="alert(2)">bold</b>'],
  ['autolink javascript:', '<javascript:alert(1)>'],
  ['style tag', '<style>body{display:none}</style>text'],
]

describe('renderMarkdown', () => {
  it('renders headings, lists, code blocks and tables', () => {
    const root = dom(
      renderMarkdown(
        '# Title\n\n## Sub\n\n- a\n- b\n\n```go\nfmt.Println("hi")\n```\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n`inline`',
      ),
    )
    expect(root.querySelector('h1')?.textContent).toBe('Title')
    expect(root.querySelector('h2')?.textContent).toBe('Sub')
    expect(root.querySelectorAll('li')).toHaveLength(2)
    const code = root.querySelector('pre > code')
    expect(code?.textContent).toContain('fmt.Println("hi")')
    expect(code?.className).toContain('language-go')
    expect(root.querySelectorAll('table td')).toHaveLength(2)
    expect(root.querySelector('th')?.textContent).toBe('x')
    expect(root.querySelector('p > code')?.textContent).toBe('inline')
  })

  it('opens safe links in a new window without an opener', () => {
    const a = dom(renderMarkdown('[site](https://example.com/a?b=1)')).querySelector('a')!
    expect(a.getAttribute('href')).toBe('https://example.com/a?b=1')
    expect(a.getAttribute('target')).toBe('_blank')
    expect(a.getAttribute('rel')).toContain('noopener')
  })

  it('closes an unclosed fence while streaming, and not otherwise', () => {
    const src = 'Here:\n\n```js\nconst a = 1\n'
    const live = dom(renderMarkdown(src + 'after', { streaming: true }))
    expect(live.querySelector('pre code')?.textContent).toContain('const a = 1')
    expect(live.querySelector('pre code')?.textContent).toContain('after')
    expect(live.querySelector('p')?.textContent).toBe('Here:')
  })

  it('turns images into links so nothing is fetched', () => {
    const root = assertSafe(renderMarkdown('![cat](https://example.com/cat.png)'))
    expect(root.querySelector('img')).toBeNull()
    expect(root.querySelector('a')?.getAttribute('href')).toBe('https://example.com/cat.png')
  })


  it.each(payloads)('strips %s', (_name, payload) => {
    const html = renderMarkdown(`before ${payload} after`)
    assertSafe(html)
    // Also on the serialised string: no handler attribute, no dangerous URL attribute.
    expect(html).not.toMatch(/<[^>]*\son[a-z]+\s*=/i)
    expect(html).not.toMatch(/(href|src)\s*=\s*["']?\s*(javascript|vbscript|data):/i)
    expect(html).not.toMatch(/<script/i)
  })

  it('keeps the text of a neutralised link', () => {
    const root = assertSafe(renderMarkdown('[click me](javascript:alert(1))'))
    expect(root.textContent).toContain('click me')
    const a = root.querySelector('a')
    if (a) expect(a.hasAttribute('href')).toBe(false)
  })

  it('sanitises while streaming too', () => {
    assertSafe(renderMarkdown('```\ncode\n```\n<img src=x onerror=alert(1)>\n```', { streaming: true }))
  })
})

describe('renderMarkdown with relativeLinks (knowledge-base documents)', () => {
  it('keeps relative links without target, and external ones as usual', () => {
    const root = assertSafe(
      renderMarkdown('[a](other.md) [b](../up/x.md#sec) [c](sub/%E6%97%A5.md) [d](https://example.com) [e](#top)', {
        relativeLinks: true,
      }),
    )
    const as = Array.from(root.querySelectorAll('a'))
    expect(as.map((a) => a.getAttribute('href'))).toEqual([
      'other.md', '../up/x.md#sec', 'sub/%E6%97%A5.md', 'https://example.com', '#top',
    ])
    expect(as.slice(0, 3).every((a) => !a.hasAttribute('target'))).toBe(true)
    expect(as[3].getAttribute('target')).toBe('_blank')
  })

  it('drops relative links when not asked', () => {
    const a = dom(renderMarkdown('[a](other.md)')).querySelector('a')
    expect(a?.hasAttribute('href') ?? false).toBe(false)
  })

  it('still refuses scripts, other schemes and protocol-relative links', () => {
    const html = renderMarkdown(
      '[j](javascript:alert(1)) <a href="java\tscript:alert(1)">t</a> <a href=" JAVASCRIPT:x">s</a> ' +
        '[d](data:text/html,x) [f](file:///etc/passwd) [p](//evil.example/x.md) <a href="\\\\evil\\x.md">u</a> ' +
        '<img src=x onerror=alert(1)>',
      { relativeLinks: true },
    )
    const root = assertSafe(html)
    const hrefs = Array.from(root.querySelectorAll('a[href]')).map((a) => a.getAttribute('href'))
    // Only the <img>'s: a link to its (relative) source, as a Markdown image is.
    expect(hrefs).toEqual(['x'])
    expect(root.querySelector('a[href="x"]')?.className).toBe('md-image-link')
    expect(html).not.toMatch(/(javascript|data|file):/i)
  })

  it.each(payloads)('strips %s', (_name, payload) => {
    const html = renderMarkdown(`before ${payload} after`, { relativeLinks: true })
    assertSafe(html)
    expect(html).not.toMatch(/<[^>]*\son[a-z]+\s*=/i)
    expect(html).not.toMatch(/(href|src)\s*=\s*["']?\s*(javascript|vbscript|data):/i)
  })
})

describe('heading anchors ({#id}, as VitePress writes them)', () => {
  it('hides a trailing {#id} and makes it the heading\'s (prefixed) id', () => {
    const root = dom(renderMarkdown('## 基本的な使い方 {#basic-usage}\n\ntext', { relativeLinks: true }))
    const h = root.querySelector('h2')!
    expect(h.textContent).toBe('基本的な使い方')
    expect(h.id).toBe(HEADING_ID_PREFIX + 'basic-usage')
    expect(anchorOf(h.id)).toBe('basic-usage')
    expect(root.innerHTML).not.toContain('{#')
  })

  it('keeps inline formatting before the anchor and works in chat replies too', () => {
    const root = dom(renderMarkdown('### Use **bold** and `code` {#fmt_1}'))
    const h = root.querySelector('h3')!
    expect(h.querySelector('strong')?.textContent).toBe('bold')
    expect(h.querySelector('code')?.textContent).toBe('code')
    expect(h.textContent).toBe('Use bold and code')
    expect(anchorOf(h.id)).toBe('fmt_1')
  })

  it('handles setext headings and leaves headings without an anchor alone', () => {
    const root = dom(renderMarkdown('Title {#top}\n===\n\n## Plain\n\n## Not {an anchor}'))
    const [h1, plain, other] = Array.from(root.querySelectorAll('h1, h2'))
    expect(h1.textContent).toBe('Title')
    expect(anchorOf(h1.id)).toBe('top')
    expect(plain.textContent).toBe('Plain')
    expect(plain.hasAttribute('id')).toBe(false)
    expect(other.textContent).toBe('Not {an anchor}')
  })

  it('cannot be used to inject markup or clobber the app\'s DOM', () => {
    const html = renderMarkdown('## x {#"><img src=x onerror=alert(1)>}\n\n## y {#location}')
    assertSafe(html)
    const root = dom(html)
    expect(root.querySelector('img')).toBeNull()
    expect(root.querySelector('#location')).toBeNull()
    expect(anchorOf(root.querySelectorAll('h2')[1].id)).toBe('location')
  })

  it('splitHeadingAnchor takes only a trailing, well-formed anchor', () => {
    expect(splitHeadingAnchor('Usage {#basic-usage}')).toEqual({ text: 'Usage', anchor: 'basic-usage' })
    expect(splitHeadingAnchor('Usage {#a b}')).toEqual({ text: 'Usage {#a b}', anchor: '' })
    expect(splitHeadingAnchor('{#x} then text')).toEqual({ text: '{#x} then text', anchor: '' })
  })
})

describe('closeOpenFence', () => {
  it('leaves balanced text alone', () => {
    const s = 'a\n```\nb\n```\nc'
    expect(closeOpenFence(s)).toBe(s)
    expect(closeOpenFence('no code')).toBe('no code')
  })

  it('closes an open backtick fence with the same length', () => {
    expect(closeOpenFence('x\n````py\ncode')).toBe('x\n````py\ncode\n````')
    expect(closeOpenFence('```\ncode\n')).toBe('```\ncode\n```')
  })

  it('closes an open tilde fence', () => {
    expect(closeOpenFence('~~~\ncode')).toBe('~~~\ncode\n~~~')
  })

  it('does not treat a shorter or different fence as closing', () => {
    expect(closeOpenFence('````\na\n```\nb')).toBe('````\na\n```\nb\n````')
    expect(closeOpenFence('```\na\n~~~\nb')).toBe('```\na\n~~~\nb\n```')
  })

  it('counts several blocks', () => {
    expect(closeOpenFence('```\na\n```\n\n```js\nb')).toBe('```\na\n```\n\n```js\nb\n```')
  })

  it('ignores inline triple backticks in a line', () => {
    expect(closeOpenFence('use ```code``` inline')).toBe('use ```code``` inline')
  })
})
