package store

import (
	"time"

	"github.com/uptrace/bun"
)

// Message statuses (messages.status).
const (
	StatusComplete = "complete" // the reply streamed to its end
	StatusPartial  = "partial"  // the stream stopped early (Stop, or the network failed mid-way)
	StatusError    = "error"    // nothing usable arrived; Error says why
	// StatusStreaming: the reply is still being written (streams.go); its
	// StreamOwner is the process writing it. A start marks one whose owner
	// has ended partial (or error) with the error ChatReplyInterrupted.
	StatusStreaming = "streaming"
)

// Message roles.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleSystem    = "system"
)

// Session is a row of sessions. ID is a UUID string.
type Session struct {
	bun.BaseModel `bun:"table:sessions"`

	ID        string    `bun:"id,pk"`
	Title     string    `bun:"title"`
	Model     string    `bun:"model"`
	CreatedAt time.Time `bun:"created_at"`
	UpdatedAt time.Time `bun:"updated_at"`
	// Settings is the chat's own settings as JSON (ChatSettings; "" = all
	// defaults). Read it with DB.SessionSettings.
	Settings string `bun:"settings"`
	// AssistantID is the assistant the chat was started from (nil: none,
	// or it was deleted) and AssistantVersion the version the chat copied.
	AssistantID      *int64 `bun:"assistant_id"`
	AssistantVersion int    `bun:"assistant_version"`
}

// Message is a row of messages. ArchivedAt and MemoryID are set when the
// message was summarised into a memory; archived messages are kept.
type Message struct {
	bun.BaseModel `bun:"table:messages"`

	ID        int64  `bun:"id,pk,autoincrement"`
	SessionID string `bun:"session_id"`
	// ParentID is the message this one answers or follows (nil for the
	// first message of a session): messages form a tree, and a regenerated
	// reply or an edited question is a sibling of the one it replaces
	// (tree.go).
	ParentID         *int64     `bun:"parent_id"`
	Role             string     `bun:"role"`
	Content          string     `bun:"content"`
	Status           string     `bun:"status"`
	Error            string     `bun:"error"`
	Model            string     `bun:"model"`
	PromptTokens     int        `bun:"prompt_tokens"`
	CompletionTokens int        `bun:"completion_tokens"`
	ArchivedAt       *time.Time `bun:"archived_at"`
	MemoryID         *int64     `bun:"memory_id"`
	// ToolActivity is the JSON array of the reply's tool calls as the
	// activity list showed them ("" when none ran).
	ToolActivity string `bun:"tool_activity"`
	// ErrorInfo is Error with its code and params as JSON
	// ({"code","params","message"}, backend/apperr.Info); "" when there is
	// no error, or for replies stored before codes existed.
	ErrorInfo string `bun:"error_info"`
	// Sources are the web pages the reply's turn cited (web_search,
	// read_knowledge) as a JSON array of {title, url}; "" when none.
	Sources string `bun:"sources"`
	// StreamOwner is the owner id (DB.Owner) of the process writing a reply
	// that is still streaming; "" for every other message.
	StreamOwner string    `bun:"stream_owner"`
	CreatedAt   time.Time `bun:"created_at"`
	// ContextUsage, when set on a reply given to InsertMessage, is stored in
	// the same transaction as the reply's context report (JSON of
	// chat.ContextReport, table turn_context_usage). It is not a column of
	// messages and is never loaded with them (GetContextUsage reads it).
	ContextUsage string `bun:"-"`
	// Files are the message's attachments, in order (attachments.go).
	// Given to InsertMessage or InsertBranch, they are stored and linked
	// in the same transaction; read only by LoadFiles (the other queries
	// leave it nil).
	Files []MessageFile `bun:"-"`
}

// Memory is a row of memories: the summary of archived messages (level 0) or
// of older memories (level ≥ 1). MergedInto is set on memories that were
// themselves summarised again; they no longer go to the model.
type Memory struct {
	bun.BaseModel `bun:"table:memories"`

	ID             int64     `bun:"id,pk,autoincrement"`
	SessionID      string    `bun:"session_id"`
	Summary        string    `bun:"summary"`
	Embedding      []byte    `bun:"embedding"`
	EmbeddingModel string    `bun:"embedding_model"`
	EmbeddingDim   int       `bun:"embedding_dim"`
	MessageCount   int       `bun:"message_count"`
	MergedInto     *int64    `bun:"merged_into"`
	Level          int       `bun:"level"`
	CreatedAt      time.Time `bun:"created_at"`
}

// MessageTag is a row of message_tags.
type MessageTag struct {
	bun.BaseModel `bun:"table:message_tags"`

	ID        int64     `bun:"id,pk,autoincrement"`
	MessageID int64     `bun:"message_id"`
	Tag       string    `bun:"tag"`
	CreatedAt time.Time `bun:"created_at"`
}

// MemoryTag is a row of memory_tags.
type MemoryTag struct {
	bun.BaseModel `bun:"table:memory_tags"`

	ID        int64     `bun:"id,pk,autoincrement"`
	MemoryID  int64     `bun:"memory_id"`
	Tag       string    `bun:"tag"`
	CreatedAt time.Time `bun:"created_at"`
}

// AppSetting is a row of app_settings: a configuration value saved in the GUI.
type AppSetting struct {
	bun.BaseModel `bun:"table:app_settings"`

	Key       string    `bun:"key,pk"`
	Value     string    `bun:"value"`
	UpdatedAt time.Time `bun:"updated_at"`
}

// ModelPreset is a row of model_presets: one entry of the model picker.
type ModelPreset struct {
	bun.BaseModel `bun:"table:model_presets"`

	ID        int64     `bun:"id,pk,autoincrement"`
	Label     string    `bun:"label"`
	Value     string    `bun:"value"`
	CreatedAt time.Time `bun:"created_at"`
}

// APILog is a row of api_logs: one recorded LLM call. LatencyMS is the wall
// time of the call in milliseconds.
type APILog struct {
	bun.BaseModel `bun:"table:api_logs"`

	ID        int64  `bun:"id,pk,autoincrement"`
	SessionID string `bun:"session_id,nullzero"`
	Model     string `bun:"model"`
	// Purpose is what the call was for: llm.PurposeTurn, …; "" before it was kept.
	Purpose          string    `bun:"purpose"`
	RequestJSON      string    `bun:"request_json"`
	ResponseText     string    `bun:"response_text,nullzero"`
	Error            string    `bun:"error,nullzero"`
	LatencyMS        int64     `bun:"latency_ms"`
	PromptTokens     int       `bun:"prompt_tokens"`
	CompletionTokens int       `bun:"completion_tokens"`
	CreatedAt        time.Time `bun:"created_at"`
}
