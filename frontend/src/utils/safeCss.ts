// CSS from content the app renders (a mermaid diagram's classDef and style
// lines end up in its SVG's <style> and style attributes; KaTeX writes
// inline styles) must never make the window load anything (issue 21): a
// url() or image-set() to a web address is a read receipt, and can carry
// text in its address. neutralizeCss keeps the CSS but disables every way
// it can name something to load, so the browser drops those declarations;
// references to an element of the same document (url(#arrowhead), what
// SVG markers, gradients and clip paths use) stay. The window's
// Content-Security-Policy (vite.config.ts) refuses such loads as well.
//
// Escapes are decoded first (\75 rl( is url(), u\rl( too), so what is
// checked is what the browser would read; the output has no backslash
// left, so nothing can be re-assembled from it.

/** CSS escapes: a hex code point (with one optional white space after it) or any other character. */
const ESCAPE = /\\(?:([0-9a-fA-F]{1,6})[ \t\n\r\f]?|(\r\n|[\s\S]))/g
const COMMENT = /\/\*[\s\S]*?(?:\*\/|$)/g
/** Functions whose argument is something to load. url( is checked on its own: url(#id) stays. */
const LOADING_FUNCTIONS = /(^|[^a-z0-9_-])((?:-webkit-)?(?:image-set|image|cross-fade|element|src)\()/gi
/** url( whose argument (after white space and an optional quote) is not a same-document #reference. */
const REMOTE_URL = /(^|[^a-z0-9_-])(url\()(?!\s*['"]?\s*#)/gi
const AT_RULES = /@(import|namespace|font-face)\b/gi

function decodeEscapes(css: string): string {
  return css.replace(ESCAPE, (_m, hex: string | undefined, ch: string | undefined) => {
    if (hex !== undefined) {
      const cp = parseInt(hex, 16)
      return cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? '\uFFFD' : String.fromCodePoint(cp)
    }
    return ch === '\n' || ch === '\r\n' || ch === '\r' || ch === '\f' ? '' : (ch ?? '')
  })
}

/** The CSS as the browser reads it: no comments, escapes decoded, no backslash left. */
function plain(css: string): string {
  const out = css.replace(COMMENT, ' ')
  return out.includes('\\') ? decodeEscapes(out).replace(/\\/g, '').replace(COMMENT, ' ') : out
}

function disable(css: string): string {
  return css
    .replace(REMOTE_URL, '$1blocked-$2')
    .replace(LOADING_FUNCTIONS, '$1blocked-$2')
    .replace(AT_RULES, '@blocked-$1')
}

/**
 * The CSS with every load disabled: comments removed, escapes decoded, any
 * url() that is not a #reference and every image-set(), image(),
 * cross-fade(), element() and src() renamed to an unknown function (the
 * declaration holding it becomes invalid and is dropped), @import,
 * @namespace and @font-face renamed to unknown at-rules (ignored).
 */
export function neutralizeCss(css: string): string {
  return css ? disable(plain(css)) : css
}

/** Whether the CSS names anything to load (neutralizeCss would disable something in it). */
export function cssLoads(css: string): boolean {
  const p = plain(css)
  return disable(p) !== p
}
