package app

import (
	"reflect"

	"playchat/backend/apperr"
	"playchat/backend/event"
	"playchat/backend/tagging"
)

// WindowEvent is one event the backend sends the window over the Wails
// runtime (Platform.Emit). WindowEvents is the whole contract: the window's
// constants and payload types (frontend/src/api/events.ts) are generated from
// it by `go test ./app -run TestFrontendEventContract -update`, and a stale
// file fails that test, as the bindings and the error codes do.
type WindowEvent struct {
	// Name is the event's name, or with PerID the prefix its id follows.
	Name string
	// PerID marks an event sent per item: its name is Name + the item's id
	// (a turn's events: "chat:turn:<turnId>").
	PerID bool
	// Const is the TypeScript constant that holds Name (SCREAMING_SNAKE).
	Const string
	// Payload is the data's Go type; nil for an event without data.
	Payload reflect.Type
	// Doc says when the event is sent and what the window does with it.
	Doc string
}

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

// TurnEventPayloads gives, for each event.Type of a turn's stream, the Go
// type of its value (nil: no value). The generated TypeScript turns it into
// a union discriminated by `type`.
func TurnEventPayloads() []struct {
	Type    event.Type
	Payload reflect.Type
} {
	return []struct {
		Type    event.Type
		Payload reflect.Type
	}{
		{event.SessionID, typeOf[string]()},
		{event.Tool, typeOf[event.ToolActivity]()},
		{event.NotesUpdated, nil},
		{event.Sources, typeOf[[]event.Source]()},
		{event.Chunk, typeOf[string]()},
		{event.Done, nil},
		{event.Error, typeOf[apperr.Info]()},
	}
}

// WindowEvents lists every event the backend sends the window, in a fixed
// order (the generated file follows it).
func WindowEvents() []WindowEvent {
	return []WindowEvent{
		{Name: event.TurnEventName(""), PerID: true, Const: "TURN_EVENT_PREFIX", Payload: typeOf[event.Event](),
			Doc: "One chat turn's stream, on chat:turn:<turnId>: TurnEvent values in order, ending with done or error."},
		{Name: kbDropEventPrefix, PerID: true, Const: "KB_DROP_PREFIX", Payload: typeOf[KBDropProgress](),
			Doc: "Progress of files dropped on the Knowledge panel, on kb:drop:<dropId>."},
		{Name: EventRemindersChanged, Const: "REMINDERS_CHANGED",
			Doc: "A reminder was created, changed or delivered: the reminders panel reloads its list."},
		{Name: EventReminderFired, Const: "REMINDER_FIRED", Payload: typeOf[ReminderFired](),
			Doc: "A reminder fell due: a toast, and the badge counts it."},
		{Name: EventReminderOpen, Const: "REMINDER_OPEN", Payload: typeOf[ReminderOpen](),
			Doc: "The person clicked a reminder's desktop notification: the window selects its chat."},
		{Name: EventTrayNewChat, Const: "TRAY_NEW_CHAT",
			Doc: "The tray's New chat: the window opens a new, empty chat."},
		{Name: EventTrayOpenSession, Const: "TRAY_OPEN_SESSION", Payload: typeOf[string](),
			Doc: "The tray asks the window to open the chat with this session id (\"\" for none)."},
		{Name: ToolsChangedEvent, Const: "TOOLS_CHANGED",
			Doc: "A user's MCP server changed state or tools: Settings → Tools reloads."},
		{Name: EventBackgroundPanic, Const: "BACKGROUND_PANIC", Payload: typeOf[BackgroundPanic](),
			Doc: "A background job panicked and was recovered: one toast per job."},
		{Name: EventBackupProgress, Const: "BACKUP_PROGRESS", Payload: typeOf[BackupProgress](),
			Doc: "A running backup's or restore check's progress."},
		{Name: EventBackupResult, Const: "BACKUP_RESULT", Payload: typeOf[BackupRun](),
			Doc: "An automatic backup finished; a failed one is shown as a toast."},
		{Name: EventTagsUpdated, Const: "TAGS_UPDATED", Payload: typeOf[tagging.Update](),
			Doc: "A message or memory got its automatic tags: the chips show without a reload."},
		{Name: EventTagsPaused, Const: "TAGS_PAUSED", Payload: typeOf[tagging.Pause](),
			Doc: "Automatic tagging paused after failed requests in a row: said once, in a toast."},
		{Name: EventDiscordStatus, Const: "DISCORD_STATUS", Payload: typeOf[DiscordStatus](),
			Doc: "The Discord bot's connection changed state."},
		{Name: EventSessionChanged, Const: "SESSION_CHANGED", Payload: typeOf[string](),
			Doc: "A session changed outside the window (a Discord turn): the list, and the chat when open, refresh."},
	}
}
