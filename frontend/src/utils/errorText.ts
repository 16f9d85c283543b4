// The backend's errors reach the window with a code and params
// (backend/apperr); api/errors.ts words them in the UI language by code.
// This module keeps the names the components import.
import { infoOf, localizeError, type Translate } from '@/api/errors'

export { localizeError, type Translate }

/**
 * The reason part of a refused setting (the `reason` param of a
 * config.invalid* error, or its English text) in the UI language.
 */
export function localizeSettingReason(reason: unknown, t: Translate): string {
  return localizeError(reason, t)
}

/**
 * The backend's own words for err when they differ from its text in the UI
 * language (a tooltip, kept for bug reports), else undefined.
 */
export function errorTitle(err: unknown, t: Translate): string | undefined {
  if (!err) return undefined
  const original = infoOf(err).message
  return original && original !== localizeError(err, t) ? original : undefined
}
