// Package llmtest is an in-process fake of an OpenAI-compatible API for
// tests, the CLI end-to-end tests and the desktop e2e test: scripted streamed
// and non-streamed chat replies (text, raw tool-call chunks, errors,
// Retry-After, cut connections, latency), /v1/models and deterministic
// /v1/embeddings. Every request is recorded.
package llmtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Paths served, relative to the server root (Server.URL already ends in /v1).
const (
	PathChat       = "/v1/chat/completions"
	PathModels     = "/v1/models"
	PathEmbeddings = "/v1/embeddings"
)

// RecordedRequest is one request the server received, with its JSON body
// decoded where the path is known.
type RecordedRequest struct {
	Method string
	Path   string // e.g. "/v1/chat/completions"
	Header http.Header
	Body   []byte // raw body

	// Chat completions.
	Model               string
	Messages            []openai.ChatCompletionMessage // role, content, tool_calls, tool_call_id, …
	Tools               []openai.Tool
	Stream              bool
	IncludeUsage        bool // stream_options.include_usage
	HasStreamOptions    bool // the body had a non-null stream_options
	MaxTokens           int
	MaxCompletionTokens int
	// Temperature and TopP are the sampling parameters the body carried
	// (nil: absent).
	Temperature, TopP *float64

	// Embeddings: the inputs (a single string input becomes one element).
	Input []string
}

// LastUserMessage returns the content of the last "user" message ("" if none).
func (r RecordedRequest) LastUserMessage() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == openai.ChatMessageRoleUser {
			m := r.Messages[i]
			if m.Content != "" {
				return m.Content
			}
			var sb strings.Builder
			for _, p := range m.MultiContent {
				sb.WriteString(p.Text)
			}
			return sb.String()
		}
	}
	return ""
}

// Server is a running fake. Configure it with Options, script replies with
// Enqueue, inspect traffic with Requests. Safe for concurrent use.
type Server struct {
	// URL is the OpenAI-compatible base URL, ending in "/v1" (use it as
	// OPENAI_BASE_URL; for Ollama settings strip the "/v1").
	URL string

	mu         sync.Mutex
	queue      []Response
	requests   []RecordedRequest
	defaultFn  func(RecordedRequest) Response
	reply      string // "" → echo
	chunks     int
	deltaSize  int
	firstByte  time.Duration
	chunkDelay time.Duration
	models     []string
	dim        int
	embedFn    func(model, input string) []float32
	apiKey     string
	requestLog io.Writer
	seq        int
	tags       tagState

	closeOnce sync.Once
	closeFn   func()
}

// Option configures a Server at construction.
type Option func(*Server)

// WithReply sets the default reply text (used when the queue is empty)
// instead of "fake reply: <last user message>".
func WithReply(text string) Option { return func(s *Server) { s.reply = text } }

// WithChunks sets how many chunks the default reply is split into (default 4).
func WithChunks(n int) Option { return func(s *Server) { s.chunks = max(n, 1) } }

// WithDeltaSize cuts the default reply into deltas of n runes each instead
// of WithChunks' equal parts (n = 1: one character per SSE event).
func WithDeltaSize(n int) Option { return func(s *Server) { s.deltaSize = max(n, 0) } }

// WithLatency sets the default reply's delay before the first byte and
// between chunks.
func WithLatency(firstByte, perChunk time.Duration) Option {
	return func(s *Server) { s.firstByte, s.chunkDelay = firstByte, perChunk }
}

// WithDefault replaces the default reply entirely: fn builds the Response for
// a chat request when the queue is empty.
func WithDefault(fn func(RecordedRequest) Response) Option {
	return func(s *Server) { s.defaultFn = fn }
}

// WithModels sets the ids /v1/models lists (default "fake-chat", "fake-embed").
func WithModels(ids ...string) Option { return func(s *Server) { s.models = slices.Clone(ids) } }

// WithEmbeddingDim sets the dimension of the default embeddings (default 8).
func WithEmbeddingDim(n int) Option { return func(s *Server) { s.dim = max(n, 1) } }

// WithEmbedFunc replaces the default embedding function.
func WithEmbedFunc(fn func(model, input string) []float32) Option {
	return func(s *Server) { s.embedFn = fn }
}

