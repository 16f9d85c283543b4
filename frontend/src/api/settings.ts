import * as SettingsService from '../../wailsjs/go/app/SettingsService'
import type { app } from '../../wailsjs/go/models'
import { call } from './errors'
import type { SettingsUpdate, SettingsView } from './types'

function normalise(v: SettingsView | null | undefined): SettingsView {
  return { fields: v?.fields ?? [], dataDir: v?.dataDir ?? '', desktop: v?.desktop ?? undefined }
}

export const get = async (): Promise<SettingsView> =>
  normalise(await call(() => SettingsService.Get()))

/**
 * Saves GUI settings. A secret saved as "" keeps its value; keys in `clear`
 * lose their GUI value so the .env, environment or default applies again.
 */
export async function save(update: SettingsUpdate): Promise<SettingsView> {
  const req: app.SettingsUpdate = { values: update.values, clear: update.clear }
  return normalise(await call(() => SettingsService.Save(req)))
}
