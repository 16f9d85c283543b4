import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import * as settingsApi from '@/api/settings'
import * as systemApi from '@/api/system'
import type { AppInfo, SettingField, SettingsView } from '@/api/types'
import { useModelStore } from './models'

/** The UI groups, in display order; unknown groups go to "other". */
export const SETTING_GROUPS = ['model', 'providers', 'memory', 'knowledge', 'other'] as const

export const useSettingsStore = defineStore('settings', () => {
  const view = ref<SettingsView | null>(null)
  const info = ref<AppInfo | null>(null)
  const saving = ref(false)
  /** The open Settings form has edits that are not saved yet. */
  const unsavedEdits = ref(false)

  const dataDir = computed(() => view.value?.dataDir || info.value?.dataDir || '')

  const groups = computed(() => {
    const out: { group: string; fields: SettingField[] }[] = SETTING_GROUPS.map((g) => ({
      group: g,
      fields: [],
    }))
    for (const f of view.value?.fields ?? []) {
      const g = out.find((x) => x.group === f.group) ?? out[out.length - 1]
      g.fields.push(f)
    }
    return out.filter((g) => g.fields.length > 0)
  })

  async function loadInfo(): Promise<AppInfo | null> {
    info.value = await systemApi.info()
    return info.value
  }

  async function load() {
    view.value = await settingsApi.get()
  }

  /**
   * Saves changed values (a secret's "" keeps it) and resets the keys in
   * `clear`; the model options are reloaded since DEFAULT_MODEL or a key may
   * have changed what is usable.
   */
  async function save(values: Record<string, string>, clear: string[] = []) {
    saving.value = true
    try {
      view.value = await settingsApi.save({ values, clear })
    } finally {
      saving.value = false
    }
    await useModelStore().load().catch(() => {})
  }

  return {
    unsavedEdits, view, info, saving, dataDir, groups, loadInfo, load, save }
})
