// The backend's errors are English Go error strings. localizeError matches
// the ones people meet most (a provider's refusal, an unreachable server, a
// rejected setting…) and words them in the UI language, keeping their
// variable parts; anything it does not know is returned unchanged. Callers
// keep the original text at hand (a tooltip) for bug reports.

/** The `t` of vue-i18n, as far as this module needs it. */
export type Translate = (key: string, params?: Record<string, unknown>) => string

/** A Go `%q` string (double quotes, backslash escapes). */
const Q = String.raw`"(?:[^"\\]|\\.)*"`

/** The text inside a Go `%q` string; the quoted form itself when it cannot be read. */
export function unquote(q: string): string {
  try {
    const v: unknown = JSON.parse(q)
    if (typeof v === 'string') return v
  } catch {
    // Go escapes JSON does not know (\x41, \a…): show it as Go wrote it
  }
  return q.length >= 2 && q.startsWith('"') && q.endsWith('"') ? q.slice(1, -1) : q
}

/** `text`, with the detail in parentheses when there is one. */
const withDetail = (t: Translate, text: string, detail: string | undefined) =>
  detail ? t('errors.withDetail', { text, detail }) : text

type Rule = readonly [RegExp, (m: RegExpExecArray, t: Translate) => string]

// ── setting values (config.ValueError) ──

const SOURCES: Record<string, string> = { '.env': 'dotenv', 'the environment': 'env', 'the settings': 'gui' }

const REASONS: Rule[] = [
  [/^must be (an integer|a number) ≥ (\S+)$/, (m, t) => t(`errors.config.reason.${kindOf(m[1])}Min`, { min: m[2] })],
  [/^must be (an integer|a number) ≤ (\S+)$/, (m, t) => t(`errors.config.reason.${kindOf(m[1])}Max`, { max: m[2] })],
  [
    /^must be (an integer|a number) (?:from (\S+) to (\S+)|between (\S+) and (\S+))$/,
    (m, t) => t(`errors.config.reason.${kindOf(m[1])}Range`, { min: m[2] ?? m[4], max: m[3] ?? m[5] }),
  ],
  [/^must be (an integer|a number)$/, (m, t) => t(`errors.config.reason.${kindOf(m[1])}`)],
  [/^must be true or false$/, (_, t) => t('errors.config.reason.bool')],
  [/^must be an absolute (?:http:\/\/ or https:\/\/|https?|http\(s\)) URL$/, (_, t) => t('errors.config.reason.url')],
  [new RegExp(`^must be a model name like (${Q})$`), (m, t) => t('errors.config.reason.model', { example: unquote(m[1]) })],
  [/^must not contain spaces or control characters$/, (_, t) => t('errors.config.reason.noSpaces')],
  [/^must not contain control characters$/, (_, t) => t('errors.config.reason.noControl')],
  [/^must be one of (.+)$/, (m, t) => t('errors.config.reason.oneOf', { choices: m[1] })],
]

function kindOf(what: string): 'int' | 'num' {
  return what === 'an integer' ? 'int' : 'num'
}

function apply(rules: Rule[], message: string, t: Translate): string | null {
  const s = message.trim()
  for (const [re, render] of rules) {
    const m = re.exec(s)
    if (m) return render(m, t)
  }
  return null
}

/**
 * The reason part of a refused setting ("must be an integer ≥ 4") in the UI
 * language; any other text goes through localizeError.
 */
export function localizeSettingReason(reason: string, t: Translate): string {
  return apply(REASONS, reason, t) ?? localizeError(reason, t)
}

// ── everything else ──

function providerError(status: string, detail: string, t: Translate): string {
  const base = t('errors.provider.status', { status, detail })
  const n = Number(status)
  const hint =
    n === 401 || n === 403 ? 'auth' : n === 429 ? 'rateLimit' : n >= 500 && n <= 599 ? 'server' : null
  return hint ? `${base}\n${t(`errors.provider.${hint}`)}` : base
}

const REACH_REASONS: Record<string, string> = {
  'timed out': 'timeout',
  'connection refused': 'refused',
  'no such host': 'noHost',
  'connection reset by peer': 'reset',
}

const NOTE_INVALID: Rule[] = [
  [/^the title is empty$/, (_, t) => t('errors.notes.titleEmpty')],
  [/^the title is (\d+) characters; at most (\d+) are allowed$/, (m, t) => t('errors.notes.titleTooLong', { n: m[1], max: m[2] })],
  [/^the title must be one line$/, (_, t) => t('errors.notes.titleOneLine')],
  [/^the title is not valid UTF-8$/, (_, t) => t('errors.notes.titleUtf8')],
  [
    /^the section name is (\d+) characters; at most (\d+) are allowed$/,
    (m, t) => t('errors.notes.sectionTooLong', { n: m[1], max: m[2] }),
  ],
  [/^the section name must be one line$/, (_, t) => t('errors.notes.sectionOneLine')],
  [/^the section name is not valid UTF-8$/, (_, t) => t('errors.notes.sectionUtf8')],
  [
    /^the content is (\d+) bytes; at most (\d+) \(1 MiB\) are allowed$/,
    (m, t) => t('errors.notes.contentTooLong', { n: m[1], max: m[2] }),
  ],
  [/^the content is not valid UTF-8$/, (_, t) => t('errors.notes.contentUtf8')],
  [/^name the section to rename \(ungrouped pages have no section\)$/, (_, t) => t('errors.notes.renameUngrouped')],
  [
    /^the order must list each of the (\d+) pages exactly once \(([\s\S]*)\); nothing was changed$/,
    (m, t) => t('errors.notes.orderIncomplete', { n: m[1], detail: m[2] }),
  ],
  [
    new RegExp(String.raw`^the order splits section (${Q}) \(([\s\S]*)\); nothing was changed$`),
    (m, t) => t('errors.notes.orderSplit', { section: unquote(m[1]), detail: m[2] }),
  ],
]

