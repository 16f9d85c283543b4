package app

// The structs below are what the frontend sees: Wails generates their
// TypeScript classes in frontend/wailsjs/go/models.ts. Times are RFC 3339
// strings in UTC; the frontend shows them in the user's zone.

import (
	"playchat/backend/apperr"
	"playchat/backend/event"
	"playchat/backend/session"
)

// Session is one chat session in the list: session.Summary itself, the row
// shape the export document and the CLI share (an alias, not a copy; the
// generated TypeScript names it session.Summary).
type Session = session.Summary

// Message is one stored chat message. Archived messages were summarised into
// a long-term memory; they stay visible in the history but no longer go to
// the model.
type Message struct {
	ID        int64  `json:"id"`
	SessionID string `json:"sessionId"`
	Role      string `json:"role"`
	Content   string `json:"content"`
	// Status is "complete", "partial" (the stream stopped early, or the
	// process writing it ended: then ErrorInfo is chat.replyInterrupted),
	// "error", or "streaming" (still being written: by another turn, or
	// another process such as `playchat ask`).
	Status string `json:"status"`
	Error  string `json:"error"`
	// ErrorInfo is Error with its code and params ({code, params,
	// message}), for the window to word it; nil for replies stored before
	// codes existed and for errors without a code.
	ErrorInfo *apperr.Info `json:"errorInfo,omitempty"`
	Model     string       `json:"model"`
	CreatedAt string       `json:"createdAt"`
	Archived  bool         `json:"archived"`
	// Forgotten is true for an archived message whose memory was deleted:
	// neither it nor its summary goes to the model any more.
	Forgotten bool `json:"forgotten"`
	// Tools is the reply's tool activity as the activity list showed it.
	// It is the "tool" turn event's value merged by ID (bound directly).
	Tools []event.ToolActivity `json:"tools"`
	// Sources are the web pages the reply's turn cited ({title, url}, the
	// "sources" turn event's value), shown as numbered chips; [] when none.
	Sources []event.Source `json:"sources"`
	// ParentID is the message this one follows in the session's message
	// tree (0 for a first message).
	ParentID int64 `json:"parentId"`
	// Attachments are the files sent with the message, in order ([] when
	// none): images shown inline, documents as chips.
	Attachments []Attachment `json:"attachments"`
	// SiblingIDs are the ids of this message's versions (the messages
	// sharing its parent, itself included), oldest first, when it has more
	// than one; the window shows ‹ n/total › to switch between them.
	SiblingIDs []int64 `json:"siblingIds,omitempty"`
	// Tags are the message's automatic tags (backend/tagging), shown as
	// chips under it; [] until it is tagged ("tags:updated" adds them).
	Tags []string `json:"tags"`
	// Unanswered marks a question of the user's that got no reply with
	// text (chat.Unanswered): the window offers Retry and Remove on it, and
	// it is not sent to the model with later questions.
	Unanswered bool `json:"unanswered,omitempty"`
}

// NotePage is one page of the shared notes. Section "" means ungrouped.
type NotePage struct {
	ID        int64  `json:"id"`
	Title     string `json:"title"`
	Content   string `json:"content"`
	Section   string `json:"section"`
	Position  int    `json:"position"`
	UpdatedAt string `json:"updatedAt"`
	// Version goes up by one with every write of the title or content; a
	// save names the version its draft started from (NotesService.Update).
	Version int64 `json:"version"`
}

// SendRequest starts one chat turn. The frontend picks TurnID (a random id)
// and subscribes to "chat:turn:<TurnID>" before calling Send.
type SendRequest struct {
	TurnID    string `json:"turnId"`
	SessionID string `json:"sessionId"` // empty: create a new session
	Text      string `json:"text"`
	Model     string `json:"model"` // empty: the session's model, else DEFAULT_MODEL
	// NotePageIDs are pinned to the session a new-session turn creates.
	NotePageIDs []int64 `json:"notePageIds"`
	// AssistantID, for a new-session turn, starts the chat from that
	// assistant: the chat copies its settings and pins its pages (0: none).
	AssistantID int64 `json:"assistantId"`
	// AttachmentIDs are files added to the message box
	// (AttachmentService), sent with the message in this order. They stay
	// waiting when Send fails, so the user can send again.
	AttachmentIDs []string `json:"attachmentIds"`
	// FitAttachments sends only the part of each attached document that
	// fits the model (its first pages or characters, said so in the
	// request) when the whole does not: the user's answer to the
	// chat.attachmentTooLong offer. Without it such a message is refused
	// and nothing is cut (chat.TurnRequest.FitAttachments).
	FitAttachments bool `json:"fitAttachments"`
}

