// Rendered content never makes the window load anything (issue 21): every
// surface that renders Markdown — a reply (streaming and stored), an
// imported chat's message, a note's preview, a knowledge-base document, a
// learned-knowledge entry — and mermaid diagrams get a list of payloads
// that each name a listener's address in a way a browser would fetch; the
// rendered DOM must hold no such way (a link's href, which only a click
// follows, in the user's browser, is the one place an address may stay).
import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn() }))

import MarkdownContent from '@/components/markdown/MarkdownContent.vue'
import MessageItem from '@/components/chat/MessageItem.vue'
import { CONTENT_SECURITY_POLICY, CSP_DIRECTIVES } from '@/csp'
import { MAX_REPORTS, reportBlockedLoads } from '@/utils/blockedLoads'
import { isShownImage, renderMarkdown } from '@/markdown/markdown'
import { renderTex } from '@/markdown/math'
import { SECURE_KEYS, mermaidLoader, purifySvg, resetMermaid } from '@/markdown/mermaidBlocks'
import { cssLoads, neutralizeCss } from '@/utils/safeCss'
import { fromStored } from '@/utils/turn'
import { flush, testI18n } from './helpers'

/** The listener every payload points at. */
const L = 'http://127.0.0.1:8999'
/** A 1×1 PNG: the one kind of image the window shows. */
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='

/** Each payload names L where a browser would load it (as the tester's did, and the rest of the kind). */
const PAYLOADS: [string, string][] = [
  ['table background', `<table background="${L}/table"><tr><td background="${L}/td">cell</td></tr></table>`],
  ['th/tr background', `<table><tr background="${L}/tr"><th background="${L}/th">h</th></tr></table>`],
  ['body background', `<body background="${L}/body">x</body>`],
  ['raw img', `<img src="${L}/img.png" alt="pixel">`],
  ['img srcset', `<img srcset="${L}/srcset.png 1x" src="${PNG}">`],
  ['img with a remote lowsrc/dynsrc', `<img lowsrc="${L}/lowsrc" dynsrc="${L}/dynsrc" src="${PNG}">`],
  ['markdown image', `![tracker](${L}/md.png)`],
  ['markdown image reference', `![ref][r]\n\n[r]: ${L}/ref.png`],
  ['style attribute', `<div style="background:url(${L}/style)">styled</div>`],
  ['style attribute, escaped', `<p style="background:u\\72l(${L}/escaped)">p</p>`],
  ['mask in style', `<span style="mask:url(${L}/mask);-webkit-mask-image:url(${L}/mask2)">m</span>`],
  ['style element', `<style>@import url(${L}/import.css); p { background: url(${L}/style-el) }</style>`],
  ['link stylesheet', `<link rel="stylesheet" href="${L}/link.css">`],
  ['link prefetch/icon', `<link rel="prefetch" href="${L}/prefetch"><link rel="icon" href="${L}/icon">`],
  ['meta refresh', `<meta http-equiv="refresh" content="0;url=${L}/meta">`],
  ['base', `<base href="${L}/base/"><a href="rel">rel</a>`],
  ['video poster', `<video poster="${L}/poster" src="${L}/video"></video>`],
  ['audio/source/track', `<audio src="${L}/audio"><source src="${L}/source"><track src="${L}/track"></audio>`],
  ['picture source', `<picture><source srcset="${L}/picture"><img src="${PNG}"></picture>`],
  ['iframe/object/embed', `<iframe src="${L}/iframe"></iframe><object data="${L}/object"></object><embed src="${L}/embed">`],
  ['input image', `<input type="image" src="${L}/input">`],
  ['svg image', `<svg><image href="${L}/svg-image"/><use xlink:href="${L}/use#x"/></svg>`],
  ['math href', `<math href="${L}/math"><mi>x</mi></math>`],
  ['a ping', `<a href="https://example.com/" ping="${L}/ping">a link</a>`],
  ['area href', `<map name="m"><area href="${L}/area" shape="rect" coords="0,0,1,1"></map>`],
  ['blockquote/q cite', `<blockquote cite="${L}/cite">q</blockquote><q cite="${L}/q">q</q>`],
  ['form action', `<form action="${L}/form"><button formaction="${L}/button">go</button></form>`],
  ['script src', `<script src="${L}/script.js"></script>`],
  ['details open with background', `<details open><summary background="${L}/summary">s</summary>x</details>`],
  ['KaTeX htmlStyle', `$\\htmlStyle{background:url(${L}/katex)}{x}$`],
  ['KaTeX includegraphics', `$\\includegraphics{${L}/katex.png}$`],
  ['KaTeX href/url', `$\\href{${L}/katex-href}{x} \\url{${L}/katex-url}$`],
]