const RULES: Rule[] = [
  // llm.APIError
  [/^provider returned (\d{3}): ([\s\S]*)$/, (m, t) => providerError(m[1], m[2], t)],
  [/^provider error: ([\s\S]*)$/, (m, t) => t('errors.provider.noStatus', { detail: m[1] })],
  // chat.userError
  [
    /^cannot reach the model server at (.+?) \(([\s\S]*)\)$/,
    (m, t) => {
      const known = REACH_REASONS[m[2]]
      const reason = known ? t(`errors.reach.${known}`) : m[2]
      return `${t('errors.reach.text', { host: m[1], reason })}\n${t('errors.reach.hint')}`
    },
  ],
  [
    /^stream interrupted before the reply finished(?::\s*([\s\S]*))?$/,
    (m, t) => {
      const detail = m[1] === 'the stream ended without a finish_reason' ? t('errors.interrupted.noFinish') : m[1]
      return withDetail(t, t('errors.interrupted.text'), detail)
    },
  ],
  [
    /^the model reached the tool-call limit \((\d+) rounds\): it kept calling tools and gave no answer$/,
    (m, t) => t('errors.toolLimit', { n: m[1] }),
  ],
  // chat.Service
  [/^no model is configured: choose one in the model picker or set DEFAULT_MODEL in Settings$/, (_, t) => t('errors.noModelConfigured')],
  [/^the message is empty$/, (_, t) => t('errors.message.empty')],
  [/^the message is too long \((\d+) bytes, at most (\d+) MiB\)$/, (m, t) => t('errors.message.tooLong', { bytes: m[1], max: m[2] })],
  [/^the message is not valid UTF-8$/, (_, t) => t('errors.message.utf8')],
  [
    /^the message is too long for this model: about (\d+) tokens, the context window allows (\d+)$/,
    (m, t) => t('errors.message.tooLongForModel', { used: m[1], limit: m[2] }),
  ],
  // llm.ResolveModel
  [
    new RegExp(`^unknown model provider: (${Q})(?: \\(want provider/model with provider one of ([^)]*)\\))?$`),
    (m, t) =>
      m[2] !== undefined
        ? t('errors.model.unknownProvider', { model: unquote(m[1]), providers: m[2] })
        : t('errors.model.unknownProviderName', { provider: unquote(m[1]) }),
  ],
  [
    new RegExp(`^missing API key: ([A-Z][A-Z0-9_]*) is not set(?: \\(needed for (${Q})\\))?$`),
    (m, t) =>
      m[2] !== undefined
        ? t('errors.model.missingKeyFor', { key: m[1], model: unquote(m[2]) })
        : t('errors.model.missingKey', { key: m[1] }),
  ],
  [new RegExp(`^no model selected: (${Q}) names no model after the provider$`), (m, t) => t('errors.model.noName', { model: unquote(m[1]) })],
  [/^no model selected(?:(?::\s*|\s+)([\s\S]+))?$/, (m, t) => withDetail(t, t('errors.model.noneSelected'), m[1])],
  // app
  [/^playchat is still starting$/, (_, t) => t('errors.starting')],
  // notes
  [
    new RegExp(`^note page (\\d+) is titled (${Q}): a note page with this title already exists$`),
    (m, t) => t('errors.notes.titleTaken', { id: m[1], title: unquote(m[2]) }),
  ],
  [/^note page (\d+): not found$/, (m, t) => t('errors.notes.pageNotFound', { id: m[1] })],
  [new RegExp(`^section (${Q}) has no pages: not found$`), (m, t) => t('errors.notes.sectionEmpty', { section: unquote(m[1]) })],
  [
    /^([\s\S]+): invalid input$/,
    (m, t) => apply(NOTE_INVALID, m[1], t) ?? withDetail(t, t('errors.notes.invalid'), m[1]),
  ],
  // session import
  [/^invalid session file: ([\s\S]+)$/, (m, t) => t('errors.sessionFile', { detail: m[1] })],
  // config.ValueError
  [
    new RegExp(`^config: invalid ([A-Z][A-Z0-9_]*) (\\(value hidden\\)|${Q})(?: from ([^:]*))?: ([\\s\\S]+)$`),
    (m, t) => {
      const [, key, value, from, why] = m
      const reason = apply(REASONS, why, t) ?? why
      const hidden = value === '(value hidden)'
      const source = from === undefined ? undefined : SOURCES[from] ? t(`errors.config.sources.${SOURCES[from]}`) : from
      const variant = (hidden ? 'invalidHidden' : 'invalid') + (source === undefined ? '' : 'From')
      return t(`errors.config.${variant}`, { key, value: hidden ? '' : unquote(value), source, reason })
    },
  ],
  [new RegExp(`^config: unknown configuration key: (${Q})$`), (m, t) => t('errors.config.unknownKey', { key: unquote(m[1]) })],
  // api logs
  [/^cancelled \(stopped by the user\)$/, (_, t) => t('errors.cancelled')],
]

/**
 * A backend error message in the UI language: known English messages are
 * translated (their variable parts kept), anything else comes back unchanged.
 */
export function localizeError(message: string, t: Translate): string {
  if (!message) return message
  return apply(RULES, message, t) ?? message
}
