import { describe, expect, it } from 'vitest'
import { renderMarkdown, rendersRawHtml } from '@/markdown/markdown'

/** The text a rendered fragment shows. */
function shown(html: string): string {
  const div = document.createElement('div')
  div.innerHTML = html
  return div.textContent ?? ''
}

// Issue 22: raw HTML in a reply vanished (the sanitiser removed the page a
// model wrote outside a fence). What the window does not render shows as
// the text it is; what it renders (<br>, <sup>, <details>, <kbd>) stays.
describe('raw HTML in Markdown', () => {
  it('shows a page, a form and a script as text, lines kept', () => {
    const reply = 'ページです:\n\n<html>\n<body>\n<h1>こんにちは</h1>\n<input type="text" name="q">\n</body>\n</html>\n\nどうぞ。'
    const html = renderMarkdown(reply)
    const text = shown(html)
    expect(text).toContain('<html>')
    expect(text).toContain('<input type="text" name="q">')
    expect(text).toContain('<h1>こんにちは</h1>')
    expect(html).toContain('class="md-raw-html"')
    expect(html).not.toMatch(/<input|<html|<body/i)
    expect(text).toContain('どうぞ。')
  })

  it('shows inline tags it does not render as text, within the sentence', () => {
    for (const [src, want] of [
      ['Use <input type="checkbox"> for that.', 'Use <input type="checkbox"> for that.'],
      ['Then <script>alert(1)</script> runs.', 'Then <script>alert(1)</script> runs.'],
      ['A <custom-tag>word</custom-tag> here.', 'A <custom-tag>word</custom-tag> here.'],
      ['<button onclick="x()">Click</button>', '<button onclick="x()">Click</button>'],
    ]) {
      const html = renderMarkdown(src)
      expect(shown(html).trim()).toBe(want)
      expect(html).not.toMatch(/<(input|script|custom-tag|button)/i)
    }
  })

  it('renders the HTML Markdown writers use', () => {
    const html = renderMarkdown('H<sub>2</sub>O, x<sup>2</sup>, <kbd>Ctrl</kbd>+<kbd>K</kbd><br>next\n\n<details><summary>More</summary>\n\nhidden\n\n</details>')
    expect(html).toContain('<sub>2</sub>')
    expect(html).toContain('<kbd>Ctrl</kbd>')
    expect(html).toContain('<br>')
    expect(html).toContain('<summary>More</summary>')
    expect(shown(html)).not.toContain('<')
  })

  it('leaves comments hidden, as Markdown does', () => {
    expect(shown(renderMarkdown('before\n\n<!-- a note to myself -->\n\nafter'))).not.toContain('note to myself')
  })

  it('decides by every tag of a fragment', () => {
    expect(rendersRawHtml('<div align="center"><b>x</b></div>')).toBe(true)
    expect(rendersRawHtml('<div><iframe src="x"></iframe></div>')).toBe(false)
    expect(rendersRawHtml('<!DOCTYPE html>')).toBe(false)
    expect(rendersRawHtml('<!-- only a comment -->')).toBe(true)
  })
})
