// The backend's reminder events in the window: the list follows every
// change, a reminder that fires shows a toast and counts in the badge, and a
// click on its desktop notification selects the chat it was set in.
import { onBeforeUnmount, onMounted } from 'vue'
import { useI18n } from 'vue-i18n'
import { onReminderEvents } from '@/api/reminders'
import { useReminderStore } from '@/stores/reminders'
import { useSessionStore } from '@/stores/sessions'
import { useToastStore } from '@/stores/toasts'

/** How long a fired reminder's toast stays, in milliseconds. */
export const REMINDER_TOAST_MS = 15000

/** Handles the reminder events while the component is mounted; `panelOpen` says whether the panel shows. */
export function useReminderEvents(panelOpen: () => boolean) {
  const { t } = useI18n()
  const reminders = useReminderStore()
  const sessions = useSessionStore()
  const toasts = useToastStore()
  let off: (() => void) | null = null
  onMounted(() => {
    reminders.load()
    off = onReminderEvents({
      changed: () => reminders.load(),
      fired: (f) => {
        const key = f.late ? 'reminders.toastLate' : 'reminders.toastFired'
        toasts.push(t(key, { content: f.reminder.content }), 'info', REMINDER_TOAST_MS)
        if (panelOpen()) reminders.load().then(() => reminders.markSeen().catch(() => {}))
        else reminders.fired()
      },
      open: (o) => {
        if (o.sessionId && sessions.sorted.some((s) => s.id === o.sessionId)) sessions.select(o.sessionId)
      },
    })
  })
  onBeforeUnmount(() => off?.())
}
