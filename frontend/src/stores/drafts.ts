// Unsent text of the message box, one per chat: a session's id, or null for
// the new chat that is not saved yet. Drafts survive switching chats and,
// kept in the data dir (utils/draftPersist.ts), quitting the app.
import { defineStore } from 'pinia'
import { reactive, watch } from 'vue'
import { persistedDrafts } from '@/utils/draftPersist'
import { isStringRecord } from '@/utils/persist'

/** Where older versions kept the drafts ({sessionId or "": text}): taken over once. */
export const MESSAGE_DRAFTS_KEY = 'playchat.messageDrafts.v1'

export const useDraftStore = defineStore('drafts', () => {
  const texts = reactive(new Map<string | null, string>())
  const writer = persistedDrafts(
    'messages',
    MESSAGE_DRAFTS_KEY,
    isStringRecord,
    (saved) => {
      // What was typed before the saved drafts arrived wins.
      for (const [k, v] of Object.entries(saved)) {
        const id = k === '' ? null : k
        if (v.trim() !== '' && !texts.has(id)) texts.set(id, v)
      }
    },
    () => Object.fromEntries(Array.from(texts.entries(), ([k, v]) => [k ?? '', v])),
  )
  /** Resolves once the saved drafts are in. */
  const ready = writer.ready
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

  return { texts, ready, get, set, restore, move, forget }
})
