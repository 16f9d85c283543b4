// Checks of a chat's own settings before they are saved (the backend
// checks again: store.ChatSettings.Check).
import type { ChatSettings } from '@/api/assistants'

export interface SettingsProblem {
  field: 'temperature' | 'topP' | 'maxOutput'
  min: number
  max: number
}

const LIMITS: Array<[keyof ChatSettings, SettingsProblem['field'], number, number, boolean]> = [
  ['temperature', 'temperature', 0, 2, false],
  ['topP', 'topP', 0, 1, false],
  ['maxOutputTokens', 'maxOutput', 1, 1 << 20, true],
]

/** The first number outside its range (NaN included), or null when all are fine. */
export function settingsProblem(s: ChatSettings): SettingsProblem | null {
  for (const [key, field, min, max, whole] of LIMITS) {
    const v = s[key]
    if (v === undefined || v === null) continue
    const n = v as number
    if (typeof n !== 'number' || Number.isNaN(n) || n < min || n > max || (whole && !Number.isInteger(n))) {
      return { field, min, max }
    }
  }
  return null
}

/** s without empty values (what the backend stores as the defaults). */
export function compactSettings(s: ChatSettings): ChatSettings {
  const out: ChatSettings = {}
  if (s.systemPrompt?.trim()) out.systemPrompt = s.systemPrompt
  if (s.model?.trim()) out.model = s.model.trim()
  if (s.temperature !== undefined && s.temperature !== null) out.temperature = s.temperature
  if (s.topP !== undefined && s.topP !== null) out.topP = s.topP
  if (s.maxOutputTokens) out.maxOutputTokens = s.maxOutputTokens
  if (s.layersOff?.length) out.layersOff = [...s.layersOff]
  if (s.kbDomain) out.kbDomain = s.kbDomain
  return out
}