// WithRequestLog writes the body of every chat completions request (not
// tagging requests, not headers) to w as one compact JSON line, in the order
// received: end-to-end scripts read what the app sent (fakellm
// -request-log).
func WithRequestLog(w io.Writer) Option { return func(s *Server) { s.requestLog = w } }

// WithAPIKey makes the server answer 401 to requests whose Authorization
// header is not "Bearer <key>".
func WithAPIKey(key string) Option { return func(s *Server) { s.apiKey = key } }

func newServer(opts []Option) *Server {
	s := &Server{chunks: 4, models: []string{"fake-chat", "fake-embed"}, dim: 8}
	for _, o := range opts {
		o(s)
	}
	return s
}

// NewServer starts a fake on a loopback port; it is closed with t.Cleanup.
func NewServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := newServer(opts)
	hs := httptest.NewServer(s)
	s.URL = hs.URL + "/v1"
	s.closeFn = func() {
		hs.CloseClientConnections()
		hs.Close()
	}
	t.Cleanup(s.Close)
	return s
}

// Start starts a fake listening on addr (e.g. "127.0.0.1:0") for use outside
// tests (the fakellm binary). Stop it with Close.
func Start(addr string, opts ...Option) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("llmtest: listen %s: %w", addr, err)
	}
	s := newServer(opts)
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	s.URL = "http://" + ln.Addr().String() + "/v1"
	s.closeFn = func() { _ = hs.Close() }
	return s, nil
}

// Close stops the server and drops open connections. Safe to call twice.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		if s.closeFn != nil {
			s.closeFn()
		}
	})
}

// Enqueue appends scripted replies; each chat request consumes one, in order.
func (s *Server) Enqueue(rs ...Response) {
	s.mu.Lock()
	s.queue = append(s.queue, rs...)
	s.mu.Unlock()
}

// Pending returns how many scripted replies are still queued.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// SetModels replaces the /v1/models list.
func (s *Server) SetModels(ids ...string) {
	s.mu.Lock()
	s.models = slices.Clone(ids)
	s.mu.Unlock()
}

// Requests returns a copy of every request received so far, in arrival order.
func (s *Server) Requests() []RecordedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// ChatRequests returns the recorded /v1/chat/completions requests.
func (s *Server) ChatRequests() []RecordedRequest {
	var out []RecordedRequest
	for _, r := range s.Requests() {
		if r.Path == PathChat {
			out = append(out, r)
		}
	}
	return out
}

// RequestCount returns how many requests hit path ("/v1/chat/completions";
// the "/v1" prefix may be left out).
func (s *Server) RequestCount(path string) int {
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.requests {
		if r.Path == path || r.Path == "/v1"+path {
			n++
		}
	}
	return n
}

// Reset forgets queued replies and recorded requests.
func (s *Server) Reset() {
	s.mu.Lock()
	s.queue, s.requests = nil, nil
	s.tags.requests = nil
	s.mu.Unlock()
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec := decodeRequest(r, body)
	// A tagging request (tags.go) is answered apart: it consumes no
	// script and is not in Requests, so turn counts are unaffected.
	tagging := r.URL.Path == PathChat && IsTagRequest(rec)
	s.mu.Lock()
	if tagging {
		s.tags.requests = append(s.tags.requests, rec)
	} else {
		s.requests = append(s.requests, rec)
		if s.requestLog != nil && r.URL.Path == PathChat {
			var line bytes.Buffer
			if json.Compact(&line, body) == nil {
				line.WriteByte('\n')
				_, _ = s.requestLog.Write(line.Bytes())
			}
		}
	}
	key := s.apiKey
	s.mu.Unlock()

	if key != "" && r.Header.Get("Authorization") != "Bearer "+key {
		writeError(w, http.StatusUnauthorized, `{"error":{"message":"invalid api key","type":"invalid_request_error","code":"invalid_api_key"}}`)
		return
	}
	switch {
	case tagging && r.Method == http.MethodPost:
		s.serveTags(w, r, rec)
	case r.URL.Path == PathChat && r.Method == http.MethodPost:
		s.serveChat(w, r, rec)
	case r.URL.Path == PathModels && r.Method == http.MethodGet:
		s.serveModels(w)
	case r.URL.Path == PathEmbeddings && r.Method == http.MethodPost:
		s.serveEmbeddings(w, rec)
	default:
		writeError(w, http.StatusNotFound, `{"error":{"message":"not found","type":"invalid_request_error"}}`)
	}
}

