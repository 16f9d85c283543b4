// The window's Content-Security-Policy (issue 21), a backstop under the
// sanitisers (markdown/markdown.ts, markdown/mermaidBlocks.ts, utils/safeCss.ts):
// the page loads nothing from anywhere but the app's own origin (Wails
// serves it from wails://wails/), images and styles also from data: and
// blob: URLs, fonts also from data: (small assets vite inlines). No
// network address is allowed anywhere, so a reply, a note, a KB document or
// an imported chat that slips an address past the sanitiser still loads
// nothing — no read receipt, no text leaked in a URL. Scripts only from
// the app (no inline script, no eval); styles may be inline (KaTeX, mermaid
// and Vue write them). vite.config.ts puts it into index.html as a <meta>
// in production builds only: `wails dev` serves the page through vite's dev
// server, whose client needs its own connections.

/** The policy's directives, in the order they are written. */
export const CSP_DIRECTIVES: readonly (readonly [string, ...string[]])[] = [
  ['default-src', "'self'"],
  ['script-src', "'self'"],
  ['style-src', "'self'", "'unsafe-inline'", 'data:', 'blob:'],
  ['img-src', "'self'", 'data:', 'blob:'],
  ['font-src', "'self'", 'data:'],
  ['connect-src', "'self'"],
  ['media-src', "'none'"],
  ['object-src', "'none'"],
  ['frame-src', "'none'"],
  ['worker-src', "'none'"],
  ['manifest-src', "'none'"],
  ['form-action', "'none'"],
  ['base-uri', "'none'"],
]

/** The policy as the <meta http-equiv="Content-Security-Policy"> content. */
export const CONTENT_SECURITY_POLICY = CSP_DIRECTIVES.map((d) => d.join(' ')).join('; ')
