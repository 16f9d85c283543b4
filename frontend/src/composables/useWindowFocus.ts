// Calls back when the app window comes back to the user: the window regains
// focus, or the page becomes visible again (un-minimised, another workspace).
// Both often fire together, so the callback should be cheap or debounced.
import { onBeforeUnmount, onMounted } from 'vue'

export function useWindowFocus(onReturn: () => void) {
  const onFocus = () => onReturn()
  const onVisibility = () => {
    if (document.visibilityState === 'visible') onReturn()
  }
  onMounted(() => {
    window.addEventListener('focus', onFocus)
    document.addEventListener('visibilitychange', onVisibility)
  })
  onBeforeUnmount(() => {
    window.removeEventListener('focus', onFocus)
    document.removeEventListener('visibilitychange', onVisibility)
  })
}
