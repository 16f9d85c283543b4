// Events the system tray's menu sends the window (Go: app/tray.go).
import { EventsOn } from '../../wailsjs/runtime/runtime'

/** The tray's "New chat". */
export const TRAY_NEW_CHAT = 'tray:newChat'
/** One of the tray's upcoming reminders was chosen; the data is its session id ("" when it has none). */
export const TRAY_OPEN_SESSION = 'tray:openSession'

export interface TrayHandlers {
  newChat: () => void
  openSession: (sessionId: string) => void
}

/** Subscribes to the tray's events; returns the unsubscribe function. */
export function onTrayEvents(h: TrayHandlers): () => void {
  const offs = [
    EventsOn(TRAY_NEW_CHAT, () => h.newChat()),
    EventsOn(TRAY_OPEN_SESSION, (id: unknown) => h.openSession(typeof id === 'string' ? id : '')),
  ]
  return () => offs.forEach((off) => typeof off === 'function' && off())
}
