// The system tray's menu drives the window: "New chat" opens a new, empty
// chat and a listed reminder opens the chat it was set in.
import { onBeforeUnmount, onMounted } from 'vue'
import { onTrayEvents } from '@/api/tray'
import { useSessionStore } from '@/stores/sessions'

/** Handles the tray's events while the component is mounted; `focus` puts the caret in the message box. */
export function useTrayEvents(focus: () => void) {
  const sessions = useSessionStore()
  let off: (() => void) | null = null
  onMounted(() => {
    off = onTrayEvents({
      newChat: () => {
        sessions.startDraft()
        focus()
      },
      openSession: (id) => {
        if (id && sessions.sorted.some((s) => s.id === id)) sessions.select(id)
        focus()
      },
    })
  })
  onBeforeUnmount(() => off?.())
}