// decodeRequest records r; decoding errors leave the typed fields empty.
func decodeRequest(r *http.Request, body []byte) RecordedRequest {
	rec := RecordedRequest{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	if len(bytes.TrimSpace(body)) == 0 {
		return rec
	}
	var b struct {
		Model         string                         `json:"model"`
		Messages      []openai.ChatCompletionMessage `json:"messages"`
		Tools         []openai.Tool                  `json:"tools"`
		Stream        bool                           `json:"stream"`
		StreamOptions *struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
		MaxTokens           int             `json:"max_tokens"`
		MaxCompletionTokens int             `json:"max_completion_tokens"`
		Temperature         *float64        `json:"temperature"`
		TopP                *float64        `json:"top_p"`
		Input               json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		return rec
	}
	rec.Model, rec.Messages, rec.Tools, rec.Stream = b.Model, b.Messages, b.Tools, b.Stream
	rec.MaxTokens, rec.MaxCompletionTokens = b.MaxTokens, b.MaxCompletionTokens
	rec.Temperature, rec.TopP = b.Temperature, b.TopP
	if b.StreamOptions != nil {
		rec.HasStreamOptions = true
		rec.IncludeUsage = b.StreamOptions.IncludeUsage
	}
	if len(b.Input) > 0 {
		var one string
		if json.Unmarshal(b.Input, &one) == nil {
			rec.Input = []string{one}
		} else {
			_ = json.Unmarshal(b.Input, &rec.Input)
		}
	}
	return rec
}

// next pops the scripted reply for rec, or builds the default one. A head
// script with RejectStreamOptions answering a request with stream_options is
// left queued (reject reports that).
func (s *Server) next(rec RecordedRequest) (resp Response, reject bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	if len(s.queue) > 0 {
		head := s.queue[0]
		if head.RejectStreamOptions && rec.HasStreamOptions {
			return head, true
		}
		s.queue = s.queue[1:]
		return head.expand(), false
	}
	if s.defaultFn != nil {
		return s.defaultFn(rec).expand(), false
	}
	text := s.reply
	if text == "" {
		text = "fake reply: " + rec.LastUserMessage()
	}
	if s.deltaSize > 0 {
		return Response{Chunks: SplitEvery(text, s.deltaSize), FirstByteDelay: s.firstByte, ChunkDelay: s.chunkDelay}, false
	}
	return Response{Chunks: SplitText(text, s.chunks), FirstByteDelay: s.firstByte, ChunkDelay: s.chunkDelay}, false
}

func (s *Server) serveChat(w http.ResponseWriter, r *http.Request, rec RecordedRequest) {
	resp, reject := s.next(rec)
	s.mu.Lock()
	id := fmt.Sprintf("chatcmpl-fake-%d", s.seq)
	s.mu.Unlock()
	if reject {
		writeError(w, http.StatusBadRequest, `{"error":{"message":"Unrecognized request argument supplied: stream_options","type":"invalid_request_error","param":"stream_options"}}`)
		return
	}
	s.respond(w, r, rec, resp, id)
}

// respond writes resp (an error, a JSON completion or an SSE stream) for rec.
func (s *Server) respond(w http.ResponseWriter, r *http.Request, rec RecordedRequest, resp Response, id string) {
	ctx := r.Context()
	if !wait(ctx, resp.FirstByteDelay) {
		return
	}
	if resp.Status != 0 && resp.Status != http.StatusOK {
		if resp.RetryAfter != "" {
			w.Header().Set("Retry-After", resp.RetryAfter)
		}
		body := resp.ErrorBody
		if body == "" {
			body = mustJSON(map[string]any{"error": map[string]any{
				"message": fmt.Sprintf("fake %d error", resp.Status), "type": "fake_error", "code": nil,
			}})
		}
		writeError(w, resp.Status, body)
		return
	}
	promptTokens := promptEstimate(rec.Messages)
	model := rec.Model
	if !rec.Stream {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, mustJSON(map[string]any{
			"id": id, "object": "chat.completion", "created": fakeCreated, "model": model,
			"choices": []any{map[string]any{
				"index":         0,
				"message":       map[string]any{"role": "assistant", "content": resp.text()},
				"finish_reason": resp.finishReason(),
			}},
			"usage": resp.usage(promptTokens),
		}))
		return
	}
	events, err := resp.events(id, model, rec.IncludeUsage, promptTokens)
	if err != nil {
		writeError(w, http.StatusInternalServerError, mustJSON(map[string]any{"error": map[string]any{"message": err.Error()}}))
		return
	}
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	_ = rc.Flush()
	if resp.CutAfter < 0 {
		cut(rc)
		return
	}
	if resp.Loop {
		loopText(ctx, w, rc, resp, id, model)
		return
	}
	var frame []byte
	for i := range events.len() {
		if i > 0 && !wait(ctx, resp.ChunkDelay) {
			return
		}
		if resp.Hold != nil && i == resp.HoldAfter {
			select {
			case <-resp.Hold:
			case <-ctx.Done():
				return
			}
		}
		frame = sseFrame(frame, events.at(i))
		if _, err := w.Write(frame); err != nil {
			return
		}
		// The first event, and every event of a timed, held or cut reply,
		// goes out on its own. An untimed reply's events go out as the
		// response buffer fills (a write every few kilobytes, not one per
		// event): the same bytes in the same order, without a syscall per
		// delta.
		if i == 0 || resp.ChunkDelay > 0 || resp.CutAfter > 0 || (resp.Hold != nil && i+1 == resp.HoldAfter) {
			_ = rc.Flush()
		}
		if resp.CutAfter > 0 && i+1 >= resp.CutAfter {
			cut(rc)
			return
		}
	}
}

