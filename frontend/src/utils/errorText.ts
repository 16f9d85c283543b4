// The backend's errors reach the window with a code and params
// (backend/apperr); api/errors.ts words them in the UI language by code.
// This module keeps the names the components import.
import { localizeError, type Translate } from '@/api/errors'

export { localizeError, type Translate }

/**
 * The reason part of a refused setting (the `reason` param of a
 * config.invalid* error, or its English text) in the UI language.
 */
export function localizeSettingReason(reason: unknown, t: Translate): string {
  return localizeError(reason, t)
}
