package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Response scripts the fake server's answer to one /v1/chat/completions
// request. The zero value is a 200 stream with no text, a finish_reason
// "stop" chunk and "data: [DONE]".
//
// A streamed reply is sent as SSE "data:" events in this order: one event per
// Chunks entry, one per ToolCallChunks entry, the finish chunk (unless
// OmitFinish), the usage-only chunk (when UsageOnlyFinal is set or the request
// asked for stream_options.include_usage), then "data: [DONE]" (unless
// OmitDone). RawEvents, when set, replaces that whole sequence.
//
// A non-streamed request (stream=false) gets a chat.completion JSON whose
// message content is the concatenated Chunks.
type Response struct {
	// Chunks are the text deltas, one SSE event each. The first carries
	// role "assistant".
	Chunks []string `json:"chunks,omitempty"`
	// Reply, used when Chunks is empty, is the reply text; it is cut into
	// deltas of DeltaSize runes (or 4 nearly equal chunks when DeltaSize is
	// 0).
	Reply string `json:"reply,omitempty"`
	// Generate, used when Chunks and Reply are empty, makes the reply a
	// generated Markdown text of that many runes (see FillerText).
	Generate int `json:"generate,omitempty"`
	// DeltaSize is the size of each text delta in runes, for Reply and
	// Generate (1 sends one character per SSE event: a "flood").
	DeltaSize int `json:"delta_size,omitempty"`
	// ToolCallChunks are raw JSON bodies for tool-call events, so tests can
	// send exact provider variants. Each entry is one of:
	//   - a JSON array: the delta's "tool_calls" value, wrapped into a chunk;
	//   - a JSON object with "choices" or "usage": a whole chunk, sent verbatim;
	//   - any other JSON object: one tool call, wrapped as [obj] into a chunk.
	// A placeholder {{now+Ns}} (or {{now-Ns}}) in an entry becomes the local
	// date-time N seconds from the moment the reply is served, as
	// 2006-01-02T15:04:05 — a due time a model would compute ("in 3 s").
	ToolCallChunks []string `json:"tool_call_chunks,omitempty"`
	// RawEvents, when non-empty, are sent verbatim as "data: <entry>" events
	// and nothing else is sent (include "[DONE]" yourself if wanted).
	RawEvents []string `json:"raw_events,omitempty"`

	// Status, when non-zero and not 200, is the HTTP error status to answer
	// with (e.g. 500, 429); nothing is streamed.
	Status int `json:"status,omitempty"`
	// RetryAfter is sent as the Retry-After header with an error Status
	// (seconds, e.g. "2", or an HTTP date).
	RetryAfter string `json:"retry_after,omitempty"`
	// ErrorBody is the error response body (default: an OpenAI-style
	// {"error":{"message":"fake <status> error",...}}).
	ErrorBody string `json:"error_body,omitempty"`

	// CutAfter > 0 sends that many events, then closes the TCP connection
	// abruptly (hijack + close, no terminating chunk), so the client sees a
	// read error. CutAfter < 0 cuts right after the headers.
	CutAfter int `json:"cut_after,omitempty"`

	// UsageOnlyFinal forces the usage-only chunk ("choices": [] with a usage
	// object) even if the request did not ask for it.
	UsageOnlyFinal bool `json:"usage_only_final,omitempty"`
	// UsageChoicesNull sends that chunk with "choices": null instead of [].
	UsageChoicesNull bool `json:"usage_choices_null,omitempty"`
	// PromptTokens and CompletionTokens fill the usage object (defaults: a
	// rough estimate, runes/4 rounded up).
	PromptTokens     int `json:"prompt_tokens,omitempty"`
	CompletionTokens int `json:"completion_tokens,omitempty"`

	// FirstByteDelay is waited before the response headers; ChunkDelay
	// before every event after the first. In JSON scripts both accept Go
	// duration strings ("300ms") or nanoseconds.
	FirstByteDelay time.Duration `json:"first_byte_delay,omitempty"`
	ChunkDelay     time.Duration `json:"chunk_delay,omitempty"`

	// Hold, when not nil (Go tests only), stops the stream after HoldAfter
	// events until it is closed (or the request ends): a test reads what
	// the client did mid-stream, then lets the rest come.
	Hold      <-chan struct{} `json:"-"`
	HoldAfter int             `json:"-"`

	// FinishReason of the finish chunk (default "tool_calls" when
	// ToolCallChunks is set, else "stop").
	FinishReason string `json:"finish_reason,omitempty"`
	// OmitFinish leaves out the finish chunk; OmitDone leaves out
	// "data: [DONE]" (the body just ends).
	OmitFinish bool `json:"omit_finish,omitempty"`
	OmitDone   bool `json:"omit_done,omitempty"`

	// Loop streams the text deltas (Chunks, or those of Reply or Generate)
	// over and over, never finishing, until the client goes away: a model
	// stuck repeating itself. Only the text goes round; nothing else of the
	// Response is sent.
	Loop bool `json:"loop,omitempty"`

	// RejectStreamOptions makes the server answer 400 ("Unrecognized request
	// argument supplied: stream_options") to a request carrying
	// stream_options, without consuming this script: the next request
	// (without stream_options) gets it.
	RejectStreamOptions bool `json:"reject_stream_options,omitempty"`
}

