// Enter in a one-line input (a page title, a section name) commits, except
// the Enter that confirms an IME conversion. Bind the composition handlers on
// the input and ask isCommit(e) in its keydown handler.
import { createImeGuard } from '@/utils/ime'

export function useImeEnter() {
  const guard = createImeGuard()
  return {
    onCompositionStart: () => guard.compositionStart(),
    onCompositionEnd: () => guard.compositionEnd(),
    /** True for a plain Enter that is not part of an IME conversion. */
    isCommit: (e: KeyboardEvent) => e.key === 'Enter' && !guard.isImeEnter(e),
  }
}
