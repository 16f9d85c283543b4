import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import * as settingsApi from '@/api/settings'
import * as systemApi from '@/api/system'
import type { AppInfo, SettingsView } from '@/api/types'
import { groupSettings } from '@/utils/settingGroups'
import { useModelStore } from './models'

export { SETTING_GROUPS } from '@/utils/settingGroups'

export const useSettingsStore = defineStore('settings', () => {
  const view = ref<SettingsView | null>(null)
  const info = ref<AppInfo | null>(null)
  const saving = ref(false)
  /** The open Settings form has edits that are not saved yet. */
  const unsavedEdits = ref(false)

  const dataDir = computed(() => view.value?.dataDir || info.value?.dataDir || '')

  /** The fields by group, models and keys first (UI_LANGUAGE is shown on its own). */
  const groups = computed(() => groupSettings(view.value?.fields ?? []))

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