// TurnStart is returned once the user's message is safely stored; the reply
// then streams as events.
type TurnStart struct {
	TurnID      string  `json:"turnId"`
	SessionID   string  `json:"sessionId"`
	UserMessage Message `json:"userMessage"`
	Model       string  `json:"model"`
}

// Memory is one long-term memory: a summary of archived messages.
type Memory struct {
	ID           int64  `json:"id"`
	SessionID    string `json:"sessionId"`
	Summary      string `json:"summary"`
	MessageCount int    `json:"messageCount"`
	CreatedAt    string `json:"createdAt"`
}

// MemoryStatus is the state of a session's background summaries, for the
// memory panel.
type MemoryStatus struct {
	// State is "idle", "running" (a summary is being written now) or
	// "backoff" (the last summaries failed; the next try waits until
	// NextAttempt).
	State string `json:"state"`
	// Failures counts the consecutive failed summaries (0 after a success).
	Failures int `json:"failures"`
	// LastError is the last failure's English message ("" when the last one
	// worked); LastErrorInfo is the same with its code and params, for the
	// window to word it (nil when it has no code).
	LastError     string       `json:"lastError"`
	LastErrorInfo *apperr.Info `json:"lastErrorInfo,omitempty"`
	// NextAttempt is when the backoff ends (RFC 3339, UTC; "" unless State
	// is "backoff").
	NextAttempt string `json:"nextAttempt"`
}

// LogEntry is one api_logs row as listed.
type LogEntry struct {
	ID        int64  `json:"id"`
	SessionID string `json:"sessionId"`
	Model     string `json:"model"`
	// Purpose is what the call was for: turn, summary, tags, knowledge,
	// tip; "" for calls logged before it was kept.
	Purpose string `json:"purpose"`
	Error   string `json:"error"`
	// ErrorInfo is Error with its code and params; nil when it has no code.
	ErrorInfo *apperr.Info `json:"errorInfo,omitempty"`
	LatencyMS int64        `json:"latencyMs"`
	CreatedAt string       `json:"createdAt"`
	// Preview is the first 120 characters of the response.
	Preview string `json:"preview"`
	// PromptTokens and CompletionTokens are the usage the provider reported
	// for the call (0 when it reported none).
	PromptTokens     int `json:"promptTokens"`
	CompletionTokens int `json:"completionTokens"`
}

// LogUsage is the token usage of one session's logged calls.
type LogUsage struct {
	// SessionID is "" for calls made outside any session.
	SessionID string `json:"sessionId"`
	// Title is the session's title ("" when deleted or outside a session).
	Title            string `json:"title"`
	Calls            int    `json:"calls"`
	PromptTokens     int    `json:"promptTokens"`
	CompletionTokens int    `json:"completionTokens"`
}

// LogDetail is one api_logs row with its request and response.
type LogDetail struct {
	LogEntry
	RequestJSON  string `json:"requestJson"`
	ResponseText string `json:"responseText"`
}

// LogPage is one page of the log list, newest first.
type LogPage struct {
	Entries []LogEntry `json:"entries"`
	Total   int        `json:"total"`
	// Usage is the token usage per session over every log (not just this
	// page), the session used most recently first.
	Usage []LogUsage `json:"usage"`
}

