// The reminders adapter (ReminderService, app/reminder_service.go) and the
// events the backend sends about reminders.
import * as ReminderService from '../../wailsjs/go/app/ReminderService'
import type { app } from '../../wailsjs/go/models'
import { EventsOn } from '../../wailsjs/runtime/runtime'
import { REMINDERS_CHANGED, REMINDER_FIRED, REMINDER_OPEN } from './events'
import { call } from './errors'

type Data<T> = Omit<T, 'convertValues'>

/** One reminder; times are RFC 3339 UTC strings ("" when unset). */
export type Reminder = app.ReminderItem
/** The panel's content: upcoming (soonest first) and past (latest first). */
export interface ReminderList extends Omit<Data<app.ReminderList>, 'upcoming' | 'past'> {
  upcoming: Reminder[]
  past: Reminder[]
}
/** What the form sends: a local date-time and an optional RRULE value. */
export type ReminderInput = app.ReminderInput

export { REMINDERS_CHANGED, REMINDER_FIRED, REMINDER_OPEN }

export interface ReminderFired {
  reminder: Reminder
  late: boolean
}
export interface ReminderOpen {
  reminderId: number
  sessionId: string
}

export const list = (): Promise<ReminderList> =>
  call(async () => {
    const l = await ReminderService.List()
    return { upcoming: l?.upcoming ?? [], past: l?.past ?? [], unseen: l?.unseen ?? 0, zone: l?.zone ?? '' }
  })

export const create = (input: ReminderInput): Promise<Reminder> => call(() => ReminderService.Create(input))

/** Replaces text, due time and repeat (the session link stays). */
export const edit = (id: number, input: ReminderInput): Promise<Reminder> =>
  call(() => ReminderService.Edit(id, input))

export const cancel = (id: number): Promise<Reminder> => call(() => ReminderService.Cancel(id))

/** Fires again `minutes` from now (1 to one week). */
export const snooze = (id: number, minutes: number): Promise<Reminder> =>
  call(() => ReminderService.Snooze(id, minutes))

/** Acknowledges a reminder, like the notification's Done. */
export const done = (id: number): Promise<Reminder> => call(() => ReminderService.Done(id))

/** Marks every delivery seen; returns how many were unseen. */
export const markSeen = (): Promise<number> => call(() => ReminderService.MarkSeen())

export interface ReminderHandlers {
  changed: () => void
  fired: (f: ReminderFired) => void
  open: (o: ReminderOpen) => void
}

/** Subscribes to the reminder events; returns the unsubscribe function. */
export function onReminderEvents(h: ReminderHandlers): () => void {
  const offs = [
    EventsOn(REMINDERS_CHANGED, () => h.changed()),
    EventsOn(REMINDER_FIRED, (v: unknown) => {
      const f = v as ReminderFired | null
      if (f && f.reminder) h.fired(f)
    }),
    EventsOn(REMINDER_OPEN, (v: unknown) => {
      const o = v as ReminderOpen | null
      if (o) h.open({ reminderId: Number(o.reminderId) || 0, sessionId: typeof o.sessionId === 'string' ? o.sessionId : '' })
    }),
  ]
  return () => offs.forEach((off) => typeof off === 'function' && off())
}
