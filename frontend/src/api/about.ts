// The About box, the folder buttons in Settings and the background-panic
// event (Go: app/about.go, app/background.go).
import * as SystemService from '../../wailsjs/go/app/SystemService'
import type { app } from '../../wailsjs/go/models'
import { EventsOn } from '../../wailsjs/runtime/runtime'
import { BACKGROUND_PANIC, type BackgroundPanic } from './events'
import { call } from './errors'

/** Versions and paths the About box shows (Go: app.AboutInfo). */
export type AboutInfo = app.AboutInfo

export { BACKGROUND_PANIC, type BackgroundPanic }

export const aboutInfo = (): Promise<AboutInfo> => call(() => SystemService.About())

/** Shows <data dir>/logs in the file manager (created when missing); rejects with system.openFolder. */
export const openLogFolder = (): Promise<void> => call(() => SystemService.OpenLogFolder())

/** Shows the data folder in the file manager; rejects with system.openFolder. */
export const openDataFolder = (): Promise<void> => call(() => SystemService.OpenDataFolder())

/** Reads a BACKGROUND_PANIC payload; null when it is not one. */
export function toBackgroundPanic(v: unknown): BackgroundPanic | null {
  if (!v || typeof v !== 'object') return null
  const o = v as Record<string, unknown>
  if (typeof o.job !== 'string' || !o.job) return null
  return { job: o.job, message: typeof o.message === 'string' ? o.message : '' }
}

/** Calls `handler` for every background panic the backend reports; returns the unsubscribe function. */
export function onBackgroundPanic(handler: (p: BackgroundPanic) => void): () => void {
  const off = EventsOn(BACKGROUND_PANIC, (v: unknown) => {
    const p = toBackgroundPanic(v)
    if (p) handler(p)
  })
  return () => typeof off === 'function' && off()
}