// SettingField is one configuration key as the settings screen shows it.
type SettingField struct {
	Key string `json:"key"`
	// Value is the effective value; for secrets it is masked ("sk-…abcd") and
	// never the real key.
	Value  string `json:"value"`
	Secret bool   `json:"secret"`
	// IsSet reports whether any source gives the key a non-empty value.
	IsSet bool `json:"isSet"`
	// Source is where the effective value comes from: "default", "dotenv",
	// "env" or "gui".
	Source string `json:"source"`
	// Label is a short plain-English name ("Default model"); the window
	// shows its own translation and Key as secondary text.
	Label string `json:"label"`
	// Group is a UI grouping, in display order: "models" (models and keys),
	// "memory", "knowledge", "advanced" (config.Groups).
	Group string `json:"group"`
	// Kind is the value type: "string", "int", "float", "bool", "url", "model".
	Kind string `json:"kind"`
	// Default is the built-in default ("" when none).
	Default string `json:"default"`
	// Choices, when set, are the only allowed values.
	Choices []string `json:"choices"`
	// Doc is a one-line English description.
	Doc string `json:"doc"`
	// Error says why the value from .env, the environment or the settings
	// is invalid (a config.ValueError as {code, params, message}); nil when
	// it is valid. An invalid URL is kept and the provider refuses to send;
	// any other invalid value runs as its default until it is fixed.
	Error *apperr.Info `json:"error,omitempty"`
	// Min and Max are the inclusive bounds of a number (absent when none).
	Min *float64 `json:"min,omitempty"`
	Max *float64 `json:"max,omitempty"`
}

// SettingsView is the whole settings screen.
type SettingsView struct {
	Fields  []SettingField `json:"fields"`
	DataDir string         `json:"dataDir"`
	// Desktop says what closing the window and START_AT_LOGIN do here.
	Desktop DesktopStatus `json:"desktop"`
}

// SettingsUpdate saves GUI settings. Values maps a key to its new value (an
// empty string for a secret means "keep"); Clear lists keys whose GUI value is
// removed so lower layers apply again.
type SettingsUpdate struct {
	Values map[string]string `json:"values"`
	Clear  []string          `json:"clear"`
}

// ModelPreset is one entry of the model picker.
type ModelPreset struct {
	ID    int64  `json:"id"`
	Label string `json:"label"`
	Value string `json:"value"` // a "provider/model" string
}

// ModelOptions is everything the model picker offers.
type ModelOptions struct {
	DefaultModel string        `json:"defaultModel"`
	Presets      []ModelPreset `json:"presets"`
	// Discovered lists "provider/model" strings that a configured provider's
	// /models endpoint (or a local Ollama) returned.
	Discovered []string `json:"discovered"`
	// Configured is false when no model can be used yet: the UI then shows
	// how to set one up.
	Configured bool `json:"configured"`
}

// AppInfo describes the running app.
type AppInfo struct {
	Version string `json:"version"`
	DataDir string `json:"dataDir"`
	// Locale is the OS locale's language, "ja" or "en".
	Locale string `json:"locale"`
	// UILanguage is the UI_LANGUAGE setting: "auto" (use Locale), "ja" or
	// "en"; "" when the backend could not start.
	UILanguage string `json:"uiLanguage"`
}

// ImportResult reports a session import: a playchat session file (Format
// "native", one session) or ChatGPT's or Claude's conversations.json
// (Format "chatgpt" or "claude", one session per conversation; Session is the
// first). The counts are session.Report's.
type ImportResult struct {
	Session  Session `json:"session"`
	Messages int     `json:"messages"`
	Memories int     `json:"memories"`
	// Format is "native", "chatgpt" or "claude".
	Format   string `json:"format"`
	Sessions int    `json:"sessions"`
	// Placeholders counts "[image omitted]"-style markers standing in for
	// images, attachments and tool traces.
	Placeholders int `json:"placeholders"`
	// Skipped counts system, hidden and empty messages not imported;
	// SkippedConversations the conversations left with no message.
	Skipped              int `json:"skipped"`
	SkippedConversations int `json:"skippedConversations"`
	// Branches counts ChatGPT branches (edits, regenerations) other than
	// the one shown, imported as versions to switch to.
	Branches int `json:"branches"`
	// Truncated counts messages over the 1 MiB limit of one message, cut
	// there with a visible marker (ChatGPT and Claude exports only: a
	// playchat session file with one is refused).
	Truncated int `json:"truncated"`
}