/**
 * Every way the rendered DOM under root could make the browser load
 * something: elements that load, attributes naming L (a link's href aside),
 * styles that load, images not from data:.
 */
function loadsIn(root: Element): string[] {
  const found: string[] = []
  const LOADING = new Set([
    'link', 'meta', 'base', 'iframe', 'frame', 'object', 'embed', 'video', 'audio', 'source', 'track',
    'picture', 'image', 'use', 'feimage', 'input', 'script', 'form', 'portal',
  ])
  for (const el of Array.from(root.querySelectorAll('*'))) {
    const tag = el.tagName.toLowerCase()
    if (LOADING.has(tag)) found.push(`<${tag}>`)
    if (tag === 'style' && el.closest('svg') === null) found.push('<style> outside a diagram')
    if (tag === 'style' && cssLoads(el.textContent ?? '')) found.push('<style> that loads: ' + el.textContent)
    if (tag === 'img' && !isShownImage(el.getAttribute('src') ?? '')) found.push('<img src=' + el.getAttribute('src') + '>')
    for (const a of Array.from(el.attributes)) {
      const name = a.name.toLowerCase()
      if (name === 'href' && tag === 'a') continue
      // A style may keep the address as text once it cannot load (blocked-url(…) is no function).
      if (name === 'style') {
        if (cssLoads(a.value)) found.push(`${tag}[style=${a.value}]`)
        continue
      }
      if (a.value.includes('127.0.0.1')) found.push(`${tag}[${name}=${a.value}]`)
      if (['src', 'srcset', 'background', 'poster', 'data', 'action', 'formaction', 'ping', 'cite', 'lowsrc', 'dynsrc'].includes(name) &&
        !(tag === 'img' && name === 'src' && isShownImage(a.value))) {
        found.push(`${tag}[${name}]`)
      }
    }
  }
  return found
}

const dom = (html: string) => {
  const div = document.createElement('div')
  div.innerHTML = html
  return div
}

const assistant = (content: string) =>
  fromStored({
    id: 1, sessionId: 's', role: 'assistant', status: 'complete', content, error: '', model: 'm',
    createdAt: '2025-01-01T00:00:00Z', archived: false, forgotten: false,
  })

/** The surfaces, each mounted as the window mounts it, returning its root element. */
const surfaces: [string, (content: string) => Element][] = [
  ['a reply', (c) => mount(MessageItem, { props: { message: assistant(c) }, global: { plugins: [testI18n()] } }).element],
  ['a streaming reply', (c) => mount(MessageItem, { props: { message: { ...assistant(c), pending: true } }, global: { plugins: [testI18n()] } }).element],
  // An imported chat's messages are stored messages like any other (MessageItem).
  ['an imported message', (c) => mount(MessageItem, { props: { message: assistant(c) }, global: { plugins: [testI18n('ja')] } }).element],
  // NoteEditor's preview and LearnedPanel: <MarkdownContent :content>.
  ['a note preview', (c) => mount(MarkdownContent, { props: { content: c }, global: { plugins: [testI18n()] } }).element],
  ['a learned entry', (c) => mount(MarkdownContent, { props: { content: c, streaming: false }, global: { plugins: [testI18n()] } }).element],
  // KBDocView: <MarkdownContent :content relative-links>.
  ['a knowledge-base document', (c) => mount(MarkdownContent, { props: { content: c, relativeLinks: true }, global: { plugins: [testI18n()] } }).element],
]

