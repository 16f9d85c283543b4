// Saving a note page from the UI (the Save button and Ctrl+S alike): asks
// before saving text that still holds conflict markers, then tells the user
// what the save did when it was more than a plain save.
import { confirm } from '@/composables/useConfirm'
import type { Translate } from '@/utils/errorText'
import { hasConflictMarkers } from '@/utils/noteMerge'
import type { SaveOutcome, useNotesStore } from '@/stores/notes'
import type { useToastStore } from '@/stores/toasts'

type NotesStore = ReturnType<typeof useNotesStore>
type ToastStore = ReturnType<typeof useToastStore>

/** Saves page `id`'s draft; errors become toasts. Returns what the save did. */
export async function saveNote(notes: NotesStore, toasts: ToastStore, t: Translate, id: number): Promise<SaveOutcome> {
  try {
    if (notes.isDirty(id) && !notes.conflictOf(id) && hasConflictMarkers(notes.textOf(id))) {
      if (!(await confirm(t('notes.confirmSaveMarkers'), { okLabel: t('notes.save'), danger: false }))) return 'none'
    }
    const outcome = await notes.save(id)
    if (outcome === 'merged') toasts.info(t('notes.merged'))
    return outcome
  } catch (e) {
    toasts.error(e)
    return 'none'
  }
}
