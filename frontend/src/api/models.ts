import * as ModelService from '../../wailsjs/go/app/ModelService'
import { call } from './errors'
import type { ModelOptions, ModelPreset } from './types'

export async function options(): Promise<ModelOptions> {
  const o = await call(() => ModelService.Options())
  return {
    defaultModel: o?.defaultModel ?? '',
    presets: o?.presets ?? [],
    discovered: o?.discovered ?? [],
    configured: !!o?.configured,
  }
}
export const addPreset = (label: string, value: string): Promise<ModelPreset> =>
  call(() => ModelService.AddPreset(label, value))
export const updatePreset = (id: number, label: string, value: string): Promise<ModelPreset> =>
  call(() => ModelService.UpdatePreset(id, label, value))
export const deletePreset = (id: number): Promise<void> => call(() => ModelService.DeletePreset(id))