describe('no surface renders a way to load anything', () => {
  beforeEach(() => setActivePinia(createPinia()))
  const all = PAYLOADS.map(([, p]) => p).join('\n\n')
  describe.each(surfaces)('%s', (_surface, render) => {
    it.each(PAYLOADS)('%s', (_name, payload) => {
      expect(loadsIn(render(`before\n\n${payload}\n\nafter`))).toEqual([])
    })
    it('all payloads in one document', () => {
      const root = render(all)
      expect(loadsIn(root)).toEqual([])
      expect(root.textContent).toContain('cell') // the table itself is still shown
    })
  })

  it('remote images stay links, data: images are shown', () => {
    const root = dom(renderMarkdown(`![remote](${L}/a.png) <img src="${L}/b.png" alt="raw"> ![dot](${PNG}) <img src="${PNG}" alt="raw dot">`))
    const links = Array.from(root.querySelectorAll('a.md-image-link')).map((a) => [a.getAttribute('href'), a.textContent])
    expect(links).toEqual([[`${L}/a.png`, '🖼 remote'], [`${L}/b.png`, '🖼 raw']])
    const imgs = Array.from(root.querySelectorAll('img'))
    expect(imgs.map((i) => [i.getAttribute('src'), i.getAttribute('alt'), i.className])).toEqual([
      [PNG, 'dot', 'md-image'], [PNG, 'raw dot', 'md-image'],
    ])
    // An SVG or an HTML page as a data: URL is not an image the window shows.
    expect(isShownImage('data:image/svg+xml;base64,PHN2Zz4=')).toBe(false)
    expect(isShownImage('data:text/html;base64,PHN2Zz4=')).toBe(false)
    expect(dom(renderMarkdown('![svg](data:image/svg+xml;base64,PHN2Zz4=)')).querySelector('img')).toBeNull()
  })

  it('keeps what Markdown and the app need: links, tables, code, headings, math', () => {
    const root = dom(renderMarkdown('## Head {#h}\n\n[site](https://example.com)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nlet a\n```\n\n$x^2$'))
    expect(root.querySelector('h2')?.id).toBe('user-content-h')
    expect(root.querySelector('a')?.getAttribute('href')).toBe('https://example.com')
    expect(root.querySelectorAll('td')).toHaveLength(2)
    expect(root.querySelector('pre code.hljs.language-js')).not.toBeNull()
    expect(root.querySelector('.katex')).not.toBeNull()
  })

  it('KaTeX output loads nothing either', () => {
    for (const tex of [`\\htmlStyle{background:url(${L}/x)}{x}`, `\\includegraphics{${L}/x.png}`, `\\href{${L}}{x}`, '\\color{red}{x}']) {
      expect(loadsIn(dom(renderTex(tex, false))), tex).toEqual([])
    }
  })
})

