// The Settings form's unsaved values and their errors: the client's checks
// (a number that is not one, a URL that is not http(s)) and the backend's
// refusals, shown under the field they name (else in the footer), in the UI
// language with the backend's own words kept for a tooltip.
import { computed, reactive, ref, type Ref } from 'vue'
import { useI18n } from 'vue-i18n'
import { infoOf, type ErrorInfo } from '@/api/errors'
import type { SettingField } from '@/api/types'
import { localizeError, localizeSettingReason } from '@/utils/errorText'
import { cleanSettingValue, settingProblem, settingRejection } from '@/utils/settings'

export function useSettingEdits(fields: Ref<SettingField[]>) {
  const { t } = useI18n()
  /** Unsaved values by key; a key is absent when unchanged. */
  const edits = reactive<Record<string, string>>({})
  /** The backend's refusals by key, as it wrote them (cleared when that value is edited again). */
  const rejected = reactive<Record<string, { reason: ErrorInfo | string; message: string }>>({})
  /** A save error that names no edited field, as a value ({code, params}). */
  const saveErrorInfo = ref<ErrorInfo | null>(null)
  /** That error as the backend wrote it (a tooltip, for bug reports). */
  const saveErrorOriginal = computed(() => saveErrorInfo.value?.message ?? '')
  /** That error in the UI language. */
  const saveError = computed(() => (saveErrorInfo.value ? localizeError(saveErrorInfo.value, t) : ''))

  const dirty = computed(() => Object.keys(edits).length > 0)
  const problemOf = (f: SettingField) =>
    f.secret || edits[f.key] === undefined ? null : settingProblem(f.kind, edits[f.key], f)
  /** Some edit fails the client's check: Save stays disabled. */
  const invalid = computed(() => fields.value.some((f) => problemOf(f) !== null))

  /** The message under a field: the client's check of its edit, else the backend's refusal. */
  function fieldError(f: SettingField): string {
    const problem = problemOf(f)
    if (problem) return t(`settings.invalid.${problem}`, { min: f.min, max: f.max })
    const r = rejected[f.key]
    if (r) return t('settings.rejected', { reason: localizeSettingReason(r.reason, t) })
    // The value in use is invalid where it was set (.env, the environment):
    // say so until it is edited.
    return edits[f.key] === undefined && f.error ? localizeError(f.error, t) : ''
  }

  /** The backend's own words for a field's refusal (a tooltip, for bug reports); '' when none. */
  function fieldErrorOriginal(f: SettingField): string {
    if (problemOf(f)) return ''
    return rejected[f.key]?.message ?? (edits[f.key] === undefined ? (f.error?.message ?? '') : '')
  }

  function setEdit(key: string, value: string | undefined) {
    if (value === undefined) delete edits[key]
    else edits[key] = value
    delete rejected[key]
    saveErrorInfo.value = null
  }

  function clearErrors() {
    for (const k of Object.keys(rejected)) delete rejected[k]
    saveErrorInfo.value = null
  }

  function clearEdits() {
    for (const k of Object.keys(edits)) delete edits[k]
  }

  /** The edits as they are sent: numbers typed in full width become ASCII. */
  function values(): Record<string, string> {
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(edits)) {
      out[k] = cleanSettingValue(fields.value.find((f) => f.key === k)?.kind ?? 'string', v)
    }
    return out
  }

  /** Shows a refused save under the field it names, or in the footer. */
  function showSaveError(e: unknown, keys: string[]) {
    const info = infoOf(e)
    const r = settingRejection(e, keys)
    if (r) rejected[r.key] = { reason: r.reason, message: info.message }
    else saveErrorInfo.value = info
  }

  return {
    edits, dirty, invalid, saveError, saveErrorOriginal, fieldError, fieldErrorOriginal,
    setEdit, clearErrors, clearEdits, values, showSaveError,
  }
}
