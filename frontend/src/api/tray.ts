// Events the system tray's menu sends the window (Go: app/tray.go).
import { EventsOn } from '../../wailsjs/runtime/runtime'
import { TRAY_NEW_CHAT, TRAY_OPEN_SESSION } from './events'

export { TRAY_NEW_CHAT, TRAY_OPEN_SESSION }

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
