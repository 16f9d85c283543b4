// Plain data types for the app, derived from the generated Wails models so a
// change on the Go side shows up here as a type error. The generated classes
// with a convertValues helper are reduced to their data fields.
import type { app, event, kb, session } from '../../wailsjs/go/models'
import type { ErrorInfo } from './errors'
import type { EventSource } from './events'

type Data<T> = Omit<T, 'convertValues'>

/** One session in the list (Go's session.Summary, bound directly). */
export type Session = session.Summary
export type NotePage = app.NotePage
export type Memory = app.Memory
export type LogEntry = Data<app.LogEntry>
export type LogDetail = Data<app.LogDetail>
/** Token usage of one chat's logged calls (LogPage.usage). */
export type LogUsage = app.LogUsage
/** The state of a chat's background summaries (MemoryService.Status). */
export type MemoryStatus = Data<app.MemoryStatus>
export type ModelPreset = app.ModelPreset
export type SettingField = Data<app.SettingField>
export type AppInfo = app.AppInfo
/** A document that could not be indexed (Go's kb.FailedDoc). */
export type KBFailed = Data<kb.FailedDoc>
/** A document's Markdown; `learned` is the provenance of a learned one (below _learned/), absent otherwise. */
export interface KBDoc extends Omit<Data<app.KBDoc>, 'learned'> {
  learned?: KBLearned
}
/** A learned document's provenance (Go's kb.LearnedInfo). */
export interface KBLearned extends Omit<Data<kb.LearnedInfo>, 'provenance'> {
  provenance: Data<kb.Provenance>
}
export type KBHit = app.KBHit

export interface ImportResult extends Omit<Data<app.ImportResult>, 'session'> {
  session: Session
}
export interface LogPage extends Omit<Data<app.LogPage>, 'entries' | 'usage'> {
  entries: LogEntry[]
  usage: LogUsage[]
}
export interface ModelOptions extends Omit<Data<app.ModelOptions>, 'presets'> {
  presets: ModelPreset[]
}
export interface SettingsView extends Omit<Data<app.SettingsView>, 'fields' | 'desktop'> {
  fields: SettingField[]
  /** What closing the window and START_AT_LOGIN do on this desktop (absent from old fakes). */
  desktop?: DesktopStatus
}
/** Whether a system tray shows playchat (closing hides to it) and start-at-login works here. */
export type DesktopStatus = app.DesktopStatus
/**
 * The knowledge-base index's state: Go's kb.Status, bound directly
 * (KBService.Status). `progress` counts the running pass's files;
 * `lastIndexedAt` is "" when the index never changed (api/kb.ts maps Go's
 * zero time to "").
 */
export interface KBStatus extends Omit<Data<kb.Status>, 'failed'> {
  failed: KBFailed[]
}
/**
 * A knowledge-base folder or document; `path` is relative to the KB root,
 * slash-separated ("" = the root). `children` holds one level only. A
 * folder's `count` is the number of documents anywhere below it (recursive),
 * not its direct entries.
 */
export interface KBNode extends Omit<Data<app.KBNode>, 'children' | 'learned'> {
  children: KBNode[]
  /** Below _learned/: written by another tool (absent from old fakes). */
  learned?: boolean
}
export interface SettingsUpdate {
  values: Record<string, string>
  clear: string[]
}
/**
 * A stored message. `tools` is the activity of the tool calls that produced
 * a reply (null or missing for messages stored before tools existed).
 */
export interface Message extends Omit<Data<app.Message>, 'tools' | 'errorInfo' | 'parentId' | 'sources' | 'tags' | 'attachments'> {
  /** The message this one follows in the session's tree (0 or absent for a first message). */
  parentId?: number
  tools?: ToolActivity[] | null
  /** The pages the reply's turn cited (absent for messages stored before sources were kept). */
  sources?: Source[] | null
  /** `error` with its code and params (absent for replies stored before codes existed). */
  errorInfo?: ErrorInfo | null
  /** The automatic tags (absent or [] until the message is tagged; "tags:updated" brings them). */
  tags?: string[] | null
  /** The files sent with the message (absent or [] when none; issue 25). */
  attachments?: Attachment[] | null
}

/** A file attached to a stored message (Go's app.Attachment). */
export type Attachment = Data<app.Attachment>
export interface TurnStart extends Omit<Data<app.TurnStart>, 'userMessage'> {
  userMessage: Message
}

/** What the UI asks for when it sends a message (the adapter adds turnId). */
export interface SendInput {
  sessionId: string
  text: string
  model: string
  /** Note pages to pin to the session a new chat's first turn creates. */
  notePageIds?: number[]
  /** A new chat's first turn: start it from this assistant (0 or absent: none). */
  assistantId?: number
  /** Files added to the message box (AttachmentService ids), sent in this order. */
  attachmentIds?: string[]
  /**
   * Send only the part of each attached document that fits the model (its
   * first pages or characters, said so in the request): the answer to the
   * chat.attachmentTooLong offer. Without it such a message is refused.
   */
  fitAttachments?: boolean
}

/**
 * The value of a `tool` event: a start, then an end with the same id. It is
 * Go's event.ToolActivity, bound directly; `status` is 'running', 'done' or
 * 'error', and `error` (absent unless 'error') says why a call failed.
 */
export type ToolActivity = Data<event.ToolActivity>

/** One cited page, an element of a `sources` event (Go: event.Source, generated in events.ts). */
export type Source = EventSource

/** One event of a turn's stream, as the Go side emits it (generated from backend/event in events.ts). */
export type { TurnEvent } from './events'
