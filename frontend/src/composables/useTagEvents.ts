// Tags arrive in the background after a turn: the open chat shows them
// under their message at once, without reloading its history. When the
// tagger pauses (its model keeps failing), a toast says so, once.
import { onBeforeUnmount, onMounted } from 'vue'
import { useI18n } from 'vue-i18n'
import { onTagsPaused, onTagsUpdated } from '@/api/tags'
import { useChatStore } from '@/stores/chat'
import { useToastStore } from '@/stores/toasts'

/** Applies "tags:updated" and "tags:paused" events while the component is mounted. */
export function useTagEvents() {
  const chat = useChatStore()
  const toasts = useToastStore()
  const { t } = useI18n()
  const offs: (() => void)[] = []
  onMounted(() => {
    offs.push(
      onTagsUpdated((u) => {
        if (u.messageId) chat.applyTags(u.sessionId, u.messageId, u.tags)
      }),
      onTagsPaused((p) => {
        const what = p.notTags ? t('tags.pausedNotTags', { model: p.model || '—' }) : t('tags.pausedFailing', { model: p.model || '—' })
        toasts.push(what + ' ' + t('tags.pausedResume'), 'info')
      }),
    )
  })
  onBeforeUnmount(() => offs.forEach((off) => off()))
}