// loopText streams resp's text deltas round and round (Response.Loop)
// until writing fails or the request's context ends: the client went away.
func loopText(ctx context.Context, w http.ResponseWriter, rc *http.ResponseController, resp Response, id, model string) {
	chunks := resp.Chunks
	if len(chunks) == 0 {
		chunks = []string{"again and again "}
	}
	text := newTextEncoder(id, model)
	var frame []byte
	for i := 0; ctx.Err() == nil; i++ {
		if i > 0 && !wait(ctx, resp.ChunkDelay) {
			return
		}
		frame = sseFrame(frame, text.event(chunks[i%len(chunks)], i == 0))
		if _, err := w.Write(frame); err != nil {
			return
		}
		if rc.Flush() != nil {
			return
		}
	}
}

// sseFrame is "data: <payload>\n\n", built in buf (reused between
// events: one write per event, no fmt).
func sseFrame(buf []byte, payload string) []byte {
	buf = append(buf[:0], "data: "...)
	buf = append(buf, payload...)
	return append(buf, "\n\n"...)
}

// cut closes the connection without finishing the chunked body.
func cut(rc *http.ResponseController) {
	conn, _, err := rc.Hijack()
	if err != nil {
		return
	}
	_ = conn.Close()
}

func (s *Server) serveModels(w http.ResponseWriter) {
	s.mu.Lock()
	ids := slices.Clone(s.models)
	s.mu.Unlock()
	data := make([]any, 0, len(ids))
	for _, id := range ids {
		data = append(data, map[string]any{"id": id, "object": "model", "created": fakeCreated, "owned_by": "llmtest"})
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, mustJSON(map[string]any{"object": "list", "data": data}))
}

func (s *Server) serveEmbeddings(w http.ResponseWriter, rec RecordedRequest) {
	if len(rec.Input) == 0 {
		writeError(w, http.StatusBadRequest, `{"error":{"message":"input must be a string or a list of strings","type":"invalid_request_error"}}`)
		return
	}
	s.mu.Lock()
	fn, dim := s.embedFn, s.dim
	s.mu.Unlock()
	data := make([]any, len(rec.Input))
	tokens := 0
	for i, in := range rec.Input {
		var v []float32
		if fn != nil {
			v = fn(rec.Model, in)
		} else {
			v = HashEmbedding(in, dim)
		}
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": v}
		tokens += estimateTokens(in)
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, mustJSON(map[string]any{
		"object": "list", "data": data, "model": rec.Model,
		"usage": map[string]int{"prompt_tokens": tokens, "total_tokens": tokens},
	}))
}

func writeError(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// wait sleeps d unless ctx ends first; it reports whether to go on.
func wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// promptEstimate is the default prompt token count: runes/4 of all contents.
func promptEstimate(msgs []openai.ChatCompletionMessage) int {
	n := 0
	for _, m := range msgs {
		n += estimateTokens(m.Content)
	}
	return max(n, 1)
}
