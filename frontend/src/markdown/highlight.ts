// Syntax highlighting for fenced code in rendered Markdown: highlight.js core
// with the languages replies use most (their aliases too: js, ts, py, sh,
// yml, html, rs, golang, …). A fence without a known language is shown as
// plain, escaped text; there is no auto-detection (it would run every
// grammar on every frame of a streamed block).
import hljs from 'highlight.js/lib/core'
import bash from 'highlight.js/lib/languages/bash'
import c from 'highlight.js/lib/languages/c'
import cpp from 'highlight.js/lib/languages/cpp'
import css from 'highlight.js/lib/languages/css'
import diff from 'highlight.js/lib/languages/diff'
import go from 'highlight.js/lib/languages/go'
import java from 'highlight.js/lib/languages/java'
import javascript from 'highlight.js/lib/languages/javascript'
import json from 'highlight.js/lib/languages/json'
import markdown from 'highlight.js/lib/languages/markdown'
import python from 'highlight.js/lib/languages/python'
import rust from 'highlight.js/lib/languages/rust'
import shell from 'highlight.js/lib/languages/shell'
import sql from 'highlight.js/lib/languages/sql'
import typescript from 'highlight.js/lib/languages/typescript'
import xml from 'highlight.js/lib/languages/xml'
import yaml from 'highlight.js/lib/languages/yaml'

const LANGUAGES = {
  bash, c, cpp, css, diff, go, java, javascript, json, markdown, python, rust, shell, sql, typescript, xml, yaml,
}
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang)

/** The registered language names (aliases not listed). */
export const HIGHLIGHT_LANGUAGES = Object.keys(LANGUAGES)

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

/**
 * Code longer than this (characters) is shown plain: highlight.js takes
 * about a second for 250,000 characters of Go and grows faster than the
 * code (18 s for 1 MiB), and a streamed block is highlighted again on every
 * frame until it closes.
 */
export const HIGHLIGHT_MAX_CHARS = 20_000

/**
 * Highlighted HTML for code in a language (a name or alias, any case), or
 * the escaped code when the language is unknown or the code is longer than
 * HIGHLIGHT_MAX_CHARS (known is then false). The HTML's text is exactly
 * `code`: only <span class="hljs-…"> wrappers are added.
 */
export function highlightCode(code: string, lang: string): { html: string; known: boolean } {
  const name = lang.toLowerCase()
  if (name && code.length <= HIGHLIGHT_MAX_CHARS && hljs.getLanguage(name)) {
    try {
      return { html: hljs.highlight(code, { language: name, ignoreIllegals: true }).value, known: true }
    } catch {
      // fall through: plain text
    }
  }
  return { html: escapeHtml(code), known: false }
}
