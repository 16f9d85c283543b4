// Tags arrive in the background after a turn: the open chat shows them
// under their message at once, without reloading its history.
import { onBeforeUnmount, onMounted } from 'vue'
import { onTagsUpdated } from '@/api/tags'
import { useChatStore } from '@/stores/chat'

/** Applies "tags:updated" events to the open chat while the component is mounted. */
export function useTagEvents() {
  const chat = useChatStore()
  let off: (() => void) | null = null
  onMounted(() => {
    off = onTagsUpdated((u) => {
      if (u.messageId) chat.applyTags(u.sessionId, u.messageId, u.tags)
    })
  })
  onBeforeUnmount(() => off?.())
}
