// Unsent text of the message box, one per chat: a session's id, or null for
// the new chat that is not saved yet. Drafts survive switching chats and,
// kept in localStorage (utils/persist.ts), quitting the app.
import { defineStore } from 'pinia'
import { reactive, watch } from 'vue'
import { isStringRecord, loadStored, storedWriter } from '@/utils/persist'

/** The localStorage key of the drafts: {sessionId or "": text}. */
export const MESSAGE_DRAFTS_KEY = 'playchat.messageDrafts.v1'

export const useDraftStore = defineStore('drafts', () => {
  const texts = reactive(new Map<string | null, string>())
  for (const [k, v] of Object.entries(loadStored(MESSAGE_DRAFTS_KEY, isStringRecord, {}))) {
    if (v.trim() !== '') texts.set(k === '' ? null : k, v)
  }
  const writer = storedWriter(MESSAGE_DRAFTS_KEY, () =>
    Object.fromEntries(Array.from(texts.entries(), ([k, v]) => [k ?? '', v])),
  )
  watch(() => Array.from(texts.entries()), () => writer())

  /** The draft of a chat ("" when there is none). */
  const get = (id: string | null): string => texts.get(id) ?? ''

  /** Keeps a chat's draft; blank text removes it. */
  function set(id: string | null, text: string) {
    if (text.trim() === '') texts.delete(id)
    else texts.set(id, text)
  }

  /** Puts back text that could not be sent, unless the user typed something new meanwhile. */
  function restore(id: string | null, text: string) {
    if (get(id).trim() === '') set(id, text)
  }

  /** The new chat became session `id`: its draft goes with it. */
  function move(from: string | null, to: string | null) {
    const text = texts.get(from)
    if (text === undefined || from === to) return
    texts.delete(from)
    if (get(to).trim() === '') texts.set(to, text)
  }

  /** Drops the draft of a deleted chat. */
  function forget(id: string | null) {
    texts.delete(id)
  }

  return { texts, get, set, restore, move, forget }
})
