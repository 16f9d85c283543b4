// Markdown for assistant messages: marked turns it into HTML, DOMPurify
// removes anything that could run code or leave the app. The model's output
// is untrusted (it can quote web pages and be prompt-injected), so the allow
// list is narrow: no scripts, frames, forms, SVG/MathML, inline styles or
// event handlers; links only to http(s), mailto and in-page anchors; remote
// images become links so that rendering a reply never fetches anything.
import DOMPurify, { type Config } from 'dompurify'
import { Marked, type Tokens } from 'marked'
import { closeOpenFence } from './fence'

const SAFE_URL = /^(?:https?:|mailto:|#)/i

const FORBID_TAGS = [
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'form',
  'input', 'button', 'select', 'textarea', 'option', 'svg', 'math', 'img', 'picture',
  'video', 'audio', 'source', 'track', 'link', 'meta', 'base', 'template', 'noscript',
]

const PURIFY_CONFIG: Config = {
  FORBID_TAGS,
  FORBID_ATTR: ['style', 'srcset', 'action', 'formaction', 'xlink:href'],
  ALLOWED_URI_REGEXP: SAFE_URL,
  ALLOW_DATA_ATTR: false,
  USE_PROFILES: { html: true },
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

const marked = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    image({ href, text }: Tokens.Image): string {
      const label = escapeHtml(text || href)
      return `<a href="${escapeHtml(href)}" class="md-image-link">🖼 ${label}</a>`
    },
  },
})

let purifier: ReturnType<typeof DOMPurify> | null = null

function getPurifier(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier
  const p = DOMPurify(window)
  p.addHook('uponSanitizeAttribute', (_node, data) => {
    // Belt and braces on top of FORBID_ATTR: no event handler attribute, ever.
    if (/^on/i.test(data.attrName)) data.keepAttr = false
  })
  p.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      const href = node.getAttribute('href') ?? ''
      if (!SAFE_URL.test(href.trim())) {
        node.removeAttribute('href')
      } else if (!href.startsWith('#')) {
        node.setAttribute('target', '_blank')
        node.setAttribute('rel', 'noopener noreferrer')
      }
    }
  })
  purifier = p
  return p
}

/** Sanitises an HTML string with the app's allow list. */
export function sanitizeHtml(html: string): string {
  return getPurifier().sanitize(html, PURIFY_CONFIG) as string
}

export interface RenderOptions {
  /** The message is still streaming: close an open code fence before rendering. */
  streaming?: boolean
}

/** Renders untrusted markdown to sanitised HTML. */
export function renderMarkdown(src: string, opts: RenderOptions = {}): string {
  const text = opts.streaming ? closeOpenFence(src) : src
  const html = marked.parse(text, { async: false }) as string
  return sanitizeHtml(html)
}
