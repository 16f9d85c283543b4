// Markdown for assistant messages: marked turns it into HTML, DOMPurify
// removes anything that could run code, leave the app or load anything. The
// model's output is untrusted (it can quote web pages and be
// prompt-injected), and so are notes, KB documents and imported chats, so
// the allow list is narrow: no scripts, frames, forms, SVG/MathML, styles or
// event handlers, and an allow list of attributes in which the only one
// that can hold an address is a link's href — links only to http(s),
// mailto and in-page anchors, opened in the user's browser. Rendering never
// fetches anything (issue 21: background= on a table was a read receipt):
// an image is shown only from a data: URL (PNG, JPEG, GIF, WebP), any other
// becomes a link. The window's Content-Security-Policy (vite.config.ts)
// refuses loads from anywhere else as well.
// Knowledge-base documents may also keep relative links (no scheme, no
// leading //) so the browser can follow them to other KB documents; the
// component intercepts those clicks, so they never navigate the window.
// Math is KaTeX's output only (markdown/math.ts): it is sanitised on its own,
// with an allow list of what KaTeX writes, and joined in after this
// sanitiser ran, so a reply's own <svg> or <math> is still removed. Fenced
// code is highlighted (markdown/highlight.ts) and gets a header with its
// language; MarkdownContent.vue adds the copy button and draws mermaid.
// VitePress-style heading anchors ("## Usage {#basic-usage}") are not shown:
// the id becomes the heading's id, prefixed like every id in rendered
// Markdown (HEADING_ID_PREFIX) so that it can never clobber the app's DOM.
import DOMPurify, { type Config } from 'dompurify'
import { Marked, type Links, type Token, type Tokens } from 'marked'
import { streamingView } from './fence'
import { fenceClosed } from './fences'
import { highlightCode } from './highlight'
import {
  type MathScan, extractMath, extractMathIncremental, hasMathPlaceholder, replaceMathPlaceholders, restoreMathSource,
  stripPlaceholderMarks,
} from './math'