describe('neutralizeCss', () => {
  const loading: string[] = [
    `background:url(${L}/a)`,
    `background:URL( "${L}/a" )`,
    `background:url('${L}/a')`,
    `background:u\\rl(${L}/a)`,
    `background:\\75 rl(${L}/a)`,
    `background:\\000075rl(${L}/a)`,
    `background:u\\72 l(${L}/a)`,
    `background-image:image-set("${L}/a" 1x)`,
    `background-image:-webkit-image-set(url(${L}/a) 1x)`,
    `background:cross-fade(url(${L}/a), red)`,
    `@import "${L}/a.css";`,
    `@im\\70 ort "${L}/a.css";`,
    `@font-face { font-family: x; src: local(x), url(${L}/f) }`,
    `cursor:url(${L}/c), auto`,
    `list-style:url(${L}/l)`,
    `mask:url(${L}/m)`,
    `content:url(${L}/c)`,
    `background:url(data:image/png;base64,AAAA)`,
    `background:url(//evil.example/a)`,
    `filter:url(${L}/f.svg#x)`,
  ]
  it.each(loading)('disables %s', (css) => {
    expect(cssLoads(css)).toBe(true)
    const out = neutralizeCss(css)
    expect(cssLoads(out)).toBe(false)
    expect(out).not.toMatch(/(^|[^-\w])(url|image-set|cross-fade)\(/i)
    expect(out).not.toMatch(/@(import|font-face)\b/i)
    expect(out).not.toContain('\\')
  })

  const kept: string[] = [
    'fill:#f9f;stroke:#333;stroke-width:2px',
    'marker-end:url(#arrowhead)',
    "clip-path:url('#clip-1')",
    'font-family:"trebuchet ms", verdana, arial, sans-serif;font-size:16px',
    '.node rect { fill: #ECECFF } .edgeLabel { background-color: rgba(232,232,232, 0.8) }',
    'height:1.2em;vertical-align:-0.25em',
  ]
  it.each(kept)('keeps %s', (css) => {
    expect(cssLoads(css)).toBe(false)
    expect(neutralizeCss(css)).toBe(css)
  })
})

describe('mermaid', () => {
  beforeEach(() => resetMermaid())
  afterEach(() => vi.restoreAllMocks())

  it("is initialised so that a diagram's own config cannot set its theme, CSS, fonts or labels", async () => {
    const api = { initialize: vi.fn(), parse: vi.fn(async () => ({})), render: vi.fn(async () => ({ svg: '<svg></svg>' })) }
    vi.spyOn(mermaidLoader, 'load').mockResolvedValue(api as never)
    const w = mount(MarkdownContent, { props: { content: '```mermaid\ngraph LR\n  A --> B\n```' }, global: { plugins: [testI18n()] } })
    await flush()
    await vi.waitFor(() => expect(api.render).toHaveBeenCalled())
    const config = api.initialize.mock.calls[0][0] as { secure: string[]; securityLevel: string; htmlLabels: boolean }
    expect(config.securityLevel).toBe('strict')
    expect(config.htmlLabels).toBe(false)
    for (const key of ['secure', 'securityLevel', 'themeCSS', 'themeVariables', 'fontFamily', 'altFontFamily', 'theme', 'htmlLabels']) {
      expect(config.secure).toContain(key)
    }
    expect([...SECURE_KEYS]).toEqual(config.secure)
    w.unmount()
  })

  it("mermaid itself drops a %%{init}%% directive's themeCSS and theme variables with these secure keys", async () => {
    const { default: mermaid } = await import('mermaid')
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', secure: [...SECURE_KEYS] })
    const init = { themeCSS: `.node rect { mask: url(${L}/mask) }`, themeVariables: { primaryColor: `red; background: url(${L}/var)` }, fontFamily: `x; background: url(${L}/font)`, flowchart: { curve: 'basis' } }
    await mermaid.parse(`%%{init: ${JSON.stringify(init)}}%%\ngraph LR\n  A --> B`)
    const config = mermaid.mermaidAPI.getConfig()
    expect(config.themeCSS ?? '').not.toContain(L)
    expect(JSON.stringify(config.themeVariables ?? {})).not.toContain(L)
    expect(config.fontFamily ?? '').not.toContain(L)
    expect(config.flowchart?.curve).toBe('basis') // the rest of the directive still applies
  })

  it("sanitises the SVG it draws: no loading CSS in its <style> or attributes, #references kept", () => {
    const svg =
      `<svg id="d1" xmlns="http://www.w3.org/2000/svg"><style>#d1 .node rect { fill: #ECECFF; mask: url(${L}/theme-css); }` +
      ` @import url(${L}/import.css); #d1 .evil > * { background: u\\72l(${L}/classdef) !important }</style>` +
      `<defs><marker id="arrow"><path d="M0,0 L10,5"/></marker><linearGradient id="g"/></defs>` +
      `<g class="node evil" style="fill:url(${L}/style-stmt);stroke:#333"><rect width="9" height="9" fill="url(#g)" filter="url(${L}/f.svg#x)"/>` +
      `<path d="M0,0 L9,9" marker-end="url(#arrow)"/><image href="${L}/image"/><feImage href="${L}/feimage"/>` +
      `<foreignObject><img src="${L}/fo.png"></foreignObject><a href="${L}/a"><text>link</text></a><text>Start</text></g></svg>`
    const root = dom(purifySvg(svg))
    expect(loadsIn(root)).toEqual([])
    expect(root.querySelector('style')?.textContent).toContain('fill: #ECECFF')
    expect(root.querySelector('rect')?.getAttribute('fill')).toBe('url(#g)')
    expect(root.querySelector('path[marker-end]')?.getAttribute('marker-end')).toBe('url(#arrow)')
    expect(root.querySelector('g.node')?.getAttribute('style')).toContain('stroke:#333')
    expect(root.textContent).toContain('Start')
  })
})

describe('the Content-Security-Policy', () => {
  const directive = (name: string) => CSP_DIRECTIVES.find((d) => d[0] === name)?.slice(1) ?? []
  it('allows the app, data: and blob: only — no network address, no inline script, no eval', () => {
    for (const [, ...sources] of CSP_DIRECTIVES) {
      for (const s of sources) expect(["'self'", "'none'", "'unsafe-inline'", 'data:', 'blob:']).toContain(s)
    }
    expect(directive('default-src')).toEqual(["'self'"])
    expect(directive('script-src')).toEqual(["'self'"])
    expect(directive('img-src')).toEqual(["'self'", 'data:', 'blob:'])
    expect(directive('connect-src')).toEqual(["'self'"])
    for (const none of ['object-src', 'frame-src', 'media-src', 'base-uri', 'form-action']) expect(directive(none)).toEqual(["'none'"])
    expect(CONTENT_SECURITY_POLICY).toMatch(/^default-src 'self'; script-src 'self'; /)
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/https?:|\*|unsafe-eval/)
  })
})

describe('a load the policy refuses', () => {
  it('is reported with its directive and scheme only, at most MAX_REPORTS times', () => {
    const lines: string[] = []
    const stop = reportBlockedLoads(document, (l) => lines.push(l))
    const violate = (directive: string, blockedURI: string) => {
      const e = new Event('securitypolicyviolation')
      Object.assign(e, { effectiveDirective: directive, blockedURI })
      document.dispatchEvent(e)
    }
    violate('img-src', `${L}/secret-text-in-the-url`)
    violate('style-src-attr', 'inline')
    expect(lines).toEqual([
      'playchat: the window refused a load (img-src, http:): content got past the sanitiser',
      'playchat: the window refused a load (style-src-attr, inline): content got past the sanitiser',
    ])
    for (let i = 0; i < 50; i++) violate('img-src', `${L}/${i}`)
    expect(lines).toHaveLength(MAX_REPORTS)
    stop()
    violate('img-src', L)
    expect(lines).toHaveLength(MAX_REPORTS)
    expect(lines.join('\n')).not.toContain('127.0.0.1')
  })
})
