// Generated from app.WindowEvents (app/events.go) by `go test ./app -run TestFrontendEventContract -update-events`. Do not edit.
// The events the backend sends the window: their names and the types of their data.

/** playchat/backend/apperr.Info (Go) as the window receives it. */
export interface ApperrInfo {
  code: string
  params?: Record<string, unknown>
  message: string
}

/** playchat/app.BackgroundPanic (Go) as the window receives it. */
export interface BackgroundPanic {
  job: string
  message: string
}

/** playchat/app.BackupProgress (Go) as the window receives it. */
export interface BackupProgress {
  op: string
  done: number
  total: number
}

/** playchat/app.BackupRun (Go) as the window receives it. */
export interface BackupRun {
  at: string
  ok: boolean
  error: string
  path: string
  size: number
  auto: boolean
}

/** playchat/app.DiscordStatus (Go) as the window receives it. */
export interface DiscordStatus {
  state: string
  user: string
  reason: string
  reasonCode: string
  since: string
}

/** playchat/backend/event.Source (Go) as the window receives it. */
export interface EventSource {
  title: string
  url: string
}

/** playchat/backend/event.ToolActivity (Go) as the window receives it. */
export interface EventToolActivity {
  id: string
  name?: string
  label?: string
  detail?: string
  status: string
  result?: string
  server?: string
  approval?: boolean
  decision?: string
  error?: ApperrInfo
}

/** playchat/app.KBDropProgress (Go) as the window receives it. */
export interface KBDropProgress {
  done: number
  total: number
}

/** playchat/app.ReminderFired (Go) as the window receives it. */
export interface ReminderFired {
  reminder: ReminderItem
  late: boolean
}

/** playchat/app.ReminderItem (Go) as the window receives it. */
export interface ReminderItem {
  id: number
  content: string
  dueAt: string
  zone: string
  repeat: string
  state: string
  error: string
  note: string
  late: boolean
  sessionId: string
  origin: string
  createdAt: string
  notifiedAt: string
  cancelledAt: string
  unseen: boolean
}

/** playchat/app.ReminderOpen (Go) as the window receives it. */
export interface ReminderOpen {
  reminderId: number
  sessionId: string
}

/** playchat/backend/tagging.Pause (Go) as the window receives it. */
export interface TaggingPause {
  model: string
  reason: string
  notTags: boolean
}

/** playchat/backend/tagging.Update (Go) as the window receives it. */
export interface TaggingUpdate {
  sessionId: string
  messageId?: number
  memoryId?: number
  tags: string[]
}

/** One event of a chat turn's stream, discriminated by type (backend/event). */
export type TurnEvent =
  | { type: 'session_id'; value: string }
  | { type: 'tool'; value: EventToolActivity }
  | { type: 'notes_updated' }
  | { type: 'sources'; value: EventSource[] }
  | { type: 'chunk'; value: string }
  | { type: 'done' }
  | { type: 'error'; value: ApperrInfo }

/** The start of the event's name (the item's id follows). One chat turn's stream, on chat:turn:<turnId>: TurnEvent values in order, ending with done or error. Data: TurnEvent. */
export const TURN_EVENT_PREFIX = 'chat:turn:'
/** The start of the event's name (the item's id follows). Progress of files dropped on the Knowledge panel, on kb:drop:<dropId>. Data: KBDropProgress. */
export const KB_DROP_PREFIX = 'kb:drop:'
/** The event's name. A reminder was created, changed or delivered: the reminders panel reloads its list. Data: undefined. */
export const REMINDERS_CHANGED = 'reminders:changed'
/** The event's name. A reminder fell due: a toast, and the badge counts it. Data: ReminderFired. */
export const REMINDER_FIRED = 'reminders:fired'
/** The event's name. The person clicked a reminder's desktop notification: the window selects its chat. Data: ReminderOpen. */
export const REMINDER_OPEN = 'reminders:open'
/** The event's name. The tray's New chat: the window opens a new, empty chat. Data: undefined. */
export const TRAY_NEW_CHAT = 'tray:newChat'
/** The event's name. The tray asks the window to open the chat with this session id ("" for none). Data: string. */
export const TRAY_OPEN_SESSION = 'tray:openSession'
/** The event's name. A user's MCP server changed state or tools: Settings → Tools reloads. Data: undefined. */
export const TOOLS_CHANGED = 'tools:changed'
/** The event's name. A background job panicked and was recovered: one toast per job. Data: BackgroundPanic. */
export const BACKGROUND_PANIC = 'app:background-panic'
/** The event's name. A running backup's or restore check's progress. Data: BackupProgress. */
export const BACKUP_PROGRESS = 'backup:progress'
/** The event's name. An automatic backup finished; a failed one is shown as a toast. Data: BackupRun. */
export const BACKUP_RESULT = 'backup:result'
/** The event's name. A message or memory got its automatic tags: the chips show without a reload. Data: TaggingUpdate. */
export const TAGS_UPDATED = 'tags:updated'
/** The event's name. Automatic tagging paused after failed requests in a row: said once, in a toast. Data: TaggingPause. */
export const TAGS_PAUSED = 'tags:paused'
/** The event's name. The Discord bot's connection changed state. Data: DiscordStatus. */
export const DISCORD_STATUS = 'discord:status'
/** The event's name. A session changed outside the window (a Discord turn): the list, and the chat when open, refresh. Data: string. */
export const SESSION_CHANGED = 'sessions:changed'

/** The data each event carries, by name (undefined: none). */
export interface EventPayloads {
  [key: `${typeof TURN_EVENT_PREFIX}${string}`]: TurnEvent
  [key: `${typeof KB_DROP_PREFIX}${string}`]: KBDropProgress
  [REMINDERS_CHANGED]: undefined
  [REMINDER_FIRED]: ReminderFired
  [REMINDER_OPEN]: ReminderOpen
  [TRAY_NEW_CHAT]: undefined
  [TRAY_OPEN_SESSION]: string
  [TOOLS_CHANGED]: undefined
  [BACKGROUND_PANIC]: BackgroundPanic
  [BACKUP_PROGRESS]: BackupProgress
  [BACKUP_RESULT]: BackupRun
  [TAGS_UPDATED]: TaggingUpdate
  [TAGS_PAUSED]: TaggingPause
  [DISCORD_STATUS]: DiscordStatus
  [SESSION_CHANGED]: string
}
