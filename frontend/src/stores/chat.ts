// The chat: the open session's stored messages plus the turns streaming now.
// Each turn keeps its own state, so a reply keeps streaming (and ends
// correctly) while the user looks at another session.
import { defineStore } from 'pinia'
import { computed, markRaw, ref, shallowRef, watch } from 'vue'
import * as chatApi from '@/api/chat'
import type { TurnEnd, TurnHandle } from '@/api/chat'
import * as sessionsApi from '@/api/sessions'
import type { Source, ToolActivity } from '@/api/types'
import type { ErrorInfo } from '@/api/errors'
import { reuseMessages } from '@/utils/reuseMessages'
import { addMemStatsProbe, noteTurnEnded } from '@/utils/memStats'
import { createFrameBatcher, type FrameBatcher, type FrameScheduler } from '@/utils/frameBatcher'
import {
  draftMessage, failedReply, fromStored, mergeTool, STREAMING, visibleMessages, type ChatMessage,
} from '@/utils/turn'
import { useAssistantStore } from './assistants'
import { useAttachmentStore } from './attachments'
import type { StagedAttachment } from '@/api/attachments'
import * as attachmentsApi from '@/api/attachments'
import { useDraftStore } from './drafts'
import { useNotesStore } from './notes'
import { useSessionStore } from './sessions'
import { useToastStore } from './toasts'

export type TurnStatus = 'streaming' | 'stopping' | 'ended'

/** How often a reply being written elsewhere is read again (followWriting). */
export const WRITING_REFRESH_MS = 2000

export interface Turn {
  turnId: string
  /** The session the turn belongs to; "" until a new chat's session is created. */
  sessionId: string
  status: TurnStatus
  /** How the turn failed, as a value ({code, params}); null while it has not. */
  error: ErrorInfo | null
  notesUpdated: boolean
  /** Note pages a new chat's first turn pins to the session it creates. */
  notePageIds: number[]
  user: ChatMessage
  assistant: ChatMessage
  /** How it started: a sent message, or a new version (stores/branches.ts). */
  kind?: TurnKind
  /** The files sent with the message (they go back to the box if Send fails). */
  files?: StagedAttachment[]
  /** How a regenerate or an edit is made again with only the part of its documents that fits. */
  retry?: FitRetry
}

export type TurnKind = 'send' | 'regenerate' | 'edit'

/** The error code of a message whose attached document does not fit the model. */
export const ATTACHMENT_TOO_LONG = 'chat.attachmentTooLong'

/**
 * A regenerate or an edit refused because its question's documents do not
 * fit the model (a smaller one than the question was sent to): how to make
 * it again with only the part that fits. An edit's text stays with the offer
 * and in the message's editor, which opens again (the message box, which may
 * hold another draft, is left alone).
 */
export type FitRetry =
  | { kind: 'regenerate'; model: string; /** 0: the branch's last question. */ questionId: number }
  | { kind: 'edit'; model: string; messageId: number; /** The edited text (back in the message's editor, not the box). */ text: string }

/**
 * The offer shown when a message's document does not fit the model (issue
 * 25): send the part that fits, or add the file to the knowledge base. The
 * message's text and files are back in the box meanwhile. A regenerate's or
 * an edit's offer (retry set) is about files already in the history: it
 * offers the part that fits only.
 */
export interface FitOffer {
  /** The chat the message was for (null: the new chat). */
  sessionId: string | null
  /** The first document that does not fit whole. */
  name: string
  /** Its pages (a PDF; 0 for other text) and how many of its first pages fit (0: not one). */
  pages: number
  fitPages: number
  /** Its length in characters and how many of its first characters fit (text without pages). */
  chars: number
  fitChars: number
  /** How many documents the message carries. */
  docs: number
  /** Set for a regenerate's or an edit's offer. */
  retry?: FitRetry
  /**
   * The model a send's offer was made for (the chat's model as picked then;
   * "" for the default): picking another model ends the offer, whose part
   * would no longer be the one that fits.
   */
  model?: string
}

/** The offer of a chat.attachmentTooLong error. */
export function fitOfferOf(info: ErrorInfo, sessionId: string | null): FitOffer {
  const p = (info.params ?? {}) as Record<string, unknown>
  const n = (k: string) => (typeof p[k] === 'number' ? (p[k] as number) : 0)
  return {
    sessionId, name: String(p.name ?? ''), pages: n('pages'), fitPages: n('fitPages'), chars: n('chars'),
    fitChars: n('fitChars'), docs: n('docs'),
  }
}

/**
 * A turn to start (send, or a regenerate or edit from stores/branches.ts):
 * what it shows at once and the adapter call that starts it.
 */
