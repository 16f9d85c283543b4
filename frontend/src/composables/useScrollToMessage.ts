// Brings a message the search asked for (search.focus) into view in the chat
// window: the window renders a long chat's newest messages only, so it first
// widens that window to include the message, then scrolls it to the middle
// and marks it for a moment. The message is found by its data-message-id.
import { nextTick, watch, type Ref } from 'vue'
import { useSearchStore } from '@/stores/search'

/** How long a message the search opened stays marked, in ms. */
export const FOCUS_MARK_MS = 2500

export function useScrollToMessage(opts: {
  scroller: Ref<HTMLElement | null>
  /** Every message of the open chat, oldest first. */
  messages: () => { id: number }[]
  /** How many of the newest messages the window renders (widened as needed). */
  shownCount: Ref<number>
}) {
  const search = useSearchStore()
  let unmark: (() => void) | null = null

  watch(
    () => search.focus?.seq,
    async () => {
      const f = search.focus
      if (!f) return
      const list = opts.messages()
      const i = list.findIndex((m) => m.id === f.messageId)
      if (i < 0) return
      // Render from a few messages above the hit, so it has context above it.
      opts.shownCount.value = Math.max(opts.shownCount.value, list.length - i + 3)
      await nextTick()
      await nextTick()
      const el = opts.scroller.value?.querySelector<HTMLElement>(`[data-message-id="${f.messageId}"]`)
      if (!el) return
      if (typeof el.scrollIntoView === 'function') el.scrollIntoView({ block: 'center' })
      // Older messages render their Markdown only near the viewport: once
      // they have, put the hit back in the middle.
      requestAnimationFrame(() => {
        if (typeof el.scrollIntoView === 'function' && el.isConnected) el.scrollIntoView({ block: 'center' })
      })
      unmark?.()
      el.classList.add('search-hit')
      const timer = setTimeout(() => el.classList.remove('search-hit'), FOCUS_MARK_MS)
      unmark = () => {
        clearTimeout(timer)
        el.classList.remove('search-hit')
      }
    },
  )
}
