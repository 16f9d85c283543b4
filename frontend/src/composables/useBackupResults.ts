// A failed automatic backup is a toast (and stays in Settings → Backups),
// never a silent gap (issue 27).
import { onBeforeUnmount, onMounted } from 'vue'
import { useI18n } from 'vue-i18n'
import { onBackupResult } from '@/api/backup'
import { useToastStore } from '@/stores/toasts'

/** Shows failed automatic backups as error toasts while the component is mounted. */
export function useBackupResults() {
  const { t } = useI18n()
  const toasts = useToastStore()
  let off: (() => void) | null = null
  onMounted(() => {
    off = onBackupResult((r) => {
      if (!r.ok) toasts.push(t('backup.autoFailedToast', { error: r.error }), 'error')
    })
  })
  onBeforeUnmount(() => off?.())
}
