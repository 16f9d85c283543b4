// Versions of a conversation (issue 9): regenerate the last reply, edit and
// resend one of the user's messages, and switch between the versions of a
// message (‹ 2/3 ›). The backend keeps every version as a branch of the
// session's message tree; the chat store shows the selected branch and runs
// the turn (chat.launch), so a regenerate or an edit streams like a send.
import { defineStore } from 'pinia'
import { ref, watch } from 'vue'
import * as chatApi from '@/api/chat'
import * as sessionsApi from '@/api/sessions'
import * as attachmentsApi from '@/api/attachments'
import type { StagedAttachment } from '@/api/attachments'
import { draftMessage, fromStored, type ChatMessage } from '@/utils/turn'
import { reuseMessages } from '@/utils/reuseMessages'
import { MAX_ATTACHMENTS, useAttachmentStore } from './attachments'
import { useChatStore, type FitOffer } from './chat'
import { useDraftStore } from './drafts'
import { useMemoryStore } from './memory'
import { useSessionStore } from './sessions'
import { useToastStore } from './toasts'

/** The request field of a turn sent with only the part of its documents that fits. */
const fit = (opts: { fitAttachments?: boolean }) => (opts.fitAttachments ? { fitAttachments: true } : {})

export const useBranchStore = defineStore('branches', () => {
  const chat = useChatStore()
  const sessions = useSessionStore()
  const toasts = useToastStore()

  /** The id of the user message being edited inline (0: none). */
  const editingId = ref(0)
  /** The text its editor opens with when not the message's own ("": the message's). */
  const editText = ref('')
  /** A branch switch is on its way (the switchers wait). */
  const switching = ref(false)
  let keySeq = 0

  /** Where a stored message sits in the open chat's history (-1: not there). */
  const indexOf = (id: number) => chat.stored.findIndex((m) => m.id === id)

  /** The newest of the user's messages the window shows, if it can be edited. */
  function lastEditable(): ChatMessage | null {
    const list = chat.stored
    for (let i = list.length - 1; i >= 0; i--) {
      const m = list[i]
      if (m.role === 'user') return m.id > 0 && !m.archived ? m : null
    }
    return null
  }

  function startEdit(id: number) {
    if (chat.isStreaming) return
    editingId.value = id
    editText.value = ''
  }

  /** The text the editor of message m opens with. */
  function editorText(m: ChatMessage): string {
    return editingId.value === m.id && editText.value ? editText.value : m.content
  }

  // An edit refused because its documents do not fit: its editor opens
  // again with the edited text while the offer is shown, so neither the
  // offer's Cancel nor a draft in the message box loses it.
  watch(
    () => chat.fitOffer,
    (offer) => {
      if (offer?.retry?.kind !== 'edit' || chat.isStreaming) return
      editingId.value = offer.retry.messageId
      editText.value = offer.retry.text
    },
  )

  /** Up in an empty message box: edit the last of the user's messages. True if an editor opened. */
  function editLast(): boolean {
    const m = lastEditable()
    if (!m || chat.isStreaming) return false
    startEdit(m.id)
    return true
  }

  function cancelEdit() {
    editingId.value = 0
    editText.value = ''
  }

  /**
   * Sends text as a new version of user message id and streams the reply;
   * the editor closes. False when nothing started (blank text, a reply still
   * streaming, the message not shown). fitAttachments sends only the part of
   * the message's documents that fits the model (the offer's answer).
   */
  function resend(id: number, text: string, opts: { fitAttachments?: boolean } = {}): boolean {
    const body = text.trim()
    const sessionId = sessions.currentId
    const at = indexOf(id)
    if (!body || !sessionId || at < 0 || chat.isStreaming) return false
    const model = sessions.currentModel
    editingId.value = 0
    editText.value = ''
    return chat.launch({
      kind: 'edit',
      sessionId,
      model,
      notePageIds: [],
      user: draftMessage(`edit-u${++keySeq}`, 'user', body, model, sessionId),
      cutAt: at,
      retry: { kind: 'edit', model, messageId: id, text: body },
      start: (handlers) => chatApi.editTurn({ sessionId, messageId: id, text: body, model, ...fit(opts) }, handlers),
    })
  }

  /**
   * Writes the last reply again, with model ("" = the open chat's model);
   * the current reply stays as another version. fitAttachments as resend's.
   */
  function regenerate(model = '', opts: { fitAttachments?: boolean } = {}): boolean {
    const sessionId = sessions.currentId
    if (!sessionId || chat.isStreaming) return false
    const list = chat.stored
    let q = list.length - 1
    while (q >= 0 && list[q].role !== 'user') q--
    if (q < 0) return false
    const use = model || sessions.currentModel
    return chat.launch({
      kind: 'regenerate',
      sessionId,
      model: use,
      notePageIds: [],
      user: { ...list[q] },
      cutAt: q + 1,
      retry: { kind: 'regenerate', model: use, questionId: 0 },
      start: (handlers) => chatApi.regenerateTurn({ sessionId, model: use, ...fit(opts) }, handlers),
    })
  }

  /**
   * Retry on an unanswered question (its reply failed, or was stopped
   * before a word): answers stored question id again, with the open chat's
   * model. Messages after it move to another version, as a regenerate's.
   * fitAttachments as resend's.
   */
  function retry(id: number, opts: { fitAttachments?: boolean } = {}): boolean {
    const sessionId = sessions.currentId
    const at = indexOf(id)
    if (!sessionId || at < 0 || chat.isStreaming || chat.stored[at].role !== 'user') return false
    const model = sessions.currentModel
    editingId.value = 0
    const started = chat.launch({
      kind: 'regenerate',
      sessionId,
      model,
      notePageIds: [],
      user: { ...chat.stored[at], unanswered: false },
      cutAt: at + 1,
      retry: { kind: 'regenerate', model, questionId: id },
      start: (handlers) => chatApi.regenerateTurn({ sessionId, model, questionId: id, ...fit(opts) }, handlers),
    })
    // It is being answered now: no mark while the reply streams.
    if (started) chat.stored = chat.stored.map((m) => (m.id === id ? { ...m, unanswered: false } : m))
    return started
  }

  /**
   * Remove on an unanswered question: it and its failed reply go, the
   * messages after it stay. Its text comes back into the message box when
   * that is empty, so it can be shortened and sent again, and its files
   * come back as chips (as many as a message may carry). False when
   * nothing was removed (the error is shown, and no file is staged).
   */
  async function removeUnanswered(id: number): Promise<boolean> {
    const sessionId = sessions.currentId
    const at = indexOf(id)
    if (!sessionId || at < 0 || chat.isStreaming) return false
    const text = chat.stored[at].content
    const files = useAttachmentStore()
    let back: StagedAttachment[] = []
    try {
      // Staged while the question still holds them: removing it may free
      // the stored files.
      if (chat.stored[at].attachments?.length) back = await attachmentsApi.restage(sessionId, id)
      const list = await chatApi.removeUnanswered(sessionId, id)
      if (sessions.currentId === sessionId) chat.stored = reuseMessages(chat.stored, list.map(fromStored))
      useDraftStore().restore(sessionId, text)
      const room = Math.max(0, MAX_ATTACHMENTS - files.list(sessionId).length)
      const over = back.slice(room).filter((s) => s.id)
      if (over.length) void attachmentsApi.discard(over.map((s) => s.id)).catch(() => {})
      files.accept(sessionId, back.slice(0, room))
      chat.focusInput()
      return true
    } catch (e) {
      const ids = back.filter((s) => s.id).map((s) => s.id)
      if (ids.length) void attachmentsApi.discard(ids).catch(() => {})
      toasts.error(e)
      return false
    }
  }

  /**
   * The answer "send the part that fits" to a regenerate's or an edit's
   * offer: the same turn again, sending only the part of its documents that
   * fits; an edit sends its edited text. False when nothing started.
   */
  function sendFitPart(offer: FitOffer): boolean {
    const r = offer.retry
    if (!r) return false
    chat.dismissFitOffer()
    if (r.kind === 'edit') return resend(r.messageId, r.text, { fitAttachments: true })
    if (r.questionId) return retry(r.questionId, { fitAttachments: true })
    return regenerate(r.model, { fitAttachments: true })
  }

  /** Shows the version of the conversation through message id (one of a message's siblingIds). */
  async function switchTo(id: number): Promise<void> {
    const sessionId = sessions.currentId
    if (!sessionId || chat.isStreaming || switching.value) return
    switching.value = true
    editingId.value = 0
    try {
      const list = await sessionsApi.selectBranch(sessionId, id)
      if (sessions.currentId === sessionId) {
        chat.stored = reuseMessages(chat.stored, list.map(fromStored))
      }
      // Long-term memories follow the branch: an open memory panel shows the new one's.
      const memory = useMemoryStore()
      if (memory.sessionId === sessionId) void memory.load(sessionId).catch(() => {})
    } catch (e) {
      toasts.error(e)
    } finally {
      switching.value = false
    }
  }

  return {
    editingId, editorText, switching, lastEditable, startEdit, editLast, cancelEdit, resend, regenerate, retry, removeUnanswered, sendFitPart,
    switchTo,
  }
})
