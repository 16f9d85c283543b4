// A background job that panicked (the backend recovered it and logged the
// stack) shows one error toast per job name, however often it fails.
import { onBeforeUnmount, onMounted } from 'vue'
import { useI18n } from 'vue-i18n'
import { onBackgroundPanic } from '@/api/about'
import { useToastStore } from '@/stores/toasts'

/** Shows the backend's background-panic events as toasts while the component is mounted. */
export function useBackgroundPanics() {
  const { t } = useI18n()
  const toasts = useToastStore()
  const shown = new Set<string>()
  let off: (() => void) | null = null
  onMounted(() => {
    off = onBackgroundPanic((p) => {
      if (shown.has(p.job)) return
      shown.add(p.job)
      toasts.push(t('about.backgroundPanic', { job: p.job }), 'error')
    })
  })
  onBeforeUnmount(() => off?.())
}
