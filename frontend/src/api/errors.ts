import type { apperr } from '../../wailsjs/go/models'
import { ERROR_CODES } from './errorCodes'

// The Go side describes an error as {code, params, message} (backend/apperr).
// A bound method's promise is rejected with an Error whose message is that
// object's JSON (app.FormatError: the Wails runtime wraps the formatter's
// value in new Error(value), so an object would arrive as "[object Object]");
// a turn's `error` event carries the object itself. Everything above the
// adapters sees real Error objects: an AppError when the error has a code.

/**
 * An error as the backend describes it: Go's apperr.Info, bound directly.
 * `code` says what went wrong (see api/errorCodes.ts; "" when the error has
 * no code), `params` are the values its message names (nested errors are
 * ErrorInfo too), `message` is the whole English text, kept for tooltips and
 * bug reports.
 */
export type ErrorInfo = apperr.Info

/** An Error from the backend, with its code and params. */
export class AppError extends Error {
  readonly code: string
  readonly params: Record<string, unknown>
  constructor(info: ErrorInfo) {
    super(info.message || info.code || 'unknown error')
    this.name = 'AppError'
    this.code = info.code
    this.params = info.params ?? {}
  }
}

/** Whether v has the shape of an ErrorInfo. */
export function isErrorInfo(v: unknown): v is ErrorInfo {
  return (
    !!v && typeof v === 'object' && typeof (v as ErrorInfo).code === 'string' &&
    typeof (v as ErrorInfo).message === 'string'
  )
}

/** The ErrorInfo in a JSON text (app.FormatError's value), or null. */
function parseInfo(s: string): ErrorInfo | null {
  if (!s.startsWith('{')) return null
  try {
    const v: unknown = JSON.parse(s)
    return isErrorInfo(v) ? v : null
  } catch {
    return null
  }
}

/**
 * The ErrorInfo of any error value: an AppError, an ErrorInfo (or its JSON
 * text, as a bound method's rejection carries it). Anything else — a plain
 * Error or string — has code "" and its text as the message. The stores keep
 * this value (never a worded text) and the components word it with
 * localizeError when they render, so a change of UI language rewords it.
 */
export function infoOf(reason: unknown): ErrorInfo {
  if (reason instanceof AppError) return { code: reason.code, params: reason.params, message: reason.message }
  if (reason instanceof Error) {
    return parseInfo(reason.message) ?? { code: '', message: reason.message }
  }
  if (isErrorInfo(reason)) return reason
  if (typeof reason === 'string') return parseInfo(reason) ?? { code: '', message: reason }
  return { code: '', message: toError(reason).message }
}

/** Turns any rejection value into an Error with a readable message (an AppError when it has a code). */
export function toError(reason: unknown): Error {
  if (reason instanceof AppError) return reason
  const info =
    reason instanceof Error ? parseInfo(reason.message)
    : isErrorInfo(reason) ? reason
    : typeof reason === 'string' ? parseInfo(reason)
    : null
  if (reason instanceof Error && !info) return reason
  if (info) return new AppError(info)
  if (typeof reason === 'string') return new Error(reason || 'unknown error')
  if (reason && typeof reason === 'object' && 'message' in reason) {
    const msg = (reason as { message: unknown }).message
    if (typeof msg === 'string' && msg) return new Error(msg)
  }
  try {
    return new Error(JSON.stringify(reason) ?? String(reason))
  } catch {
    return new Error(String(reason))
  }
}

/** Runs a binding call and rethrows its rejection as an Error. */
export async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (reason) {
    throw toError(reason)
  }
}

/** The message of any thrown value, for toasts. */
export function errorMessage(reason: unknown): string {
  return toError(reason).message
}

// ── the error in the UI language ──

/** The `t` of vue-i18n, as far as this module needs it. */
export type Translate = (key: string, params?: Record<string, unknown>) => string

/** Hints shown under a provider's refusal, by HTTP status. */
function statusHint(status: number): string | null {
  if (status === 401 || status === 403) return 'auth'
  if (status === 429) return 'rateLimit'
  return status >= 500 && status <= 599 ? 'server' : null
}

const REACH_KINDS = ['timeout', 'refused', 'noHost', 'reset']
const SOURCES = ['dotenv', 'env', 'gui']

/**
 * What some codes need besides their message: params worded in the UI
 * language, or a hint line under the message (returned).
 */
const HOOKS: Record<string, (p: Record<string, unknown>, t: Translate) => string | void> = {
  'chat.unreachable': (p, t) => {
    if (REACH_KINDS.includes(String(p.kind))) p.reason = t(`errors.reach.${String(p.kind)}`)
    return t('errors.reach.hint')
  },
  'llm.providerStatus': (p, t) => {
    const hint = statusHint(Number(p.status))
    if (hint) return t(`errors.provider.${hint}`)
  },
  'config.invalidValueFrom': (p, t) => sourceLabel(p, t),
  'config.invalidSecretFrom': (p, t) => sourceLabel(p, t),
}

function sourceLabel(p: Record<string, unknown>, t: Translate): void {
  if (SOURCES.includes(String(p.sourceId))) p.source = t(`errors.config.sources.${String(p.sourceId)}`)
}

/** Whether the window has a message for code (errors.code.<code> in every locale). */
export const isKnownCode = (code: string): boolean => Object.hasOwn(ERROR_CODES, code)

/**
 * An error in the UI language: a backend error with a known code is worded
 * from errors.code.<code> with its params (nested errors worded the same
 * way); anything else keeps its English message. Callers keep the original
 * text at hand (a tooltip) for bug reports.
 */
export function localizeError(err: unknown, t: Translate): string {
  const info = infoOf(err)
  if (!info.code || !isKnownCode(info.code)) return info.message
  const params: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(info.params ?? {})) params[k] = isErrorInfo(v) ? localizeError(v, t) : v
  const hint = HOOKS[info.code]?.(params, t)
  const text = t(`errors.code.${info.code}`, params)
  return hint ? `${text}\n${hint}` : text
}
