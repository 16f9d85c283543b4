// Package event defines the typed events a chat turn emits and the Emitter seam
// through which they leave the backend (Wails runtime events in the window,
// JSON lines in the CLI, a recorder in tests).
package event

import "playchat/backend/apperr"

// Type names one kind of turn event. The values match the original SSE stream
// (seeds/architecture-ja.md, "SSE ストリーミング").
type Type string

// Turn event types, in the order a turn may emit them.
const (
	SessionID    Type = "session_id"    // value: the session id (string)
	Tool         Type = "tool"          // value: ToolActivity (start, then done/error with the same id)
	NotesUpdated Type = "notes_updated" // no value
	Sources      Type = "sources"       // value: []Source
	Chunk        Type = "chunk"         // value: a text delta (string)
	Done         Type = "done"          // no value; the turn ended normally
	Error        Type = "error"         // value: apperr.Info {code, params, message}: the code and params for the window, the English message for logs and the CLI
)

// Event is one message of a turn's stream, serialised as {"type":…,"value":…}.
type Event struct {
	Type  Type `json:"type"`
	Value any  `json:"value,omitempty"`
}

// Emitter receives the events of one turn, in order. Implementations must be
// safe to call from the goroutine that runs the turn; they must not block for
// long (the stream waits on them).
type Emitter interface {
	Emit(Event)
}

// EmitterFunc adapts a function to Emitter.
type EmitterFunc func(Event)

// Emit calls f(e).
func (f EmitterFunc) Emit(e Event) { f(e) }

// Discard is an Emitter that drops every event.
var Discard Emitter = EmitterFunc(func(Event) {})

// TurnEventName is the Wails event name that carries the events of one turn:
// "chat:turn:<turnID>".
func TurnEventName(turnID string) string { return "chat:turn:" + turnID }

// ToolActivity is the value of a Tool event. A start carries Name, Label,
// Detail and Status "running"; the end carries the same ID, Status "done" or
// "error", Result and, for "error", Error. A call that was never run (its
// arguments were cut off) has a single event with Status "error".
type ToolActivity struct {
	ID     string `json:"id"`
	Name   string `json:"name,omitempty"`
	Label  string `json:"label,omitempty"`
	Detail string `json:"detail,omitempty"`
	Status string `json:"status"`
	Result string `json:"result,omitempty"`
	// Server is the user's MCP server the tool belongs to ("" for
	// playchat's own tools); Label is then the tool's real name.
	Server string `json:"server,omitempty"`
	// Approval is true while the call waits for the user's click (allow
	// once / always for this server / deny) in the activity item.
	Approval bool `json:"approval,omitempty"`
	// Decision is the user's answer to that question once given ("once",
	// "always" or "deny"): the item stops asking and says what was chosen.
	Decision string `json:"decision,omitempty"`
	// Error says why a call failed (an apperr.Tool* code, or the tool's own
	// code); nil unless Status is "error".
	Error *apperr.Info `json:"error,omitempty"`
}

// Source is one cited web page, the element of a Sources event.
type Source struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}
