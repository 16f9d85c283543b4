package apiserver

import (
	"encoding/json"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"playchat/backend/llm"
)

// OpenAI's wire format, as this server reads and writes it. The response
// types are written out field by field (not go-openai's) so that what must
// be null is null ("finish_reason": null while streaming, "logprobs": null)
// and nothing OpenAI leaves out is sent.

// completionRequest is the body of POST /v1/chat/completions. Unknown fields
// are ignored; fields whose type varies between clients are kept raw.
type completionRequest struct {
	Model    string        `json:"model"`
	Messages []llm.Message `json:"messages"`
	Stream   bool          `json:"stream"`
	// StreamOptions.IncludeUsage adds the usage-only chunk before [DONE].
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	N                   *int       `json:"n"`
	Tools               []llm.Tool `json:"tools"`
	ToolChoice          any        `json:"tool_choice"`
	ParallelToolCalls   any        `json:"parallel_tool_calls"`
	MaxTokens           int        `json:"max_tokens"`
	MaxCompletionTokens int        `json:"max_completion_tokens"`
	Temperature         *float32   `json:"temperature"`
	TopP                *float32   `json:"top_p"`
	PresencePenalty     *float32   `json:"presence_penalty"`
	FrequencyPenalty    *float32   `json:"frequency_penalty"`
	Seed                *int       `json:"seed"`
	// Stop is a string or a list of strings.
	Stop            json.RawMessage                      `json:"stop"`
	ResponseFormat  *openai.ChatCompletionResponseFormat `json:"response_format"`
	User            string                               `json:"user"`
	ReasoningEffort string                               `json:"reasoning_effort"`

	// Session is x_playchat_session: a playchat session id to continue (the
	// turn is stored in it), or "new" to start one. Only for playchat/
	// models.
	Session string `json:"x_playchat_session"`
	// KBDomain is x_playchat_kb_domain: limit the knowledge-base layer to
	// this top-level folder. Only for playchat/ models.
	KBDomain string `json:"x_playchat_kb_domain"`
}

// includeUsage reports whether the client asked for the usage chunk.
func (r *completionRequest) includeUsage() bool {
	return r.StreamOptions != nil && r.StreamOptions.IncludeUsage
}

// maxTokens is the reply cap the client asked for (0 = none).
func (r *completionRequest) maxTokens() int {
	if r.MaxCompletionTokens > 0 {
		return r.MaxCompletionTokens
	}
	return r.MaxTokens
}

// stops returns Stop as a list.
func (r *completionRequest) stops() []string {
	if len(r.Stop) == 0 || string(r.Stop) == "null" {
		return nil
	}
	var one string
	if json.Unmarshal(r.Stop, &one) == nil {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(r.Stop, &many)
	return many
}

// adjust copies the client's sampling parameters into a request to a
// provider (llm.Request.Adjust).
func (r *completionRequest) adjust(cr *openai.ChatCompletionRequest) {
	if r.Temperature != nil {
		cr.Temperature = *r.Temperature
	}
	if r.TopP != nil {
		cr.TopP = *r.TopP
	}
	if r.PresencePenalty != nil {
		cr.PresencePenalty = *r.PresencePenalty
	}
	if r.FrequencyPenalty != nil {
		cr.FrequencyPenalty = *r.FrequencyPenalty
	}
	cr.Seed = r.Seed
	cr.Stop = r.stops()
	cr.ResponseFormat = r.ResponseFormat
	cr.ToolChoice = r.ToolChoice
	cr.ParallelToolCalls = r.ParallelToolCalls
	cr.User = r.User
	cr.ReasoningEffort = r.ReasoningEffort
}

// messageText is the text of a message: its content, or its text parts
// joined by blank lines.
func messageText(m llm.Message) string {
	if m.Content != "" || len(m.MultiContent) == 0 {
		return m.Content
	}
	var parts []string
	for _, p := range m.MultiContent {
		if p.Type == openai.ChatMessagePartTypeText && p.Text != "" {
			parts = append(parts, p.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

// usage is OpenAI's usage object.
type usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

func newUsage(prompt, completion int) *usage {
	return &usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
}

// Source is one knowledge-base document a playchat/ model's context held,
// as x_playchat_sources lists them.
type Source struct {
	// Domain is the document's top-level folder ("" for a document at the
	// root; for a learned document, its domain under _learned/).
	Domain string `json:"domain"`
	// Path is the document's path relative to the knowledge-base folder,
	// with "/" separators.
	Path string `json:"path"`
	// Title is the document's title (its first heading, else its path).
	Title string `json:"title"`
}

// completion is a chat.completion object (a non-streamed reply).
type completion struct {
	ID      string             `json:"id"`
	Object  string             `json:"object"`
	Created int64              `json:"created"`
	Model   string             `json:"model"`
	Choices []completionChoice `json:"choices"`
	Usage   *usage             `json:"usage"`
	// Sources and Session are playchat's extensions (playchat/ models).
	Sources []Source `json:"x_playchat_sources,omitempty"`
	Session string   `json:"x_playchat_session,omitempty"`
}

type completionChoice struct {
	Index        int             `json:"index"`
	Message      responseMessage `json:"message"`
	Logprobs     *struct{}       `json:"logprobs"`
	FinishReason string          `json:"finish_reason"`
}

// responseMessage is the assistant message of a reply; Content is null when
// the model only called tools.
type responseMessage struct {
	Role      string         `json:"role"`
	Content   *string        `json:"content"`
	Refusal   *string        `json:"refusal"`
	ToolCalls []llm.ToolCall `json:"tool_calls,omitempty"`
}

// chunk is a chat.completion.chunk object (one SSE event of a stream).
type chunk struct {
	ID      string        `json:"id"`
	Object  string        `json:"object"`
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Choices []chunkChoice `json:"choices"`
	// Usage is set on the usage-only chunk (Choices empty).
	Usage   *usage   `json:"usage,omitempty"`
	Sources []Source `json:"x_playchat_sources,omitempty"`
	Session string   `json:"x_playchat_session,omitempty"`
}

type chunkChoice struct {
	Index        int       `json:"index"`
	Delta        delta     `json:"delta"`
	Logprobs     *struct{} `json:"logprobs"`
	FinishReason *string   `json:"finish_reason"`
}

type delta struct {
	Role      string          `json:"role,omitempty"`
	Content   *string         `json:"content,omitempty"`
	ToolCalls []toolCallDelta `json:"tool_calls,omitempty"`
}

// toolCallDelta is a tool call in a chunk: complete, with its index.
type toolCallDelta struct {
	Index    int                 `json:"index"`
	ID       string              `json:"id"`
	Type     string              `json:"type"`
	Function openai.FunctionCall `json:"function"`
}

// modelObject is one entry of GET /v1/models.
type modelObject struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

// modelList is GET /v1/models' body.
type modelList struct {
	Object string        `json:"object"`
	Data   []modelObject `json:"data"`
}