export interface TurnPlan {
  kind: TurnKind
  sessionId: string
  model: string
  /** The question shown: typed text, an edited version, or the stored question a regenerate answers again. */
  user: ChatMessage
  notePageIds: number[]
  /** Stored messages from this index on are hidden: the branch the new version replaces. */
  cutAt?: number
  /** The files sent with a new message (attachments store). */
  files?: StagedAttachment[]
  /** A regenerate or an edit: how to make it again with the part that fits (its offer's). */
  retry?: FitRetry
  start(handlers: chatApi.TurnHandlers): TurnHandle
}

interface LiveStream {
  handle: TurnHandle
  batcher: FrameBatcher<string>
  /** Shows the text held back since Stop was pressed. */
  release(): void
}

let frameScheduler: FrameScheduler | undefined

/** Tests drive the chat store's frames by hand; undefined restores the browser's. */
export function setChatFrameScheduler(s: FrameScheduler | undefined) {
  frameScheduler = s
}

export const useChatStore = defineStore('chat', () => {
  const sessions = useSessionStore()
  const notes = useNotesStore()
  const toasts = useToastStore()
  const drafts = useDraftStore()

  // Replaced as a whole, never changed in place: a shallow ref spares a
  // reactive proxy and dependency records for every message of the history.
  const stored = shallowRef<ChatMessage[]>([])
  const loading = ref(false)
  const turns = ref<Turn[]>([])
  /** The last turn error, for the UI. */
  const lastError = ref<ErrorInfo | null>(null)
  /** The open offer for a message whose document does not fit (FitOffer), if any. */
  const fitOffer = ref<FitOffer | null>(null)
  /** Bumped when a turn reports notes_updated. */
  const notesVersion = ref(0)
  /** Bumped to give the keyboard to the message box (ChatComposer watches it). */
  const focusTick = ref(0)
  const focusInput = () => void focusTick.value++

  /**
   * The non-reactive side of each streaming turn, dropped when the turn ends:
   * the adapter's handle, the batcher that applies streamed text at most once
   * per frame, and a flush of text held back since Stop was pressed.
   */
  const streams = new Map<string, LiveStream>()
  let loadSeq = 0
  let keySeq = 0

  addMemStatsProbe('chat', () => ({
    stored: stored.value.length,
    turns: turns.value.length,
    streams: streams.size,
    drafts: drafts.texts.size,
    sessions: sessions.sessions.length,
  }))

  const belongsToCurrent = (t: Turn) =>
    t.sessionId ? t.sessionId === sessions.currentId : sessions.currentId === null

  const currentTurn = computed(
    () => turns.value.find((t) => t.status !== 'ended' && belongsToCurrent(t)) ?? null,
  )
  const isStreaming = computed(() => currentTurn.value !== null)
  const messages = computed(() =>
    visibleMessages(stored.value, turns.value.filter(belongsToCurrent)),
  )

  /** Loads a session's history; false only when it failed (a newer load taking over is fine). */
  async function loadMessages(sessionId: string | null): Promise<boolean> {
    const seq = ++loadSeq
    if (!sessionId) {
      stored.value = []
      loading.value = false
      return true
    }
    loading.value = true
    try {
      const list = await sessionsApi.messages(sessionId)
      if (seq === loadSeq) {
        stored.value = reuseMessages(stored.value, list.map(fromStored))
        followWriting(sessionId)
      }
      return true
    } catch (e) {
      if (seq !== loadSeq) return true
      toasts.error(e)
      return false
    } finally {
      if (seq === loadSeq) loading.value = false
    }
  }

  /**
   * A stored reply that another playchat (`playchat ask`) or a turn from
   * outside the window (Discord) is still writing fills in by itself: the
   * history is read again every WRITING_REFRESH_MS while one is shown (the
   * backend marks it interrupted once its writer has ended). A turn of this
   * window reloads the history when it ends, so it is waited for instead.
   */
  let writingTimer: ReturnType<typeof setTimeout> | undefined
  function followWriting(sessionId: string) {
    clearTimeout(writingTimer)
    writingTimer = undefined
    if (!stored.value.some((m) => m.status === STREAMING)) return
    writingTimer = setTimeout(() => {
      if (sessions.currentId !== sessionId) return
      if (isStreaming.value) followWriting(sessionId)
      else void loadMessages(sessionId)
    }, WRITING_REFRESH_MS)
  }

  // Opening another session shows its history.
  watch(
    () => sessions.currentId,
    (id, old) => {
      if (id === old) return
      stored.value = []
      void loadMessages(id)
    },
  )

  const findTurn = (turnId: string) => turns.value.find((t) => t.turnId === turnId)

  function adoptSession(turn: Turn, sessionId: string) {
    if (!sessionId || turn.sessionId === sessionId) return
    const wasDraft = turn.sessionId === ''
    turn.sessionId = sessionId
    turn.user.sessionId = sessionId
    turn.assistant.sessionId = sessionId
    if (wasDraft) {
      notes.adoptPendingPins(sessionId, turn.notePageIds)
      void sessions.adopt(sessionId).catch((e) => toasts.error(e))
    }
  }

  async function finishTurn(turnId: string, end: TurnEnd) {
    noteTurnEnded()
    const turn = findTurn(turnId)
    const stream = streams.get(turnId)
    streams.delete(turnId)
    if (stream) {
      // Everything that arrived is shown before the turn ends.
      stream.batcher.flush()
      stream.release()
      stream.batcher.dispose()
    }
    if (!turn) return
    turn.status = 'ended'
    turn.assistant.pending = false
    if (!end.ok) {
      turn.error = end.error
      // Text that already arrived stays, as a partial reply with the error.
      Object.assign(turn.assistant, failedReply(turn.assistant.content, end.error))
      lastError.value = end.error
      const offer = !end.started && (turn.kind === 'send' || turn.retry) && end.error.code === ATTACHMENT_TOO_LONG
      // The offer says it in the composer; no toast on top of it.
      if (offer) {
        fitOffer.value = {
          ...fitOfferOf(end.error, turn.sessionId || null),
          ...(turn.retry ? { retry: turn.retry } : { model: turn.user.model }),
        }
      }
      else toasts.error(end.error)
      if (!end.started) {
        // Nothing was stored: give the text back to that chat's input box
        // (a regenerate typed nothing), and show the branch as it was.
        // (an edit with the offer keeps its text in the offer and its editor).
        if (turn.kind === 'send' || (turn.kind === 'edit' && !offer)) drafts.restore(turn.sessionId || null, turn.user.content)
        if (turn.files?.length) useAttachmentStore().restore(turn.sessionId || null, turn.files)
        turns.value = turns.value.filter((t) => t.turnId !== turnId)
        if (turn.kind && turn.kind !== 'send' && turn.sessionId === sessions.currentId) {
          void loadMessages(turn.sessionId)
        }
        return
      }
    }
    // The stored reply (complete, partial or error) replaces the live one;
    // if the history cannot be read now, the live messages stay in its place.
    if (turn.sessionId && turn.sessionId === sessions.currentId) {
      const ok = await loadMessages(turn.sessionId)
      if (!ok && turn.sessionId === sessions.currentId) {
        stored.value = visibleMessages(stored.value, [turn])
      }
    }
    turns.value = turns.value.filter((t) => t.turnId !== turnId)
    if (turn.sessionId) {
      sessions.touch(turn.sessionId)
      void sessions.load().catch(() => {})
    }
  }

  /**
   * Sends text in the open chat; a new chat gets its session from the
   * backend. fitAttachments sends only the part of each document that fits
   * (the offer's "Send pages 1–N").
   */
  function send(text: string, opts: { fitAttachments?: boolean } = {}): boolean {
    const body = text.trim()
    const attachments = useAttachmentStore()
    if ((!body && !attachments.list(sessions.currentId).length) || isStreaming.value) return false
    lastError.value = null
    fitOffer.value = null
    const fitAttachments = opts.fitAttachments === true
    const sessionId = sessions.currentId ?? ''
    const model = sessions.currentModel
    const notePageIds = sessionId ? [] : notes.pinsForNewChat()
    const assistantId = sessionId ? 0 : useAssistantStore().draftId
    const files = attachments.take(sessions.currentId)
    const attachmentIds = files.map((f) => f.id)
    return launch({
      kind: 'send',
      sessionId,
      model,
      notePageIds,
      files,
      user: draftMessage(`live-u${keySeq + 1}`, 'user', body, model, sessionId),
      start: (handlers) =>
        chatApi.streamTurn(
          { sessionId, text: body, model, notePageIds, assistantId, attachmentIds, ...(fitAttachments ? { fitAttachments } : {}) },
          handlers,
        ),
    })
  }

  /** Starts a turn of the open chat: a sent message, a regenerate or an edit. */
  function launch(plan: TurnPlan): boolean {
    if (isStreaming.value) return false
    lastError.value = null
    const { sessionId, model, notePageIds } = plan
    const n = ++keySeq
    const turn: Turn = {
      turnId: '',
      sessionId,
      status: 'streaming',
      error: null,
      notesUpdated: false,
      notePageIds,
      user: plan.user,
      assistant: draftMessage(`live-a${n}`, 'assistant', '', model, sessionId),
      kind: plan.kind,
      files: plan.files,
      retry: plan.retry,
    }
    if (plan.cutAt !== undefined) stored.value = stored.value.slice(0, plan.cutAt)
    turns.value = [...turns.value, turn]
    // Work on the reactive proxy from here on.
    const live = turns.value[turns.value.length - 1]
    // Text that arrives after Stop was pressed is held back, so the reply
    // stops moving at once; it is shown if the stop fails, and added when the
    // turn ends (so a live copy that stays, because the history cannot be
    // read, is complete; normally the stored partial reply replaces it).
    let held = ''
    const batcher = createFrameBatcher<string>((parts) => {
      const text = parts.join('')
      if (live.status === 'stopping') {
        held += text
        return
      }
      live.assistant.content += held + text
      held = ''
    }, { scheduler: frameScheduler })
    const release = () => {
      if (held === '') return
      live.assistant.content += held
      held = ''
    }
    const handle = plan.start(
      {
        onSessionId: (id) => adoptSession(live, id),
        onChunk: (delta) => batcher.push(delta),
        onTool: (ev: ToolActivity) => {
          live.assistant.tools = mergeTool(live.assistant.tools, ev)
        },
        onSources: (list: Source[]) => {
          live.assistant.sources = list
        },
        onNotesUpdated: () => {
          live.notesUpdated = true
          notesVersion.value++
          void notes.onNotesUpdated()
        },
      },
    )
    live.turnId = handle.turnId
    streams.set(handle.turnId, markRaw({ handle, batcher, release }))
    handle.started.then(
      (start) => {
        live.user.id = start.userMessage?.id ?? 0
        if (start.userMessage?.createdAt) live.user.createdAt = start.userMessage.createdAt
        if (start.userMessage?.attachments?.length) live.user.attachments = start.userMessage.attachments
        if (start.model) live.assistant.model = start.model
        adoptSession(live, start.sessionId)
      },
      () => {},
    )
    void handle.done.then((end) => finishTurn(handle.turnId, end))
    return true
  }

  /** Stops the open chat's streaming reply; the backend keeps what arrived. */
  async function stop() {
    const turn = currentTurn.value
    if (!turn || turn.status !== 'streaming') return
    const stream = streams.get(turn.turnId)
    if (!stream) return
    // Show what arrived up to the click, then stop moving: the UI says
    // "stopping" at once, whatever the backend is still sending.
    stream.batcher.flush()
    turn.status = 'stopping'
    try {
      await stream.handle.stop()
    } catch (e) {
      if (turn.status === 'stopping') {
        turn.status = 'streaming'
        stream.release()
      }
      toasts.error(e)
    }
  }

  /**
   * The open chat's offer, if the open chat is the one it is for and the
   * document it is about still waits in its box (removing the chip ends the
   * offer: its buttons would send or add a file that is no longer there).
   */
  const currentFitOffer = computed(() => {
    const offer = fitOffer.value
    const sid = sessions.currentId ?? null
    if (!offer || offer.sessionId !== sid) return null
    // A regenerate's or an edit's documents are in the history, not the box.
    if (offer.retry) return offer
    // Another model picked since: its part would be another (a new-user
    // try saw "send pages 1–79" send pages 1–33 after switching to gpt-4,
    // and all 300 pages after switching to gpt-4o). Send asks again.
    if ((offer.model ?? '') !== (sessions.currentModel ?? '')) return null
    const waiting = useAttachmentStore().list(sid).some((f) => f.kind !== 'image' && f.name === offer.name)
    return waiting ? offer : null
  })

  /** The offer's Cancel: the text and the files stay in the box. */
  function dismissFitOffer() {
    fitOffer.value = null
  }

  /**
   * The offer's "Add to knowledge base": each document waiting in the open
   * chat's box goes into the knowledge base instead (indexed before this
   * goes on), leaves the box, and text is sent without it, so the
   * knowledge-base layer brings its relevant sections. Resolves to the
   * documents' paths in the knowledge base and whether text was sent; on an
   * error (shown as a toast) to null: the offer stays and nothing is sent.
   */
  async function addFitOfferToKnowledge(text: string): Promise<{ added: string[]; sent: boolean } | null> {
    const attachments = useAttachmentStore()
    const sid = sessions.currentId
    const docs = attachments.list(sid).filter((f) => f.kind !== 'image')
    const added: string[] = []
    try {
      for (const f of docs) {
        added.push(await attachmentsApi.addToKnowledge(f.id))
        attachments.forget(sid, [f.id])
      }
    } catch (e) {
      toasts.error(e)
      return null
    }
    fitOffer.value = null
    return { added, sent: send(text) }
  }

  /** Shows a message's tags once the background tagger stored them ("tags:updated"). */
  function applyTags(sessionId: string, messageId: number, tags: string[]) {
    if (sessionId !== sessions.currentId || !stored.value.some((m) => m.id === messageId)) return
    stored.value = stored.value.map((m) => (m.id === messageId ? { ...m, tags: [...tags] } : m))
  }

  return {
    stored, loading, turns, lastError, notesVersion, focusTick, fitOffer,
    currentTurn, isStreaming, messages, currentFitOffer,
    loadMessages, send, launch, stop, applyTags, focusInput, dismissFitOffer, addFitOfferToKnowledge,
  }
})