const SAFE_URL = /^(?:https?:|mailto:|#)/i
/** SAFE_URL, or a relative reference: no scheme and not protocol-relative. */
const SAFE_OR_RELATIVE_URL = /^(?:https?:|mailto:|#|(?![a-z][a-z0-9+.-]*:|[\\/]{2}).)/is
// What DOMPurify strips before testing a URL; the hook does the same.
// eslint-disable-next-line no-control-regex
const URL_SPACE = /[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000]/g

const FORBID_TAGS = [
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'form',
  'input', 'button', 'select', 'textarea', 'option', 'svg', 'math', 'picture',
  'video', 'audio', 'source', 'track', 'link', 'meta', 'base', 'template', 'noscript',
  'portal', 'fencedframe',
]

/**
 * Every element rendered Markdown may keep: text, lists, tables, code,
 * quotes, headings, details, links and (data:) images.
 */
const ALLOWED_TAGS = [
  'a', 'abbr', 'b', 'bdi', 'bdo', 'blockquote', 'br', 'caption', 'cite', 'code', 'col', 'colgroup', 'dd',
  'del', 'details', 'dfn', 'div', 'dl', 'dt', 'em', 'figcaption', 'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'hr', 'i', 'img', 'ins', 'kbd', 'li', 'mark', 'ol', 'p', 'pre', 'q', 'rp', 'rt', 'ruby', 's', 'samp',
  'small', 'span', 'strong', 'sub', 'summary', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'time',
  'tr', 'u', 'ul', 'var', 'wbr',
]

/**
 * Every attribute rendered Markdown may keep. Of these only href (on <a>)
 * and src (on <img>, a data: image only) hold an address; the rest are text
 * and layout (tables, lists, headings' ids, code classes, details).
 */
const ALLOWED_ATTR = [
  'href', 'src', 'alt', 'title', 'class', 'id', 'lang', 'dir', 'align', 'colspan', 'rowspan', 'scope',
  'headers', 'abbr', 'span', 'start', 'reversed', 'type', 'value', 'open', 'datetime',
]

/** An image the window shows: a data: URL of a raster format, at most DATA_IMAGE_MAX characters. */
const DATA_IMAGE = /^data:image\/(?:png|jpeg|jpg|gif|webp);base64,[a-z0-9+/=\s]*$/i
/** The longest data: image shown (about 1.5 MB of image); a longer one becomes a link's text. */
export const DATA_IMAGE_MAX = 2_000_000

/** Whether src is an image the window shows itself (a data: URL of a raster image). */
export function isShownImage(src: string): boolean {
  return src.length <= DATA_IMAGE_MAX && DATA_IMAGE.test(src.trim())
}

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
    // Allow lists, not a profile: DOMPurify's html profile would replace
    // them with its own (background=, poster=, srcset= … included).
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    FORBID_TAGS,
    SANITIZE_NAMED_PROPS: true,
    ALLOWED_URI_REGEXP: allowed,
    ALLOW_DATA_ATTR: false,
  }
}
const PURIFY_CONFIG = purifyConfig(SAFE_URL)
const RELATIVE_PURIFY_CONFIG = purifyConfig(SAFE_OR_RELATIVE_URL)

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** An image that is not shown: a link to it (its href vetted like any link's), labelled with its text. */
function imageLink(href: string, text: string): string {
  const label = escapeHtml(text || (href.startsWith('data:') ? 'image' : href))
  return `<a href="${escapeHtml(href)}" class="md-image-link">🖼 ${label}</a>`
}

/** The tags of raw HTML in Markdown (opening and closing; doctype and processing instructions too). */
const RAW_TAG = /<\/?([a-z][a-z0-9-]*)|<[!?](?!--)/gi
const ALLOWED_TAG_SET = new Set(ALLOWED_TAGS)

/**
 * Whether raw HTML written in Markdown is rendered: when every tag in it is
 * one rendered Markdown keeps (<br>, <sup>, <details>, <kbd>, a table…) and
 * comments. Otherwise it is shown as the text it is (issue 22: a reply's
 * `<input>` or `<html><body>…` vanished into the sanitiser).
 */
export function rendersRawHtml(html: string): boolean {
  for (const m of html.replace(/<!--[\s\S]*?(?:-->|$)/g, '').matchAll(RAW_TAG)) {
    if (!m[1] || !ALLOWED_TAG_SET.has(m[1].toLowerCase())) return false
  }
  return true
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
    html({ text, block }: Tokens.HTML | Tokens.Tag): string {
      if (rendersRawHtml(text)) return text
      const shown = escapeHtml(block ? text.replace(/\n+$/, '') : text)
      return block ? `<p class="md-raw-html">${shown}</p>\n` : shown
    },
    image({ href, text }: Tokens.Image): string {
      if (isShownImage(href)) return `<img src="${escapeHtml(href)}" alt="${escapeHtml(text)}" class="md-image">`
      return imageLink(href, text)
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
  // Set once: sanitize() then skips parsing the configuration on every call
  // (many calls a second while a reply streams).
  p.setConfig(relative ? RELATIVE_PURIFY_CONFIG : PURIFY_CONFIG)
  p.addHook('uponSanitizeAttribute', (node, data) => {
    // Belt and braces on top of ALLOWED_ATTR: no event handler attribute, ever.
    if (/^on/i.test(data.attrName)) data.keepAttr = false
    // An address only where the app means one: a link's href, an image's src.
    if (data.attrName === 'href' && node.tagName !== 'A') data.keepAttr = false
    if (data.attrName === 'src' && node.tagName !== 'IMG') data.keepAttr = false
    // A math placeholder is only ever replaced in text, never in an attribute.
    if (hasMathPlaceholder(data.attrValue)) data.attrValue = stripPlaceholderMarks(data.attrValue)
  })
  p.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'IMG') {
      // Raw HTML's <img>: shown from a data: image, else a link to it as
      // Markdown's images are (the link is sanitised next, like any other).
      const src = node.getAttribute('src') ?? ''
      if (isShownImage(src)) {
        node.setAttribute('class', 'md-image')
        return
      }
      const holder = node.ownerDocument.createElement('span')
      holder.innerHTML = imageLink(src, node.getAttribute('alt') ?? '')
      node.replaceWith(...Array.from(holder.childNodes))
      return
    }
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
  return getPurifier(relativeLinks).sanitize(html) as string
}

export interface RenderOptions {
  /**
   * The message is still streaming: an open fence runs to the end, an
   * unfinished last line that could still flash as something else waits
   * (streamingView), and a $ at the very end closes no formula yet.
   */
  streaming?: boolean
  /** Keep relative links (knowledge-base documents linking to each other). */
  relativeLinks?: boolean
}

/**
 * Renders untrusted markdown to sanitised HTML. This is the one definition of
 * how Markdown looks: renderMarkdownBlocks below renders the same document
 * block by block with the same `marked` instance and the same sanitiser, so
 * anything added to the instance with `marked.use` (tokenizer and renderer
 * extensions, walkTokens) applies to both; `hooks` make the block renderer
 * fall back to this function for the whole document.
 */
export function renderMarkdown(src: string, opts: RenderOptions = {}): string {
  const text = prepareSource(src, !!opts.streaming)
  const html = marked.parse(text, { async: false }) as string
  return replaceMathPlaceholders(sanitizeHtml(html, opts.relativeLinks))
}

/** The text marked lexes: line ends normalised, the streaming view, formulas as placeholders. */
function prepareSource(source: string, streaming: boolean): string {
  return extractMath(viewSource(source, streaming), streaming)
}

function viewSource(source: string, streaming: boolean): string {
  const src = source.includes('\r') ? source.replace(/\r\n?/g, '\n') : source
  return streaming ? streamingView(src) : src
}

// ---- Math placeholders, code blocks ------------------------------------------

/** The language word of a fence's info string ("py title=x" → "py"). */
function fenceLang(lang: string | undefined): string {
  return (lang ?? '').trim().split(/\s+/)[0] ?? ''
}

marked.use({
  walkTokens(token) {
    // A placeholder that landed where Markdown does not render math (code,
    // raw HTML, a URL) gets its source back.
    switch (token.type) {
      case 'code':
      case 'codespan':
      case 'html':
        token.text = restoreMathSource(token.text)
        break
      case 'link':
      case 'image':
        token.href = restoreMathSource(token.href)
        if (token.title) token.title = restoreMathSource(token.title)
        if (token.type === 'link' && !token.raw.startsWith('[')) {
          // A bare URL (GFM autolink): its text is the URL.
          for (const t of token.tokens ?? []) if (t.type === 'text') t.text = restoreMathSource(t.text)
        }
        break
    }
  },
  renderer: {
    code(token: Tokens.Code): string {
      const lang = fenceLang(token.lang)
      const text = token.text
      const { html } = highlightCode(text, lang)
      const langClass = lang ? ` class="hljs language-${escapeHtml(lang)}"` : ' class="hljs"'
      const block =
        `<div class="md-code"><div class="md-code-head"><span class="md-code-lang">${escapeHtml(lang)}</span></div>` +
        `<pre><code${langClass}>${html}</code></pre></div>\n`
      if (lang.toLowerCase() !== 'mermaid') return block
      // MarkdownContent draws the diagram once the fence is closed; until then
      // (and when it cannot be drawn) the source shows as code.
      const state = fenceClosed(token.raw) ? 'md-mermaid-closed' : 'md-mermaid-open'
      return `<div class="md-mermaid ${state}">${block}</div>\n`
    },
  },
})

// ---- Incremental rendering: one top-level block at a time -------------------
//
// A streamed reply grows at its end, so re-rendering the whole message on
// every frame does work proportional to its length (and replaces its whole
// DOM). MarkdownBlockRenderer splits the document into marked's top-level
// tokens (a paragraph, a list with its blank lines, a table, a fence — a
// still-open fence runs to the end), renders each on its own, and keeps the
// HTML of blocks that did not change; while streaming only the last (growing)
// block is lexed and rendered again. Finished blocks also go into a bounded
// LRU cache keyed by their source, so the stored copy of a reply that just
// finished, or a session opened again, renders without parsing again.
// Reference-style link definitions are document-wide: a block that mentions
// "[" is keyed with the document's definitions, and a new definition while
// streaming makes the next render lex the whole document again.

/** One top-level block of rendered Markdown: a stable key and its sanitised HTML. */
export interface MarkdownBlock {
  key: string
  html: string
}

/** Counters for tests and benchmarks: how many blocks went through marked + DOMPurify. */
export const markdownStats = { blockRenders: 0 }

/** A small LRU of rendered blocks, bounded by entries and by characters held. */
class HtmlCache {
  private map = new Map<string, string>()
  private chars = 0
  constructor(
    readonly maxEntries: number,
    readonly maxChars: number,
  ) {}

  get size(): number {
    return this.map.size
  }

  get heldChars(): number {
    return this.chars
  }

  get(key: string): string | undefined {
    const v = this.map.get(key)
    if (v !== undefined) {
      this.map.delete(key)
      this.map.set(key, v)
    }
    return v
  }

  set(key: string, html: string) {
    const old = this.map.get(key)
    if (old !== undefined) {
      this.map.delete(key)
      this.chars -= key.length + old.length
    }
    const cost = key.length + html.length
    if (cost > this.maxChars / 8) return // one huge block would push out everything else
    this.map.set(key, html)
    this.chars += cost
    while (this.map.size > this.maxEntries || this.chars > this.maxChars) {
      const oldest = this.map.keys().next().value as string
      this.chars -= oldest.length + (this.map.get(oldest) ?? '').length
      this.map.delete(oldest)
    }
  }

  clear() {
    this.map.clear()
    this.chars = 0
  }
}

/** At most this many finished blocks are cached … */
export const BLOCK_CACHE_ENTRIES = 800
/** … holding at most this many characters of source and HTML together (~4 MB as UTF-16). */
export const BLOCK_CACHE_CHARS = 2_000_000
const blockCache = new HtmlCache(BLOCK_CACHE_ENTRIES, BLOCK_CACHE_CHARS)

/** Empties the rendered-block cache (tests; a memory-pressure hook could call it too). */
export function clearMarkdownCache() {
  blockCache.clear()
}

/** How much the rendered-block cache holds now. */
export function markdownCacheStats(): { entries: number; chars: number } {
  return { entries: blockCache.size, chars: blockCache.heldChars }
}

type LinkMap = Links

function linksSignature(links: LinkMap): string {
  const keys = Object.keys(links)
  if (keys.length === 0) return ''
  keys.sort()
  return JSON.stringify(keys.map((k) => [k, links[k].href, links[k].title]))
}

/** Lexes src with the app's marked instance (and its walkTokens), seeding link definitions. */
function lexBlocks(src: string, seed: LinkMap | null): { tokens: Token[]; links: LinkMap } {
  const lexer = new marked.Lexer({ ...marked.defaults })
  if (seed) Object.assign(lexer.tokens.links, seed)
  const tokens = lexer.lex(src)
  const walk = marked.defaults.walkTokens
  if (walk) marked.walkTokens(tokens, walk)
  return { tokens: tokens.slice(), links: tokens.links }
}

/** Renders one top-level token to sanitised HTML. */
function renderBlock(token: Token, relativeLinks: boolean): string {
  markdownStats.blockRenders++
  const html = marked.parser([token]) as string
  return replaceMathPlaceholders(sanitizeHtml(html, relativeLinks))
}

/** Tokens that render to nothing: blank lines and link definitions. */
const isContent = (t: Token) => t.type !== 'space' && t.type !== 'def'

interface RenderedBlock {
  raw: string
  sig: string
  html: string
  finished: boolean
}

/**
 * Renders one document (a message, a note, a KB page) block by block and
 * remembers what it rendered, so that a growing document costs only its last
 * block per render. One instance per shown document; not shared.
 */
export class MarkdownBlockRenderer {
  private src = ''
  private tokens: Token[] = []
  private links: LinkMap = Object.create(null) as LinkMap
  /** The tokens' raw texts add up to src (marked keeps every character). */
  private contiguous = false
  /** The tokens came from lexing only the tail (while streaming). */
  private incremental = false
  private blocks: RenderedBlock[] = []
  /** The last math extraction: a growing reply is scanned from its last blank line only. */
  private math: MathScan | null = null

  constructor(private readonly relativeLinks = false) {}

  /** The blocks of src; `streaming` marks the last block as still growing. */
  render(source: string, opts: { streaming?: boolean } = {}): MarkdownBlock[] {
    const streaming = !!opts.streaming
    if (marked.defaults.hooks) {
      // Hooks see the whole document (preprocess/postprocess): no blocks.
      return [{ key: 'all', html: renderMarkdown(source, { streaming, relativeLinks: this.relativeLinks }) }]
    }
    this.math = extractMathIncremental(viewSource(source, streaming), streaming, this.math)
    const src = this.math.out
    this.lex(src, streaming)

    const content = this.tokens.filter(isContent)
    const sig = linksSignature(this.links)
    const out: MarkdownBlock[] = []
    const next: RenderedBlock[] = []
    for (let i = 0; i < content.length; i++) {
      const tok = content[i]
      const growing = streaming && i === content.length - 1
      const tokSig = tok.raw.includes('[') ? sig : ''
      const prev = this.blocks[i]
      let html: string
      if (prev && prev.raw === tok.raw && prev.sig === tokSig) {
        html = prev.html
        if (!growing && !prev.finished) blockCache.set(this.cacheKey(tok.raw, tokSig), html)
      } else if (growing) {
        html = renderBlock(tok, this.relativeLinks)
      } else {
        const key = this.cacheKey(tok.raw, tokSig)
        const cached = blockCache.get(key)
        html = cached ?? renderBlock(tok, this.relativeLinks)
        if (cached === undefined) blockCache.set(key, html)
      }
      next.push({ raw: tok.raw, sig: tokSig, html, finished: !growing })
      out.push({ key: 'b' + i, html })
    }
    this.blocks = next
    return out
  }

  private cacheKey(raw: string, sig: string): string {
    return (this.relativeLinks ? 'r' : 'p') + sig.length + ':' + sig + raw
  }

  private lex(src: string, streaming: boolean) {
    const prev = this.src
    if (src === prev && this.tokens.length > 0 && (streaming || !this.incremental)) return
    if (streaming && this.contiguous && prev !== '') {
      // Lex again from the last block with content: everything before it is
      // final as long as it is unchanged (the text grows at its end; a formula
      // closing or a held-back last line change only the tail).
      let k = this.tokens.length - 1
      while (k > 0 && !isContent(this.tokens[k])) k--
      // A list goes on after blank lines when another item comes ("1. a\n\n2. b").
      let j = k - 1
      while (j >= 0 && !isContent(this.tokens[j])) j--
      if (j >= 0 && this.tokens[j].type === 'list') k = j
      let offset = 0
      const seed = Object.create(null) as LinkMap
      for (let i = 0; i < k; i++) {
        const t = this.tokens[i]
        offset += t.raw.length
        if (t.type === 'def' && !(t.tag in seed)) seed[t.tag] = { href: t.href, title: t.title }
      }
      const tail = src.startsWith(prev.slice(0, offset)) ? lexBlocks(src.slice(offset), seed) : null
      if (tail && linksSignature(tail.links) === linksSignature(this.links)) {
        this.tokens = this.tokens.slice(0, k).concat(tail.tokens)
        this.links = tail.links
        this.src = src
        this.contiguous = tail.tokens.reduce((n, t) => n + t.raw.length, offset) === src.length
        this.incremental = true
        return
      }
      // A new or changed link definition can change any earlier block: lex it all.
    }
    const all = lexBlocks(src, null)
    this.tokens = all.tokens
    this.links = all.links
    this.src = src
    this.contiguous = all.tokens.reduce((n, t) => n + t.raw.length, 0) === src.length
    this.incremental = false
  }
}

/** The blocks of a whole document at once (no memory between calls beyond the shared cache). */
export function renderMarkdownBlocks(src: string, opts: RenderOptions = {}): MarkdownBlock[] {
  return new MarkdownBlockRenderer(!!opts.relativeLinks).render(src, { streaming: opts.streaming })
}
