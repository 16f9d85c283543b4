// Client-side checks of setting values before they are saved. The backend
// validates again (ranges included) and its refusal names the key, so it can
// be shown under the field it is about.
import { infoOf, isErrorInfo, type ErrorInfo } from '@/api/errors'

/** What is wrong with a value, by kind or bound; null when it looks fine. */
export type SettingProblem = 'int' | 'float' | 'url' | 'min' | 'max'

const INT = /^[+-]?\d+$/
const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i
/** The backend stores ints as 32-bit. */
const INT_LIMIT = 2 ** 31

/** True for the kinds edited as numbers (a text box with a numeric keyboard). */
export const isNumericKind = (kind: string) => kind === 'int' || kind === 'float'

/** The `inputmode` for a kind's text box, if any. */
export function inputModeFor(kind: string): 'numeric' | 'decimal' | 'url' | undefined {
  if (kind === 'int') return 'numeric'
  if (kind === 'float') return 'decimal'
  if (kind === 'url') return 'url'
  return undefined
}

/**
 * Trims a number typed with a Japanese IME into ASCII: full-width digits,
 * signs, point and e ("１２．５" → "12.5"). Other text is left for the check.
 */
export function normalizeNumber(v: string): string {
  return v
    .trim()
    .replace(/[０-９．＋－ｅＥ]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/[−ー]/g, '-')
}

/** The value to save: numbers normalised, everything else as typed. */
export function cleanSettingValue(kind: string, v: string): string {
  return isNumericKind(kind) ? normalizeNumber(v) : v
}

/** Inclusive bounds of a number, as the backend reports them. */
export interface SettingBounds {
  min?: number | null
  max?: number | null
}

function outOfBounds(n: number, b: SettingBounds): SettingProblem | null {
  if (b.min != null && n < b.min) return 'min'
  if (b.max != null && n > b.max) return 'max'
  return null
}

/** Checks a value of a kind (and its bounds); "" is always fine (the default applies). */
export function settingProblem(kind: string, value: string, bounds: SettingBounds = {}): SettingProblem | null {
  const v = isNumericKind(kind) ? normalizeNumber(value) : value.trim()
  if (v === '') return null
  switch (kind) {
    case 'int':
      return INT.test(v) && Math.abs(Number(v)) < INT_LIMIT ? outOfBounds(Number(v), bounds) : 'int'
    case 'float':
      return FLOAT.test(v) && Number.isFinite(Number(v)) ? outOfBounds(Number(v), bounds) : 'float'
    case 'url':
      try {
        const u = new URL(v)
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname ? null : 'url'
      } catch {
        return 'url'
      }
  }
  return null
}

/** A refusal of the backend about one key. */
export interface SettingRejection {
  key: string
  /** The reason alone (a config.reason.* error), or the whole message. */
  reason: ErrorInfo | string
}

/**
 * Finds which of `keys` a save error is about, so it can be shown under that
 * field: a config.invalid* error names its key and reason; another error
 * that names exactly one of the keys is about that one. Null otherwise.
 */
export function settingRejection(err: unknown, keys: string[]): SettingRejection | null {
  const info = infoOf(err)
  const key = info.params?.key
  if (info.code.startsWith('config.invalid') && typeof key === 'string' && keys.includes(key)) {
    const reason = info.params?.reason
    return { key, reason: isErrorInfo(reason) ? reason : String(reason ?? info.message) }
  }
  const named = keys.filter((k) => new RegExp(`\\b${k}\\b`).test(info.message))
  return named.length === 1 ? { key: named[0], reason: info.message } : null
}
