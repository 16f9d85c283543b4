// How the settings page orders and names settings: grouped by what a person
// wants to do, models and keys first (a first run needs exactly those), with a
// plain label in the UI language and the .env name as secondary text.
import type { SettingField } from '@/api/types'

/** The groups in display order (config.Groups); a field of an unknown group goes to the last. */
export const SETTING_GROUPS = ['models', 'memory', 'knowledge', 'websearch', 'discord', 'interop', 'backup', 'advanced'] as const

/**
 * Keys the page shows outside the field rows: the language picker at the
 * top, and MODEL_IMAGES as its own control (ModelImagesSection).
 */
export const STANDALONE_KEYS = ['UI_LANGUAGE', 'MODEL_IMAGES']

export interface SettingGroup {
  group: (typeof SETTING_GROUPS)[number]
  fields: SettingField[]
}

/** Splits fields into the groups in display order, keeping their order inside a group; empty groups are left out. */
export function groupSettings(fields: SettingField[]): SettingGroup[] {
  const out: SettingGroup[] = SETTING_GROUPS.map((g) => ({ group: g, fields: [] }))
  for (const f of fields) {
    if (STANDALONE_KEYS.includes(f.key)) continue
    const g = out.find((x) => x.group === f.group) ?? out[out.length - 1]
    g.fields.push(f)
  }
  return out.filter((g) => g.fields.length > 0)
}

/**
 * The plain label of a field in `locale`: the Japanese table for "ja", the
 * backend's English label otherwise, and the key itself when neither has one.
 */
export function settingLabel(field: Pick<SettingField, 'key' | 'label'>, locale: string, ja: Record<string, string>): string {
  if (locale === 'ja' && ja[field.key]) return ja[field.key]
  return field.label || field.key
}
