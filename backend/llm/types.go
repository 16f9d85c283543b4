package llm

import (
	"context"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Message is one chat message as sent to the model. It is go-openai's type, so
// tool calls, tool results and multi-part content pass through unchanged.
type Message = openai.ChatCompletionMessage

// Tool is a function definition offered to the model (go-openai's type).
type Tool = openai.Tool

// ToolCall is one accumulated, complete tool call (go-openai's type).
type ToolCall = openai.ToolCall

// Request is one chat completion request.
type Request struct {
	// Model is a "provider/model" string (DESIGN.md §7), e.g. "openai/gpt-4o-mini".
	Model string
	// Messages is the whole context: system layers first, then the history.
	Messages []Message
	// Tools, if any, are offered to the model.
	Tools []Tool
	// SessionID is recorded in api_logs; it may be empty.
	SessionID string
	// Purpose says what the call is for, recorded in api_logs: PurposeTurn,
	// PurposeSummary, PurposeTags, PurposeKnowledge, PurposeTip, PurposeAPI
	// or PurposeAPITurn.
	Purpose string
	// MaxTokens caps the reply in tokens (0: provider default). It is sent as
	// max_completion_tokens to OpenAI itself and to OpenAI reasoning models
	// (o1/o3/o4/gpt-5*), as max_tokens elsewhere.
	MaxTokens int
	// Temperature and TopP are sampling parameters (nil: the provider's
	// default). A model that does not accept one never receives it: the
	// model table (params.go) leaves it out, and a provider's refusal is
	// remembered per model and the request sent again without it.
	Temperature, TopP *float32
	// Adjust, when set, is called with the request body built from the
	// fields above, before it is sent (and recorded): the OpenAI-compatible
	// API passes a client's sampling parameters (temperature, top_p, stop,
	// tool_choice, …) through it. It must not change Model, Messages or
	// Stream.
	Adjust func(*openai.ChatCompletionRequest)
}

// What a call is for (Request.Purpose), as API logs show it.
const (
	// PurposeTurn is a chat turn's reply (and its tool rounds).
	PurposeTurn = "turn"
	// PurposeSummary is a long-term memory summary (backend/memory).
	PurposeSummary = "summary"
	// PurposeTags is an automatic tag request (backend/tagging).
	PurposeTags = "tags"
	// PurposeKnowledge summarises web search results (backend/knowledge).
	PurposeKnowledge = "knowledge"
	// PurposeTip writes a Discord useless tip (backend/tagging).
	PurposeTip = "tip"
	// PurposeAPI is a request the OpenAI-compatible API passed on to a
	// provider for another tool (backend/apiserver, a plain model id).
	PurposeAPI = "api"
	// PurposeAPITurn is a reply of a playchat/ model asked for through the
	// OpenAI-compatible API (playchat's turn pipeline and context layers).
	PurposeAPITurn = "api_turn"
)

// StreamResult is what a finished (or failed) stream produced.
type StreamResult struct {
	// Text is the concatenation of every content delta received.
	Text string
	// ToolCalls are the accumulated tool calls, in the order first seen.
	ToolCalls []ToolCall
	// Truncated lists tool calls whose arguments are not valid JSON when the
	// stream ended (e.g. finish_reason "length"); they are not in ToolCalls.
	Truncated []ToolCall
	// FinishReason is the last non-empty finish_reason seen ("stop",
	// "tool_calls", "length", …), or "" if the stream ended without one.
	FinishReason string
	// PromptTokens and CompletionTokens come from the usage chunk when the
	// provider sends one (0 otherwise).
	PromptTokens, CompletionTokens int
	// FirstByte is true once a content or tool-call delta arrived (a
	// role-only or usage-only chunk does not count); after that nothing is
	// retried.
	FirstByte bool
}

// APILog is one recorded LLM call (the api_logs row, without its id). The
// Client records exactly one per Stream or Complete call, however many HTTP
// attempts it took; Embed, ListModels and Reachable are not recorded. Every
// string field has key-like text ("sk-…", "Bearer …", the endpoint's key)
// replaced by "[redacted]".
type APILog struct {
	// SessionID is Request.SessionID (may be empty).
	SessionID string
	// Model is the full "provider/model" string of the request.
	Model string
	// Purpose is Request.Purpose.
	Purpose string
	// RequestJSON is the JSON body of the request actually sent (model,
	// messages, tools, stream, …) with secrets removed; "" when the model
	// did not resolve.
	RequestJSON string
	// ResponseText is the reply text followed, when the model called tools,
	// by a line "tool_calls: <JSON array of calls>". Partial on failure.
	ResponseText string
	// Error is the call's error as apperr.Stored text (its Info as JSON when
	// it has a code, else its message, keys scrubbed), "" on success.
	Error string
	// LatencyMS is the wall time of the whole call in milliseconds,
	// including retries and backoff.
	LatencyMS int64
	// PromptTokens and CompletionTokens are the usage the provider reported
	// for the call (a streamed reply's usage-only final chunk included); 0
	// when it reported none.
	PromptTokens     int
	CompletionTokens int
	// CreatedAt is when the call started, in UTC.
	CreatedAt time.Time
}

// LogSink stores APILog records; the store implements it. A failing sink never
// fails the call it records.
type LogSink interface {
	RecordAPILog(ctx context.Context, l APILog) error
}
