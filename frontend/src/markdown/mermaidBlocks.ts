// Mermaid diagrams in rendered Markdown. renderMarkdown wraps a ```mermaid
// fence in <div class="md-mermaid md-mermaid-closed|open"> with the source
// as a code block; drawMermaidBlocks (called by MarkdownContent after each
// render) draws the closed ones. mermaid is a large library: it is imported
// only when a closed mermaid block is on screen, and initialised with
// securityLevel 'strict' (no click handlers, labels sanitised by mermaid) and
// SVG labels (no HTML in foreignObject); a diagram's own %%{init}%% or
// front-matter config cannot change the theme, its CSS, fonts or labels
// (SECURE_KEYS). Its SVG goes through DOMPurify again before it is shown,
// with every CSS load disabled (a classDef's or a themeCSS's url() would be
// fetched when the SVG is shown: issue 21). A fence still streaming is never
// drawn; a diagram that cannot be drawn keeps its source visible with a
// short error under it.
import DOMPurify from 'dompurify'
import { cssLoads, neutralizeCss } from '@/utils/safeCss'

type MermaidApi = (typeof import('mermaid'))['default']

let loading: Promise<MermaidApi> | null = null

/**
 * The configuration keys a diagram may not set for itself (mermaid drops
 * them from %%{init}%% directives and front-matter config): mermaid's own
 * secure keys, and everything that writes CSS or HTML into the SVG.
 */
export const SECURE_KEYS = [
  'secure', 'securityLevel', 'startOnLoad', 'maxTextSize', 'suppressErrorRendering', 'maxEdges',
  'theme', 'themeCSS', 'themeVariables', 'fontFamily', 'altFontFamily', 'darkMode', 'htmlLabels',
  'look', 'handDrawnSeed', 'dompurifyConfig', 'arrowMarkerAbsolute', 'legacyMathML', 'forceLegacyMathML',
] as const

/** Test hook: how mermaid is imported (the real dynamic import by default). */
export const mermaidLoader = { load: () => import('mermaid').then((m) => m.default) }

/** Imports and initialises mermaid once. */
export function loadMermaid(): Promise<MermaidApi> {
  if (!loading) {
    loading = mermaidLoader.load().then((api) => {
      const dark = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches
      api.initialize({
        startOnLoad: false,
        securityLevel: 'strict',
        htmlLabels: false,
        theme: dark ? 'dark' : 'default',
        fontFamily: 'inherit',
        secure: [...SECURE_KEYS],
      })
      return api
    })
    loading.catch(() => {
      loading = null
    })
  }
  return loading
}

/** Forgets the loaded mermaid and drawn diagrams (tests). */
export function resetMermaid() {
  loading = null
  drawn.clear()
}

type Drawn = { svg: string } | { error: string }
/** Drawn diagrams by source: a block rendered again (scrolled back, reopened) is not drawn twice. */
const drawn = new Map<string, Drawn>()
const DRAWN_ENTRIES = 100

/** How many drawn diagrams are cached (debug statistics). */
export const drawnDiagramCount = (): number => drawn.size
let seq = 0

/** The first line of an error, at most 200 characters. */
function shortError(e: unknown): string {
  const msg = (e instanceof Error ? e.message : String(e)).trim().split('\n')[0] ?? ''
  return msg.length > 200 ? msg.slice(0, 199) + '…' : msg || 'error'
}

let svgPurifier: ReturnType<typeof DOMPurify> | null = null

/** Mermaid's SVG, sanitised: no script, link, foreign content or reference out, no CSS that loads. */
export function purifySvg(svg: string): string {
  if (!svgPurifier) {
    // An instance of its own: mermaid adds and removes hooks on the default one.
    const p = DOMPurify(window)
    p.setConfig({
      USE_PROFILES: { svg: true, svgFilters: true },
      ADD_TAGS: ['style'],
      FORBID_TAGS: ['script', 'foreignObject', 'a', 'use', 'image', 'feImage', 'animate', 'set', 'animateMotion', 'animateTransform'],
      FORBID_ATTR: ['href', 'xlink:href', 'src', 'srcset'],
    })
    p.addHook('uponSanitizeElement', (node) => {
      if ((node as Element).tagName?.toLowerCase() === 'style') node.textContent = neutralizeCss(node.textContent ?? '')
    })
    p.addHook('uponSanitizeAttribute', (_node, data) => {
      if (/^on/i.test(data.attrName)) data.keepAttr = false
      else if (data.attrName === 'style') data.attrValue = neutralizeCss(data.attrValue)
      // fill="url(http://…)", filter, mask, clip-path, markers: only #references stay.
      else if (cssLoads(data.attrValue)) data.keepAttr = false
    })
    svgPurifier = p
  }
  return svgPurifier.sanitize(svg) as string
}

/** Draws one diagram (or says why it cannot). */
export async function drawMermaid(source: string): Promise<Drawn> {
  const hit = drawn.get(source)
  if (hit) return hit
  const api = await loadMermaid()
  const id = `md-mermaid-${++seq}`
  let result: Drawn
  try {
    await api.parse(source)
    const { svg } = await api.render(id, source)
    result = { svg: purifySvg(svg) }
  } catch (e) {
    result = { error: shortError(e) }
  } finally {
    // mermaid leaves its scratch element (or an error picture) in <body> when it fails.
    document.getElementById(id)?.remove()
    document.getElementById('d' + id)?.remove()
  }
  drawn.set(source, result)
  if (drawn.size > DRAWN_ENTRIES) drawn.delete(drawn.keys().next().value as string)
  return result
}

/**
 * Draws every closed mermaid block under root that is not drawn yet. The
 * source stays as code until the diagram is ready; an error is shown under
 * it with `errorText(message)`. Resolves when all are done.
 */
export async function drawMermaidBlocks(root: HTMLElement, errorText: (error: string) => string): Promise<void> {
  const blocks = Array.from(root.querySelectorAll<HTMLElement>('.md-mermaid.md-mermaid-closed')).filter(
    (b) => !b.dataset.drawn,
  )
  if (blocks.length === 0) return
  await Promise.all(
    blocks.map(async (block) => {
      block.dataset.drawn = 'pending'
      const source = block.querySelector('pre code')?.textContent ?? ''
      let result: Drawn
      try {
        result = await drawMermaid(source)
      } catch (e) {
        result = { error: shortError(e) } // mermaid itself did not load
      }
      if (!block.isConnected) return
      if ('svg' in result) {
        const fig = document.createElement('div')
        fig.className = 'md-mermaid-diagram'
        fig.innerHTML = result.svg
        block.prepend(fig)
        block.dataset.drawn = 'svg'
      } else {
        const err = document.createElement('div')
        err.className = 'md-mermaid-error'
        err.setAttribute('role', 'note')
        err.textContent = errorText(result.error)
        block.append(err)
        block.dataset.drawn = 'error'
      }
    }),
  )
}