// expand fills Chunks from Reply or Generate (see those fields).
func (r Response) expand() Response {
	r.ToolCallChunks = expandNow(r.ToolCallChunks, time.Now())
	if len(r.Chunks) > 0 {
		return r
	}
	text := r.Reply
	if text == "" && r.Generate > 0 {
		text = FillerText(r.Generate)
	}
	if text == "" {
		return r
	}
	if r.DeltaSize > 0 {
		r.Chunks = SplitEvery(text, r.DeltaSize)
	} else {
		r.Chunks = SplitText(text, 4)
	}
	return r
}

// nowPlaceholder matches {{now+Ns}} / {{now-Ns}} in ToolCallChunks.
var nowPlaceholder = regexp.MustCompile(`\{\{now([+-][0-9]+)s\}\}`)

// expandNow replaces the {{now±Ns}} placeholders of chunks with local
// date-times relative to now (a new slice; chunks is not changed).
func expandNow(chunks []string, now time.Time) []string {
	if len(chunks) == 0 {
		return chunks
	}
	out := make([]string, len(chunks))
	for i, c := range chunks {
		out[i] = nowPlaceholder.ReplaceAllStringFunc(c, func(m string) string {
			n, _ := strconv.Atoi(nowPlaceholder.FindStringSubmatch(m)[1])
			return now.Add(time.Duration(n) * time.Second).Local().Format("2006-01-02T15:04:05")
		})
	}
	return out
}

