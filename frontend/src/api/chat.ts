// The chat adapter: one turn = one Send call plus the events streamed on
// "chat:turn:<turnId>". The listener is attached before Send (so no early
// event is lost) and removed when the turn ends, whatever way it ends.
import * as ChatService from '../../wailsjs/go/app/ChatService'
import { EventsOn } from '../../wailsjs/runtime/runtime'
import { call, infoOf, type ErrorInfo } from './errors'
import { TURN_EVENT_PREFIX } from './events'
import type { Message, SendInput, Source, ToolActivity, TurnEvent, TurnStart } from './types'

export interface TurnHandlers {
  onSessionId?(sessionId: string): void
  onChunk?(delta: string): void
  onTool?(activity: ToolActivity): void
  onNotesUpdated?(): void
  onSources?(sources: Source[]): void
}

/** How a turn ended. `started` is false when Send itself was rejected. */
export type TurnEnd = { ok: true } | { ok: false; error: ErrorInfo; started: boolean }

export interface TurnHandle {
  turnId: string
  /** Resolves once the user's message is stored; rejects with an Error if Send failed. */
  started: Promise<TurnStart>
  /** Resolves (never rejects) when the turn is over. */
  done: Promise<TurnEnd>
  /** Asks the backend to cancel the turn; the partial reply is kept. */
  stop(): Promise<void>
}

/** The event that carries one turn's stream: chat:turn:<turnId> (events.ts). */
export function turnEventName(turnId: string): string {
  return TURN_EVENT_PREFIX + turnId
}

function newTurnId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') {
    return crypto.randomUUID()
  }
  return 't-' + Date.now().toString(36) + '-' + Math.random().toString(36).slice(2)
}

function parseEvent(raw: unknown): TurnEvent | null {
  let ev = raw
  if (typeof ev === 'string') {
    try {
      ev = JSON.parse(ev)
    } catch {
      return null
    }
  }
  if (!ev || typeof ev !== 'object' || typeof (ev as { type?: unknown }).type !== 'string') {
    return null
  }
  return ev as TurnEvent
}

export function streamTurn(input: SendInput, handlers: TurnHandlers = {}): TurnHandle {
  return runTurn(
    (turnId) =>
      ChatService.Send({
        turnId,
        sessionId: input.sessionId,
        text: input.text,
        model: input.model,
        notePageIds: input.notePageIds ?? [],
        assistantId: input.assistantId ?? 0,
        attachmentIds: input.attachmentIds ?? [],
        fitAttachments: input.fitAttachments ?? false,
      }),
    handlers,
  )
}

/** What a regenerate asks for: a new last reply of the session's selected branch. */
export interface RegenerateInput {
  sessionId: string
  /** "" keeps the session's model. */
  model: string
  /** Retry of an unanswered question: the question to answer again (0 or absent = the last). */
  questionId?: number
  /** Sends only the part of each of the question's documents that fits the model (the chat.attachmentTooLong offer). */
  fitAttachments?: boolean
}

/** What an edit-and-resend asks for: a new version of one of the user's messages. */
export interface EditInput {
  sessionId: string
  messageId: number
  text: string
  model: string
  /** Sends only the part of each of the original's documents that fits the model (the chat.attachmentTooLong offer). */
  fitAttachments?: boolean
}

/** Regenerates the last reply, streamed like a sent message's (the old reply stays as a version). */
export function regenerateTurn(input: RegenerateInput, handlers: TurnHandlers = {}): TurnHandle {
  return runTurn((turnId) => ChatService.Regenerate({ turnId, questionId: 0, fitAttachments: false, ...input }), handlers)
}

/**
 * Removes an unanswered question (and its failed or empty reply); the
 * messages after it stay. Resolves to the session's selected branch.
 */
export async function removeUnanswered(sessionId: string, messageId: number): Promise<Message[]> {
  return (await call(() => ChatService.RemoveUnanswered(sessionId, messageId))) as Message[]
}

/** Sends an edited user message as a new version and streams its reply. */
export function editTurn(input: EditInput, handlers: TurnHandlers = {}): TurnHandle {
  return runTurn((turnId) => ChatService.Edit({ turnId, fitAttachments: false, ...input }), handlers)
}

/** One turn: subscribe to its events, then start it with begin(turnId). */
function runTurn(begin: (turnId: string) => Promise<unknown>, handlers: TurnHandlers): TurnHandle {
  const turnId = newTurnId()
  let finished = false
  let resolveDone!: (end: TurnEnd) => void
  const done = new Promise<TurnEnd>((r) => (resolveDone = r))

  let unsubscribe: (() => void) | null = null
  const finish = (end: TurnEnd) => {
    if (finished) return
    finished = true
    if (unsubscribe) {
      unsubscribe()
      unsubscribe = null
    }
    resolveDone(end)
  }

  unsubscribe = EventsOn(turnEventName(turnId), (raw: unknown) => {
    if (finished) return
    const ev = parseEvent(raw)
    if (!ev) return
    switch (ev.type) {
      case 'session_id':
        if (typeof ev.value === 'string' && ev.value) handlers.onSessionId?.(ev.value)
        break
      case 'chunk':
        if (typeof ev.value === 'string') handlers.onChunk?.(ev.value)
        break
      case 'tool':
        if (ev.value && typeof ev.value.id === 'string') handlers.onTool?.(ev.value)
        break
      case 'notes_updated':
        handlers.onNotesUpdated?.()
        break
      case 'sources':
        if (Array.isArray(ev.value)) handlers.onSources?.(ev.value)
        break
      case 'done':
        finish({ ok: true })
        break
      case 'error':
        finish({ ok: false, error: infoOf(ev.value ?? ''), started: true })
        break
    }
  })

  const started = call(() => begin(turnId)) as Promise<TurnStart>
  started.catch((err: unknown) => finish({ ok: false, error: infoOf(err), started: false }))

  const stop = async () => {
    if (finished) return
    try {
      await started
    } catch {
      return // Send failed: there is nothing to stop
    }
    if (finished) return
    await call(() => ChatService.Stop(turnId))
  }

  return { turnId, started, done, stop }
}
