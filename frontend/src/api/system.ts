import * as SystemService from '../../wailsjs/go/app/SystemService'
import { BrowserOpenURL, LogError } from '../../wailsjs/runtime/runtime'
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

/** Writes a line to the app's error output (Wails' log, on stderr); nothing outside the Wails window. */
export function logError(message: string): void {
  try {
    LogError(message)
  } catch {
    // a plain browser: no Wails runtime
  }
}