// SplitEvery cuts s into pieces of size runes each (the last may be
// shorter); size < 1 counts as 1; "" gives nil.
func SplitEvery(s string, size int) []string {
	size = max(size, 1)
	var out []string
	for s != "" {
		end, n := 0, 0
		for end < len(s) && n < size {
			_, w := utf8.DecodeRuneInString(s[end:])
			end += w
			n++
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out
}

// fillerParts are the building blocks of FillerText: prose in English and
// Japanese, a list, a fenced code block and a table, so a generated reply
// exercises the same Markdown paths a real one does.
var fillerParts = []string{
	"The quick brown fox jumps over the lazy dog, and **the dog** does not mind at all.\n\n",
	"吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。\n\n",
	"- first point with `inline code`\n- second point\n- third point\n\n",
	"```go\nfunc add(a, b int) int {\n\treturn a + b\n}\n```\n\n",
	"| key | value |\n|---|---|\n| 東京 | 晴れ |\n| 大阪 | 雨 |\n\n",
	"## A heading\n\nSome closing words for this part of the reply.\n\n",
}

// FillerText returns a deterministic Markdown text of exactly n runes,
// cycling through paragraphs, lists, code and tables in English and
// Japanese.
func FillerText(n int) string {
	var b strings.Builder
	count := 0
	for i := 0; count < n; i++ {
		for _, r := range fillerParts[i%len(fillerParts)] {
			if count == n {
				break
			}
			b.WriteRune(r)
			count++
		}
	}
	return b.String()
}

// Text returns a Response streaming text split into n chunks (see SplitText).
func Text(text string, n int) Response {
	return Response{Chunks: SplitText(text, n)}
}

// SplitText cuts s into n pieces of nearly equal rune counts (never
// splitting a rune). n < 1 counts as 1; n larger than the rune count gives
// one rune per piece; "" gives nil.
func SplitText(s string, n int) []string {
	if s == "" {
		return nil
	}
	runes := utf8.RuneCountInString(s)
	n = min(max(n, 1), runes)
	out := make([]string, 0, n)
	rest := s
	for i := range n {
		size := runes / n
		if i < runes%n {
			size++
		}
		end := 0
		for range size {
			_, w := utf8.DecodeRuneInString(rest[end:])
			end += w
		}
		out = append(out, rest[:end])
		rest = rest[end:]
	}
	return out
}

// LoadScript decodes a JSON list of Response (the fakellm -script file).
func LoadScript(r io.Reader) ([]Response, error) {
	var rs []Response
	if err := json.NewDecoder(r).Decode(&rs); err != nil {
		return nil, fmt.Errorf("llmtest: decode script: %w", err)
	}
	return rs, nil
}

// UnmarshalJSON accepts the delays as duration strings ("300ms") or numbers
// (nanoseconds).
func (r *Response) UnmarshalJSON(b []byte) error {
	type plain Response
	var aux struct {
		plain
		FirstByteDelay json.RawMessage `json:"first_byte_delay,omitempty"`
		ChunkDelay     json.RawMessage `json:"chunk_delay,omitempty"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*r = Response(aux.plain)
	var err error
	if r.FirstByteDelay, err = parseDuration(aux.FirstByteDelay); err != nil {
		return fmt.Errorf("first_byte_delay: %w", err)
	}
	if r.ChunkDelay, err = parseDuration(aux.ChunkDelay); err != nil {
		return fmt.Errorf("chunk_delay: %w", err)
	}
	return nil
}

func parseDuration(raw json.RawMessage) (time.Duration, error) {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return 0, nil
	}
	if strings.HasPrefix(s, `"`) {
		var str string
		if err := json.Unmarshal(raw, &str); err != nil {
			return 0, err
		}
		return time.ParseDuration(str)
	}
	var ns int64
	if err := json.Unmarshal(raw, &ns); err != nil {
		return 0, err
	}
	return time.Duration(ns), nil
}

// finishReason is the finish chunk's reason for r.
func (r Response) finishReason() string {
	switch {
	case r.FinishReason != "":
		return r.FinishReason
	case len(r.ToolCallChunks) > 0:
		return "tool_calls"
	default:
		return "stop"
	}
}

// replyEvents are the SSE data payloads of a streamed reply (without the
// "data: " prefix): the text deltas, each encoded only when it is sent (a
// long reply's first event goes out before its last is built), then the
// rest, built in advance.
type replyEvents struct {
	enc  textEncoder
	text []string // the text deltas
	rest []string // the payloads after them (or RawEvents)
}

// len is the number of events.
func (e replyEvents) len() int { return len(e.text) + len(e.rest) }

// at is the payload of event i (0 <= i < len).
func (e replyEvents) at(i int) string {
	if i < len(e.text) {
		return e.enc.event(e.text[i], i == 0)
	}
	return e.rest[i-len(e.text)]
}

// events gives the SSE data payloads of a streamed reply. includeUsage says
// the request asked for usage. An error (a ToolCallChunks entry that is not
// JSON) comes before anything is sent.
func (r Response) events(id, model string, includeUsage bool, promptTokens int) (replyEvents, error) {
	if len(r.RawEvents) > 0 {
		return replyEvents{rest: r.RawEvents}, nil
	}
	chunk := func(delta any, finish any) string { return chunkEvent(id, model, delta, finish) }
	evs := replyEvents{enc: newTextEncoder(id, model), text: r.Chunks}
	for _, raw := range r.ToolCallChunks {
		ev, err := toolCallEvent(raw, chunk)
		if err != nil {
			return replyEvents{}, err
		}
		evs.rest = append(evs.rest, ev)
	}
	if !r.OmitFinish {
		evs.rest = append(evs.rest, chunk(map[string]any{}, r.finishReason()))
	}
	if r.UsageOnlyFinal || includeUsage {
		var choices any = []any{}
		if r.UsageChoicesNull {
			choices = nil
		}
		evs.rest = append(evs.rest, mustJSON(map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": fakeCreated, "model": model,
			"choices": choices, "usage": r.usage(promptTokens),
		}))
	}
	if !r.OmitDone {
		evs.rest = append(evs.rest, "[DONE]")
	}
	return evs, nil
}

// chunkEvent is the payload of one chat.completion.chunk event.
func chunkEvent(id, model string, delta, finish any) string {
	return mustJSON(map[string]any{
		"id": id, "object": "chat.completion.chunk", "created": fakeCreated, "model": model,
		"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
	})
}

// textEncoder writes the payloads of one reply's text deltas (the first
// also carries the role "assistant"): the same bytes
// chunkEvent gives for {"content": text[, "role": "assistant"]} with a null
// finish_reason (encoding/json's sorted keys and escaping), without a map
// and a reflective Marshal per delta — a reply of thousands of one-rune
// deltas spent most of the fake's time there.
type textEncoder struct {
	tail string // from the end of the delta to the end of the chunk
}

func newTextEncoder(id, model string) textEncoder {
	return textEncoder{tail: `},"finish_reason":null,"index":0}],"created":` + strconv.Itoa(fakeCreated) +
		`,"id":` + mustJSON(id) + `,"model":` + mustJSON(model) + `,"object":"chat.completion.chunk"}`}
}

// event is the payload of the delta text (first: with the role).
func (e textEncoder) event(text string, first bool) string {
	content, err := json.Marshal(text)
	if err != nil {
		panic(err)
	}
	const head, role = `{"choices":[{"delta":{"content":`, `,"role":"assistant"`
	var b strings.Builder
	b.Grow(len(head) + len(content) + len(role) + len(e.tail))
	b.WriteString(head)
	b.Write(content)
	if first {
		b.WriteString(role)
	}
	b.WriteString(e.tail)
	return b.String()
}

// toolCallEvent turns one ToolCallChunks entry into an event payload.
func toolCallEvent(raw string, chunk func(delta, finish any) string) (string, error) {
	s := strings.TrimSpace(raw)
	if !json.Valid([]byte(s)) {
		return "", fmt.Errorf("llmtest: tool call chunk is not JSON: %q", raw)
	}
	switch {
	case strings.HasPrefix(s, "["):
		return chunk(map[string]any{"tool_calls": json.RawMessage(s)}, nil), nil
	case strings.HasPrefix(s, "{"):
		var probe map[string]json.RawMessage
		_ = json.Unmarshal([]byte(s), &probe)
		if _, ok := probe["choices"]; ok {
			return s, nil
		}
		if _, ok := probe["usage"]; ok {
			return s, nil
		}
		return chunk(map[string]any{"tool_calls": []json.RawMessage{json.RawMessage(s)}}, nil), nil
	default:
		return "", fmt.Errorf("llmtest: tool call chunk must be a JSON array or object: %q", raw)
	}
}

// text is the concatenated Chunks.
func (r Response) text() string { return strings.Join(r.Chunks, "") }

// usage is the usage object of r.
func (r Response) usage(promptTokens int) map[string]int {
	p, c := r.PromptTokens, r.CompletionTokens
	if p == 0 {
		p = promptTokens
	}
	if c == 0 {
		c = estimateTokens(r.text())
	}
	return map[string]int{"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}
}

// estimateTokens is runes/4 rounded up (0 for "").
func estimateTokens(s string) int {
	return (utf8.RuneCountInString(s) + 3) / 4
}

// fakeCreated is the fixed "created" timestamp of every reply.
const fakeCreated = 1700000000

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
