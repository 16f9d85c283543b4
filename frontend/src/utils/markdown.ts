// Markdown for assistant messages: marked turns it into HTML, DOMPurify
// removes anything that could run code or leave the app. The model's output
// is untrusted (it can quote web pages and be prompt-injected), so the allow
// list is narrow: no scripts, frames, forms, SVG/MathML, inline styles or
// event handlers; links only to http(s), mailto and in-page anchors; remote
// images become links so that rendering a reply never fetches anything.
// Knowledge-base documents may also keep relative links (no scheme, no
// leading //) so the browser can follow them to other KB documents; the
// component intercepts those clicks, so they never navigate the window.
// VitePress-style heading anchors ("## Usage {#basic-usage}") are not shown:
// the id becomes the heading's id, prefixed like every id in rendered
// Markdown (HEADING_ID_PREFIX) so that it can never clobber the app's DOM.
import DOMPurify, { type Config } from 'dompurify'
import { Marked, type Tokens } from 'marked'
import { closeOpenFence } from './fence'

const SAFE_URL = /^(?:https?:|mailto:|#)/i
/** SAFE_URL, or a relative reference: no scheme and not protocol-relative. */
const SAFE_OR_RELATIVE_URL = /^(?:https?:|mailto:|#|(?![a-z][a-z0-9+.-]*:|[\\/]{2}).)/is
// What DOMPurify strips before testing a URL; the hook does the same.
// eslint-disable-next-line no-control-regex
const URL_SPACE = /[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000]/g

const FORBID_TAGS = [
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'form',
  'input', 'button', 'select', 'textarea', 'option', 'svg', 'math', 'img', 'picture',
  'video', 'audio', 'source', 'track', 'link', 'meta', 'base', 'template', 'noscript',
]

/** What DOMPurify puts before every id and name in rendered Markdown. */
export const HEADING_ID_PREFIX = 'user-content-'

/** The anchor a rendered element's id stands for (its id without the prefix). */
export function anchorOf(id: string): string {
  return id.startsWith(HEADING_ID_PREFIX) ? id.slice(HEADING_ID_PREFIX.length) : id
}

/** A trailing "{#id}" on a heading (VitePress, markdown-it-attrs, Pandoc). */
const HEADING_ANCHOR = /\s*\{#([^\s{}]+)\}\s*$/

/** Splits "Usage {#basic-usage}" into its text and anchor ("" when none). */
export function splitHeadingAnchor(text: string): { text: string; anchor: string } {
  const m = HEADING_ANCHOR.exec(text)
  return m ? { text: text.slice(0, m.index), anchor: m[1] } : { text, anchor: '' }
}

function purifyConfig(allowed: RegExp): Config {
  return {
    FORBID_TAGS,
    SANITIZE_NAMED_PROPS: true,
    FORBID_ATTR: ['style', 'srcset', 'action', 'formaction', 'xlink:href'],
    ALLOWED_URI_REGEXP: allowed,
    ALLOW_DATA_ATTR: false,
    USE_PROFILES: { html: true },
  }
}
const PURIFY_CONFIG = purifyConfig(SAFE_URL)
const RELATIVE_PURIFY_CONFIG = purifyConfig(SAFE_OR_RELATIVE_URL)

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** A heading token whose "{#id}" walkTokens took off. */
type AnchoredHeading = Tokens.Heading & { anchor?: string }

const marked = new Marked({
  gfm: true,
  breaks: true,
  walkTokens(token) {
    if (token.type !== 'heading') return
    const h = token as AnchoredHeading
    const last = h.tokens[h.tokens.length - 1]
    if (!last || last.type !== 'text') return
    const { text, anchor } = splitHeadingAnchor((last as Tokens.Text).text)
    if (!anchor) return
    ;(last as Tokens.Text).text = text
    last.raw = splitHeadingAnchor(last.raw).text
    h.text = splitHeadingAnchor(h.text).text
    h.anchor = anchor
  },
  renderer: {
    image({ href, text }: Tokens.Image): string {
      const label = escapeHtml(text || href)
      return `<a href="${escapeHtml(href)}" class="md-image-link">🖼 ${label}</a>`
    },
    heading(token: Tokens.Heading): string | false {
      const anchor = (token as AnchoredHeading).anchor
      if (!anchor) return false // marked's own rendering
      const inner = this.parser.parseInline(token.tokens)
      return `<h${token.depth} id="${escapeHtml(anchor)}">${inner}</h${token.depth}>\n`
    },
  },
})

type Purifier = ReturnType<typeof DOMPurify>
const purifiers = new Map<boolean, Purifier>()

function getPurifier(relative = false): Purifier {
  const cached = purifiers.get(relative)
  if (cached) return cached
  const p = DOMPurify(window)
  p.addHook('uponSanitizeAttribute', (_node, data) => {
    // Belt and braces on top of FORBID_ATTR: no event handler attribute, ever.
    if (/^on/i.test(data.attrName)) data.keepAttr = false
  })
  p.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      const href = node.getAttribute('href') ?? ''
      const bare = href.replace(URL_SPACE, '')
      if (SAFE_URL.test(bare)) {
        if (!bare.startsWith('#')) {
          node.setAttribute('target', '_blank')
          node.setAttribute('rel', 'noopener noreferrer')
        }
      } else if (!relative || !SAFE_OR_RELATIVE_URL.test(bare)) {
        node.removeAttribute('href')
      }
    }
  })
  purifiers.set(relative, p)
  return p
}

/** Sanitises an HTML string with the app's allow list (plus relative links when asked). */
export function sanitizeHtml(html: string, relativeLinks = false): string {
  return getPurifier(relativeLinks).sanitize(
    html,
    relativeLinks ? RELATIVE_PURIFY_CONFIG : PURIFY_CONFIG,
  ) as string
}

export interface RenderOptions {
  /** The message is still streaming: close an open code fence before rendering. */
  streaming?: boolean
  /** Keep relative links (knowledge-base documents linking to each other). */
  relativeLinks?: boolean
}

/** Renders untrusted markdown to sanitised HTML. */
export function renderMarkdown(src: string, opts: RenderOptions = {}): string {
  const text = opts.streaming ? closeOpenFence(src) : src
  const html = marked.parse(text, { async: false }) as string
  return sanitizeHtml(html, opts.relativeLinks)
}
