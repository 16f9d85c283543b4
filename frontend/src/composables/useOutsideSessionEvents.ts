// Sessions also change outside the window: a Discord mention runs a turn in
// the channel's session. The chat list picks the session up (a new one
// appears, an old one moves to the top) and the open chat shows the new
// messages — unless a turn of the window's own is streaming there, whose
// end reloads it anyway.
import { onBeforeUnmount, onMounted } from 'vue'
import { onSessionChanged } from '@/api/discord'
import { useChatStore } from '@/stores/chat'
import { useSessionStore } from '@/stores/sessions'

/** Follows "sessions:changed" events while the component is mounted. */
export function useOutsideSessionEvents() {
  const chat = useChatStore()
  const sessions = useSessionStore()
  let off: (() => void) | null = null
  onMounted(() => {
    off = onSessionChanged((id) => {
      sessions.refreshSoon()
      if (sessions.currentId === id && !chat.isStreaming) void chat.loadMessages(id)
    })
  })
  onBeforeUnmount(() => off?.())
}
