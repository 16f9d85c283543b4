// renderMarkdown with math (KaTeX), grouped as issue 12's "How it is checked"
// lists them. The rules are pinned in docs/markdown-and-math.md.
import { beforeEach, describe, expect, it } from 'vitest'
import { MarkdownBlockRenderer, clearMarkdownCache, renderMarkdown } from '@/markdown/markdown'

function dom(html: string): HTMLElement {
  const div = document.createElement('div')
  div.innerHTML = html
  return div
}

const render = (src: string, streaming = false) => dom(renderMarkdown(src, { streaming }))
const text = (root: HTMLElement) => (root.textContent ?? '').trim()

/** The TeX of every formula in the rendered HTML, in order. */
function formulas(root: HTMLElement): string[] {
  return Array.from(root.querySelectorAll('.katex annotation')).map((a) => a.textContent ?? '')
}

/** The text a reader sees: KaTeX's hidden MathML copy left out. */
function visibleText(root: HTMLElement): string {
  const clone = root.cloneNode(true) as HTMLElement
  clone.querySelectorAll('.katex-mathml').forEach((m) => m.remove())
  return clone.textContent ?? ''
}

/** No handler attributes, no script-capable URLs, no svg/math outside KaTeX's output. */
function assertSafe(html: string): HTMLElement {
  const root = dom(html)
  for (const el of Array.from(root.querySelectorAll('*'))) {
    for (const attr of Array.from(el.attributes)) {
      expect(attr.name.toLowerCase().startsWith('on'), `${el.tagName} has ${attr.name}`).toBe(false)
      expect(attr.value, `${el.tagName} ${attr.name}`).not.toMatch(/^\s*(javascript|data|vbscript):/i)
      if (attr.name === 'style') expect(attr.value).not.toMatch(/url\s*\(/i)
    }
  }
  for (const tag of ['script', 'iframe', 'object', 'embed', 'form', 'img', 'style', 'foreignObject', 'use', 'image']) {
    expect(root.querySelector(tag), `<${tag}> survived`).toBeNull()
  }
  for (const el of Array.from(root.querySelectorAll('svg, math'))) {
    expect(el.closest('.katex'), `<${el.tagName}> outside KaTeX's output`).not.toBeNull()
  }
  expect(root.querySelector('a[href]:not([href^="http"]):not([href^="mailto:"]):not([href^="#"])')).toBeNull()
  return root
}

beforeEach(() => clearMarkdownCache())

describe('currency and shell variables stay text', () => {
  it('$1.99 … $0.99', () => {
    const root = render('It was $1.99 yesterday and $0.99 today.')
    expect(formulas(root)).toEqual([])
    expect(text(root)).toBe('It was $1.99 yesterday and $0.99 today.')
  })

  it('from $2bn to $4bn', () => {
    const root = render('Revenue grew from $2bn to $4bn.')
    expect(formulas(root)).toEqual([])
    expect(text(root)).toBe('Revenue grew from $2bn to $4bn.')
  })

  it('PATH=$HOME/bin:$PATH', () => {
    const root = render('Set PATH=$HOME/bin:$PATH in your shell.')
    expect(formulas(root)).toEqual([])
    expect(text(root)).toBe('Set PATH=$HOME/bin:$PATH in your shell.')
  })

  it('$5 and $10', () => {
    expect(formulas(render('Tickets cost $5 and $10.'))).toEqual([])
  })

  it('$5/$10 (closing $ followed by a digit)', () => {
    const root = render('Plans: $5/$10 a month.')
    expect(formulas(root)).toEqual([])
    expect(text(root)).toBe('Plans: $5/$10 a month.')
  })

  it('echo $USER and $HOME', () => {
    const root = render('Try echo $USER and $HOME.')
    expect(formulas(root)).toEqual([])
    expect(text(root)).toBe('Try echo $USER and $HOME.')
  })

  it('US$5 and US$10', () => {
    expect(formulas(render('US$5 and US$10'))).toEqual([])
  })

  it('価格は$100から$200です (Japanese text between prices)', () => {
    const root = render('価格は$100から$200です')
    expect(formulas(root)).toEqual([])
    expect(text(root)).toBe('価格は$100から$200です')
  })

  it('a closing $ followed by a letter is not a closer ($x$y)', () => {
    expect(formulas(render('$x$y and more'))).toEqual([])
  })

  it('$x$は is math (Japanese after the closing $)', () => {
    expect(formulas(render('$x$は整数です'))).toEqual(['x'])
  })

  it('a run of three dollars is text', () => {
    const root = render('$$$ and $$$')
    expect(formulas(root)).toEqual([])
    expect(text(root)).toBe('$$$ and $$$')
  })

  it('a failed opener lets the next $ open ($1.99 then $x$)', () => {
    const root = render('It costs $1.99 and $x$ is free')
    expect(formulas(root)).toEqual(['x'])
    expect(visibleText(root)).toContain('It costs $1.99 and ')
  })

  it('a formula does not cross a newline', () => {
    const root = render('$a\nb$')
    expect(formulas(root)).toEqual([])
  })
})

describe('digits after the opening $', () => {
  it('$2x+1=5$ より', () => {
    expect(formulas(render('$2x+1=5$ より x = 2'))).toEqual(['2x+1=5'])
  })

  it('$1$ is a formula', () => {
    expect(formulas(render('The answer is $1$.'))).toEqual(['1'])
  })

  it('$10^3$ mm', () => {
    expect(formulas(render('about $10^3$ mm'))).toEqual(['10^3'])
  })

  it('$3 + $4 = $7 is text', () => {
    const root = render('$3 + $4 = $7')
    expect(formulas(root)).toEqual([])
    expect(text(root)).toBe('$3 + $4 = $7')
  })

  it('an opening $ followed by a space is text ($ 5$)', () => {
    expect(formulas(render('pay $ 5$ now'))).toEqual([])
  })

  it('a closing $ preceded by a space is text ($5 $)', () => {
    expect(formulas(render('pay $5 $ now'))).toEqual([])
  })
})

describe('\\$ inside and outside math', () => {
  it('\\$ outside math is a literal dollar', () => {
    const root = render('costs \\$5 and \\$10')
    expect(formulas(root)).toEqual([])
    expect(text(root)).toBe('costs $5 and $10')
  })

  it('\\$ before a would-be formula keeps it text (\\$x$)', () => {
    const root = render('\\$x$ stays')
    expect(formulas(root)).toEqual([])
    expect(text(root)).toBe('$x$ stays')
  })

  it('\\$ inside math stays \\$ for KaTeX', () => {
    const root = render('price $\\$5 + x$ total')
    expect(formulas(root)).toEqual(['\\$5 + x'])
    expect(root.querySelector('.katex-error')).toBeNull()
  })

  it('\\$ does not close a formula', () => {
    expect(formulas(render('$a\\$b$ end'))).toEqual(['a\\$b'])
  })

  it('\\$ inside display math', () => {
    const root = render('$$\n\\text{cost} = \\$3\n$$')
    expect(formulas(root)).toEqual(['\\text{cost} = \\$3'])
    expect(root.querySelector('.katex-display')).not.toBeNull()
  })
})

describe('\\(…\\) and \\[…\\] with \\\\ row breaks', () => {
  it('\\(…\\) is inline math', () => {
    const root = render('where \\(a+b\\) holds')
    expect(formulas(root)).toEqual(['a+b'])
    expect(root.querySelector('.katex-display')).toBeNull()
  })

  it('\\[…\\] on their own lines is display math, \\\\ rows intact', () => {
    const src = 'Solve:\n\\[\n\\begin{aligned} x &= 1 \\\\ y &= 2 \\end{aligned}\n\\]\nDone.'
    const root = render(src)
    expect(formulas(root)).toEqual(['\\begin{aligned} x &= 1 \\\\ y &= 2 \\end{aligned}'])
    expect(root.querySelector('.katex-display')).not.toBeNull()
    expect(root.querySelectorAll('.katex-mathml mtr')).toHaveLength(2)
    expect(root.querySelector('.katex-error')).toBeNull()
    expect(visibleText(root)).not.toContain('\\[')
  })

  it('a one-line \\[ x^2 \\] is display math', () => {
    const root = render('\\[ x^2 \\]')
    expect(formulas(root)).toEqual(['x^2'])
    expect(root.querySelector('.katex-display')).not.toBeNull()
  })

  it('$$ pmatrix with \\\\ keeps both rows', () => {
    const root = render('$$\n\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}\n$$')
    expect(root.querySelectorAll('.katex-mathml mtr')).toHaveLength(2)
    expect(root.querySelector('.katex-error')).toBeNull()
  })

  it('\\\\ inside \\(…\\) survives (Markdown would eat one backslash)', () => {
    const root = render('\\(\\begin{matrix} a \\\\ b \\end{matrix}\\)')
    expect(formulas(root)).toEqual(['\\begin{matrix} a \\\\ b \\end{matrix}'])
    expect(root.querySelectorAll('.katex-mathml mtr')).toHaveLength(2)
  })

  it('display math in a list item and in a quote', () => {
    const list = render('1. First:\n   $$\n   a^2\n   $$\n2. Second')
    expect(list.querySelector('li .katex-display')).not.toBeNull()
    expect(formulas(list)).toEqual(['a^2'])
    const quote = render('> $$\n> b^2 \\\\\n> c\n> $$')
    expect(quote.querySelector('blockquote .katex-display')).not.toBeNull()
    expect(formulas(quote)).toEqual(['b^2 \\\\\nc'])
  })

  it('$$…$$ within a line is inline math', () => {
    const root = render('so $$\\frac{1}{2}$$ of it')
    expect(formulas(root)).toEqual(['\\frac{1}{2}'])
    expect(root.querySelector('.katex-display')).toBeNull()
  })

  it('an escaped backslash before ( is not math (\\\\(x\\\\))', () => {
    const root = render('\\\\(x\\\\)')
    expect(formulas(root)).toEqual([])
    expect(text(root)).toBe('\\(x\\)')
  })

  it('\\[1\\] within a line stays a Markdown escape', () => {
    const root = render('see \\[1\\] below')
    expect(formulas(root)).toEqual([])
    expect(text(root)).toBe('see [1] below')
  })

  it('a display formula does not span a blank line', () => {
    const root = render('$$\na\n\nb\n$$')
    expect(formulas(root)).toEqual([])
  })
})

describe("TeX containing ', < and >", () => {
  it("$f'(x) > 0$", () => {
    const root = render("if $f'(x) > 0$ then")
    expect(formulas(root)).toEqual(["f'(x) > 0"])
    expect(root.querySelector('.katex-error')).toBeNull()
  })

  it('$a<b$ and $c>d$ do not become an HTML tag', () => {
    const root = render('$a<b$ and $c>d$')
    expect(formulas(root)).toEqual(['a<b', 'c>d'])
    expect(root.querySelector('b')).toBeNull()
    expect(visibleText(root)).toContain(' and ')
  })

  it('display math with < and > over two rows', () => {
    const root = render('$$\nx < y \\\\ y > z\n$$')
    expect(formulas(root)).toEqual(['x < y \\\\ y > z'])
    expect(root.querySelector('.katex-error')).toBeNull()
  })

  it("\\(…\\) with ' and <", () => {
    expect(formulas(render("\\(g'(t) < 1\\)"))).toEqual(["g'(t) < 1"])
  })

  it('underscores in two formulas are not emphasis', () => {
    const root = render('$a_1$ and $b_2$')
    expect(formulas(root)).toEqual(['a_1', 'b_2'])
    expect(root.querySelector('em')).toBeNull()
  })

  it('a pipe inside math does not split a table cell', () => {
    const root = render('| a | b |\n|---|---|\n| $|x|$ | 2 |')
    expect(root.querySelectorAll('tbody td')).toHaveLength(2)
    expect(formulas(root)).toEqual(['|x|'])
  })
})

describe('code spans and fences are untouched', () => {
  it('`$x$` stays code', () => {
    const root = render('use `$x$` here')
    expect(formulas(root)).toEqual([])
    expect(root.querySelector('code')?.textContent).toBe('$x$')
  })

  it('`\\(a\\)` stays code with its backslashes', () => {
    expect(render('`\\(a\\)`').querySelector('code')?.textContent).toBe('\\(a\\)')
  })

  it('a double-backtick span holding a backtick and dollars', () => {
    expect(render('`` a ` $x$ `` and $y$').querySelector('code')?.textContent).toBe('a ` $x$')
  })

  it('a math fence stays code, byte for byte', () => {
    const code = '$$\n\\frac{a}{b}\n$$\n$x$ \\(y\\)'
    const root = render('```latex\n' + code + '\n```')
    expect(formulas(root)).toEqual([])
    expect(root.querySelector('pre code')?.textContent).toBe(code)
  })

  it("awk '{print $1, $2}' f survives in a fence", () => {
    const code = "awk '{print $1, $2}' f\necho \"$HOME\" | sed 's/$/!/'"
    expect(render('```sh\n' + code + '\n```').querySelector('pre code')?.textContent).toBe(code)
  })

  it('a tilde fence and a fence in a list item', () => {
    expect(render('~~~\n$a$\n~~~').querySelector('pre code')?.textContent).toBe('$a$')
    expect(render('- step\n\n  ```\n  $b$\n  ```').querySelector('li pre code')?.textContent).toBe('$b$')
  })

  it('an indented code block keeps its dollars', () => {
    expect(render('text\n\n    $x$ and \\(y\\)\n').querySelector('pre code')?.textContent).toBe('$x$ and \\(y\\)\n')
  })

  it('math right after a code span on the same line', () => {
    const root = render('`a$` then $b$')
    expect(root.querySelector('code')?.textContent).toBe('a$')
    expect(formulas(root)).toEqual(['b'])
  })

  it('dollars in a link URL and an HTML attribute stay as written', () => {
    const root = render('[l](https://e.example/?a=$x$) <span title="$y$">t</span>')
    expect(root.querySelector('a')?.getAttribute('href')).toBe('https://e.example/?a=$x$')
    expect(root.querySelector('span[title]')?.getAttribute('title')).toBe('$y$')
  })
})

describe('streaming prefixes', () => {
  it('text\\n- is no <h2> while streaming', () => {
    const root = render('Some text\n-', true)
    expect(root.querySelector('h2')).toBeNull()
    expect(root.textContent).toContain('Some text')
  })

  it('text\\n= is no <h1> while streaming', () => {
    expect(render('Some text\n=', true).querySelector('h1')).toBeNull()
  })

  it('text\\n- item becomes a list as it streams', () => {
    const root = render('Some text\n- item', true)
    expect(root.querySelector('h2')).toBeNull()
    expect(root.querySelector('li')?.textContent).toBe('item')
  })

  it('no stray backticks at any prefix of a fence', () => {
    const src = 'Intro\n\n```python\nprint(1)\n```\n'
    for (let n = 1; n <= src.length; n++) {
      const root = render(src.slice(0, n), true)
      expect(visibleText(root), `after ${n} chars`).not.toContain('`')
    }
  })

  it('an unfinished fence is a code block from its first line', () => {
    const root = render('Here:\n\n```js\nconst a = 1', true)
    expect(root.querySelector('pre code')?.textContent).toBe('const a = 1')
    expect(root.querySelector('pre code')?.className).toContain('language-js')
    expect(root.textContent).not.toContain('```')
  })

  it('a half-typed closing fence is not shown as code', () => {
    const root = render('```js\ncode\n``', true)
    expect(root.querySelector('pre code')?.textContent?.trim()).toBe('code')
  })

  it('no KaTeX error element before the closing $$', () => {
    const src = 'Area:\n$$\n\\frac{\\pi r^2}{2}\n$$\n'
    for (let n = 1; n <= src.length; n++) {
      const root = render(src.slice(0, n), true)
      expect(root.querySelector('.katex-error'), `after ${n} chars`).toBeNull()
      if (n < src.indexOf('$$', 8)) expect(root.querySelector('.katex'), `after ${n} chars`).toBeNull()
    }
    expect(formulas(render(src, true))).toEqual(['\\frac{\\pi r^2}{2}'])
  })

  it('no KaTeX error at any prefix of inline formulas', () => {
    const src = 'Let $\\sqrt{x^2+1}$ and \\(\\frac{a}{b}\\) be given, and $$\\int_0^1 f$$ too.'
    for (let n = 1; n <= src.length; n++) {
      expect(render(src.slice(0, n), true).querySelector('.katex-error'), `after ${n} chars`).toBeNull()
    }
  })

  it('$HOME never flashes as math while PATH=$HOME/bin:$PATH streams', () => {
    const src = 'PATH=$HOME/bin:$PATH'
    for (let n = 1; n <= src.length; n++) {
      expect(formulas(render(src.slice(0, n), true)), `after ${n} chars`).toEqual([])
    }
  })

  it('one table while a row streams', () => {
    const src = '| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n'
    const start = src.indexOf('| 1')
    for (let n = start; n <= src.length; n++) {
      const root = render(src.slice(0, n), true)
      expect(root.querySelectorAll('table'), `after ${n} chars`).toHaveLength(1)
      expect(root.querySelector('p'), `after ${n} chars`).toBeNull()
    }
    const half = render('| a | b |\n|---|---|\n| 1 | 2 |\n| 3', true)
    expect(half.querySelectorAll('tbody tr')).toHaveLength(2)
    expect(half.querySelectorAll('tbody tr')[1].querySelector('td')?.textContent).toBe('3')
  })

  it('the block renderer streams math like renderMarkdown does, at every prefix', () => {
    const src =
      'Given $a^2+b^2=c^2$, costs $5 and $10.\n\n$$\n\\sum_{i=1}^n i = \\frac{n(n+1)}{2}\n$$\n\n' +
      '```sh\necho $HOME\n```\n\n| x | $y$ |\n|---|---|\n| 1 | 2 |\n\nText\n-\nend \\(z\\).'
    const norm = (html: string) => html.replace(/>\s+</g, '><').trim()
    const r = new MarkdownBlockRenderer()
    for (let n = 1; n <= src.length; n++) {
      const prefix = src.slice(0, n)
      const blocks = r.render(prefix, { streaming: true })
      expect(norm(blocks.map((b) => b.html).join('')), `after ${n} chars`).toBe(
        norm(renderMarkdown(prefix, { streaming: true })),
      )
    }
    expect(norm(r.render(src).map((b) => b.html).join(''))).toBe(norm(renderMarkdown(src)))
  }, 60_000)
})

describe('XSS', () => {
  it('onerror next to math', () => {
    const root = assertSafe(renderMarkdown('$x$ <img src=x onerror=alert(1)>'))
    expect(formulas(root)).toEqual(['x'])
  })

  it('<script> next to math', () => {
    const html = renderMarkdown('$$\nx\n$$\n<script>alert(1)</script>')
    assertSafe(html)
    expect(html).not.toMatch(/<script/i)
  })

  it('<script> inside a formula is TeX text, not markup', () => {
    const root = assertSafe(renderMarkdown('$<script>alert(1)</script>$'))
    expect(root.querySelector('script')).toBeNull()
  })

  it('javascript: links', () => {
    assertSafe(renderMarkdown('[a](javascript:alert(1)) $x$ <a href="JaVaScRiPt:alert(1)">b</a>'))
  })

  it('data: links', () => {
    assertSafe(renderMarkdown('[x](data:text/html;base64,PHNjcmlwdD4=) and $\\sqrt{2}$'))
  })

  it('<svg onload> (an svg outside KaTeX is removed)', () => {
    const root = assertSafe(renderMarkdown('$\\sqrt{3}$ <svg onload=alert(1)><path d="M0 0"/></svg>'))
    expect(root.querySelectorAll('svg').length).toBe(root.querySelectorAll('.katex svg').length)
  })

  it('a raw <math> with an HTML payload is removed', () => {
    assertSafe(renderMarkdown('<math><mtext><img src=x onerror=alert(1)></mtext></math> $y$'))
  })

  it('KaTeX \\href{JavaScript:…} makes no link', () => {
    for (const src of [
      '$\\href{JavaScript:alert(1)}{click}$',
      '$\\href{javascript:alert(1)}{click}$',
      '$$\n\\href{JAVASCRIPT:alert(1)}{click}\n$$',
      '$\\url{javascript:alert(1)}$',
      '\\(\\href{data:text/html,<script>alert(1)</script>}{x}\\)',
    ]) {
      const html = renderMarkdown(src)
      const root = assertSafe(html)
      expect(root.querySelector('a'), src).toBeNull()
      expect(html, src).not.toMatch(/href\s*=/i)
    }
  })

  it('KaTeX commands that need trust do nothing (\\htmlClass, \\includegraphics)', () => {
    const root = assertSafe(renderMarkdown('$\\htmlClass{x}{a}$ $\\includegraphics{https://e.example/x.png}$'))
    expect(root.querySelector('.x')).toBeNull()
  })

  it('a colour that tries CSS injection is refused', () => {
    const html = renderMarkdown('$\\color{red;background:url(https://e.example/x)}{a}$')
    assertSafe(html)
    expect(html).not.toMatch(/style="[^"]*url\(/i)
  })

  it('a forged placeholder is only ever math', () => {
    const hex = Array.from('<img src=x onerror=alert(1)>').map((c) => c.charCodeAt(0).toString(16).padStart(4, '0')).join('')
    assertSafe(renderMarkdown(`a \uE000I${hex}\uE001 b <a title="\uE000I${hex}\uE001" href="https://e.example">t</a>`))
  })
})

describe('KaTeX output intact after sanitising', () => {
  it('a radical keeps its SVG', () => {
    const root = render('$\\sqrt{2}$')
    const path = root.querySelector('.katex .katex-html svg path')
    expect(path).not.toBeNull()
    expect(path?.getAttribute('d')?.length).toBeGreaterThan(20)
    expect(root.querySelector('.katex svg')?.getAttribute('viewBox')).toMatch(/^0 0 /)
  })

  it('the MathML copy (semantics, annotation) is kept for screen readers', () => {
    const root = render('$E=mc^2$')
    const ann = root.querySelector('.katex-mathml math semantics annotation')
    expect(ann?.getAttribute('encoding')).toBe('application/x-tex')
    expect(ann?.textContent).toBe('E=mc^2')
  })

  it('the TeX source is not shown twice', () => {
    const root = render('Energy $E=mc^2$ and $\\sqrt{2}$.')
    expect(root.querySelector('.katex-html')?.getAttribute('aria-hidden')).toBe('true')
    const seen = visibleText(root)
    expect(seen).not.toContain('mc^2')
    expect(seen).not.toContain('\\sqrt')
    expect(seen).not.toContain('$')
    expect(root.querySelectorAll('.katex')).toHaveLength(2)
  })

  it("KaTeX's layout styles survive", () => {
    const root = render('$\\frac{a}{b}$')
    expect(root.querySelector('.katex-html [style*="height"]')).not.toBeNull()
    expect(root.querySelector('.katex .frac-line')).not.toBeNull()
  })

  it('display math is KaTeX display output', () => {
    const root = render('$$\n\\int_0^1 x\\,dx\n$$')
    expect(root.querySelector('.katex-display > .katex')).not.toBeNull()
    expect(root.querySelector('math')?.getAttribute('display')).toBe('block')
  })

  it('a broken formula shows KaTeX\'s error in place instead of throwing', () => {
    const root = render('$\\frac{1}{$ ok')
    const err = root.querySelector('.katex-error')
    expect(err?.textContent).toBe('\\frac{1}{')
    expect(err?.getAttribute('title')).toMatch(/ParseError/)
  })
})
