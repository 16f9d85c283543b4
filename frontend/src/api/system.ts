import * as SystemService from '../../wailsjs/go/app/SystemService'
import type { app } from '../../wailsjs/go/models'
import { BrowserOpenURL, LogError, Quit } from '../../wailsjs/runtime/runtime'
import { call } from './errors'
import type { AppInfo } from './types'

export const info = (): Promise<AppInfo> => call(() => SystemService.Info())

/** Opens an http(s) or mailto link in the user's browser, outside the app window. */
export function openExternal(url: string): void {
  if (!/^(https?:|mailto:)/i.test(url)) return
  try {
    BrowserOpenURL(url)
  } catch {
    window.open(url, '_blank', 'noopener')
  }
}

/** How the backend's start went (Go: app.StartupStatus): the window's first call. */
export type StartupStatus = Omit<app.StartupStatus, 'convertValues'>

/** The start-up status; a failed start (a damaged or newer database…) has ok false and its error. */
export const startupStatus = (): Promise<StartupStatus> => call(() => SystemService.Startup())

/** Ends the app (the start-up error screen's Quit). */
export function quit(): void {
  Quit()
}

/** Writes a line to the app's error output (Wails' log, on stderr); nothing outside the Wails window. */
export function logError(message: string): void {
  try {
    LogError(message)
  } catch {
    // a plain browser: no Wails runtime
  }
}
