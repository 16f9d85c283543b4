package llmtest

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// post sends a chat request and returns the response.
func post(t *testing.T, s *Server, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(s.URL+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// sseEvents reads the data payloads of an SSE body until it ends; the error
// is the body's read error (nil on a clean end).
func sseEvents(r io.Reader) ([]string, error) {
	var evs []string
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if p, ok := strings.CutPrefix(strings.TrimSpace(line), "data: "); ok {
			evs = append(evs, p)
		}
		if err == io.EOF {
			return evs, nil
		}
		if err != nil {
			return evs, err
		}
	}
}

const streamBody = `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`

func TestStreamedEventsFollowTheScript(t *testing.T) {
	tests := []struct {
		name string
		body string
		resp Response
		want []string // JSON payloads are compared after decoding; "[DONE]" literally
	}{
		{
			name: "text then finish then done",
			body: streamBody,
			resp: Response{Chunks: []string{"a", "b"}},
			want: []string{
				`{"id":"chatcmpl-fake-1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"a"},"finish_reason":null}]}`,
				`{"id":"chatcmpl-fake-1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[{"index":0,"delta":{"content":"b"},"finish_reason":null}]}`,
				`{"id":"chatcmpl-fake-1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
				`[DONE]`,
			},
		},
		{
			name: "usage requested, choices null, no done",
			body: `{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[]}`,
			resp: Response{UsageChoicesNull: true, OmitDone: true, PromptTokens: 3, CompletionTokens: 4, FinishReason: "length"},
			want: []string{
				`{"id":"chatcmpl-fake-1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"length"}]}`,
				`{"id":"chatcmpl-fake-1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":null,"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}}`,
			},
		},
		{
			name: "tool call chunks in their three shapes",
			body: streamBody,
			resp: Response{OmitFinish: true, ToolCallChunks: []string{
				`[{"index":0,"id":"c1","function":{"name":"f","arguments":""}}]`,
				`{"function":{"arguments":"{}"}}`,
				`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
			}},
			want: []string{
				`{"id":"chatcmpl-fake-1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"f","arguments":""}}]},"finish_reason":null}]}`,
				`{"id":"chatcmpl-fake-1","object":"chat.completion.chunk","created":1700000000,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":"{}"}}]},"finish_reason":null}]}`,
				`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
				`[DONE]`,
			},
		},
		{
			name: "raw events verbatim",
			body: streamBody,
			resp: Response{RawEvents: []string{`{"x":1}`, `not json`}},
			want: []string{`{"x":1}`, `not json`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewServer(t)
			s.Enqueue(tt.resp)
			resp := post(t, s, tt.body)
			if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
				t.Errorf("content type %q", ct)
			}
			got, err := sseEvents(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d events %q, want %d", len(got), got, len(tt.want))
			}
			for i := range got {
				if !sameJSON(got[i], tt.want[i]) {
					t.Errorf("event %d:\n got %s\nwant %s", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func sameJSON(a, b string) bool {
	var va, vb any
	if json.Unmarshal([]byte(a), &va) != nil || json.Unmarshal([]byte(b), &vb) != nil {
		return a == b
	}
	return reflect.DeepEqual(va, vb)
}

func TestCutAfterClosesTheConnectionAbruptly(t *testing.T) {
	s := NewServer(t)
	s.Enqueue(Response{Chunks: []string{"a", "b", "c"}, CutAfter: 2})
	resp := post(t, s, streamBody)
	evs, err := sseEvents(resp.Body)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("read error = %v, want unexpected EOF", err)
	}
	if len(evs) != 2 {
		t.Errorf("got %d events before the cut, want 2", len(evs))
	}
}

func TestLoopStreamsTheTextRoundAndRoundUntilTheClientLeaves(t *testing.T) {
	s := NewServer(t)
	s.Enqueue(Response{Reply: "ab", DeltaSize: 1, Loop: true}, Text("next", 1))
	resp := post(t, s, streamBody)
	br := bufio.NewReader(resp.Body)
	var text strings.Builder
	for events := 0; events < 1000; {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("the loop ended after %d events: %v", events, err)
		}
		p, ok := strings.CutPrefix(strings.TrimSpace(line), "data: ")
		if !ok {
			continue
		}
		events++
		var ev struct {
			Choices []struct {
				Delta        struct{ Content string }
				FinishReason *string `json:"finish_reason"`
			}
		}
		if err := json.Unmarshal([]byte(p), &ev); err != nil || len(ev.Choices) != 1 || ev.Choices[0].FinishReason != nil {
			t.Fatalf("event %d: %s (%v)", events, p, err)
		}
		text.WriteString(ev.Choices[0].Delta.Content)
	}
	if text.String() != strings.Repeat("ab", 500) {
		t.Errorf("1000 events brought %.40q…", text.String())
	}
	resp.Body.Close() // the client goes away; the next request gets the next script
	next := post(t, s, streamBody)
	if evs, err := sseEvents(next.Body); err != nil || len(evs) < 2 || !strings.Contains(evs[0], `"next"`) {
		t.Errorf("after the loop: %v, %v", evs, err)
	}
}

func TestErrorStatusWithRetryAfter(t *testing.T) {
	s := NewServer(t)
	s.Enqueue(Response{Status: 429, RetryAfter: "3"}, Response{Status: 500, ErrorBody: `oops`})
	resp := post(t, s, streamBody)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" || !strings.Contains(string(b), "fake 429 error") {
		t.Errorf("got %d %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), b)
	}
	resp = post(t, s, streamBody)
	b, _ = io.ReadAll(resp.Body)
	if resp.StatusCode != 500 || string(b) != "oops" {
		t.Errorf("got %d %s", resp.StatusCode, b)
	}
}

func TestNonStreamedReplyIsAChatCompletion(t *testing.T) {
	s := NewServer(t)
	s.Enqueue(Response{Chunks: []string{"sum", "mary"}})
	resp := post(t, s, `{"model":"m","messages":[{"role":"user","content":"hello"}]}`)
	var out struct {
		Object  string
		Choices []struct {
			Message      struct{ Role, Content string }
			FinishReason string `json:"finish_reason"`
		}
		Usage struct {
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Object != "chat.completion" || len(out.Choices) != 1 || out.Choices[0].Message.Content != "summary" ||
		out.Choices[0].Message.Role != "assistant" || out.Choices[0].FinishReason != "stop" {
		t.Errorf("reply = %+v", out)
	}
	if out.Usage.PromptTokens != 2 || out.Usage.CompletionTokens != 2 {
		t.Errorf("usage = %+v", out.Usage)
	}
}

func TestDefaultReplyEchoesTheLastUserMessage(t *testing.T) {
	tests := []struct {
		name string
		opts []Option
		want []string
	}{
		{"echo in 4 chunks", nil, SplitText("fake reply: 東京は？", 4)},
		{"configured text and chunks", []Option{WithReply("hello"), WithChunks(2)}, []string{"hel", "lo"}},
		{"custom default", []Option{WithDefault(func(r RecordedRequest) Response {
			return Response{Chunks: []string{"model=" + r.Model}}
		})}, []string{"model=m"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewServer(t, tt.opts...)
			resp := post(t, s, `{"model":"m","stream":true,"messages":[{"role":"user","content":"old"},{"role":"assistant","content":"x"},{"role":"user","content":"東京は？"}]}`)
			evs, err := sseEvents(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, ev := range evs {
				var c struct {
					Choices []struct{ Delta struct{ Content string } }
				}
				if json.Unmarshal([]byte(ev), &c) == nil && len(c.Choices) > 0 && c.Choices[0].Delta.Content != "" {
					got = append(got, c.Choices[0].Delta.Content)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("chunks %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRejectStreamOptionsKeepsTheScriptQueued(t *testing.T) {
	s := NewServer(t)
	s.Enqueue(Response{RejectStreamOptions: true, Chunks: []string{"x"}})
	resp := post(t, s, `{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[]}`)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || !strings.Contains(string(b), "stream_options") {
		t.Fatalf("got %d %s", resp.StatusCode, b)
	}
	if s.Pending() != 1 {
		t.Fatalf("pending = %d, want the script still queued", s.Pending())
	}
	resp = post(t, s, streamBody)
	if resp.StatusCode != 200 || s.Pending() != 0 {
		t.Errorf("second request: %d, pending %d", resp.StatusCode, s.Pending())
	}
}

func TestRequestsAreRecorded(t *testing.T) {
	s := NewServer(t)
	post(t, s, `{"model":"m","stream":true,"stream_options":{"include_usage":true},"max_tokens":9,
		"messages":[{"role":"user","content":"q"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"call_1","content":"r"}],
		"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}]}`)
	resp, err := http.Get(s.URL + "/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	resp, err = http.Get(s.URL + "/nope")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("unknown path: %d", resp.StatusCode)
	}

	reqs := s.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests recorded", len(reqs))
	}
	r := reqs[0]
	if r.Path != PathChat || r.Model != "m" || !r.Stream || !r.IncludeUsage || r.MaxTokens != 9 {
		t.Errorf("recorded %+v", r)
	}
	if len(r.Messages) != 3 || r.Messages[1].ToolCalls[0].ID != "call_1" || r.Messages[2].ToolCallID != "call_1" {
		t.Errorf("messages %+v", r.Messages)
	}
	if len(r.Tools) != 1 || r.Tools[0].Function.Name != "f" {
		t.Errorf("tools %+v", r.Tools)
	}
	for path, want := range map[string]int{PathChat: 1, "chat/completions": 1, "/models": 1, PathEmbeddings: 0, "/v1/nope": 1} {
		if got := s.RequestCount(path); got != want {
			t.Errorf("RequestCount(%q) = %d, want %d", path, got, want)
		}
	}
	s.Reset()
	if len(s.Requests()) != 0 {
		t.Error("Reset kept requests")
	}
}

func TestConcurrentRequestsConsumeTheQueueOnce(t *testing.T) {
	s := NewServer(t)
	for range 10 {
		s.Enqueue(Response{Chunks: []string{"x"}})
	}
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Post(s.URL+"/chat/completions", "application/json", strings.NewReader(streamBody))
			if err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	if s.Pending() != 0 || s.RequestCount(PathChat) != 10 {
		t.Errorf("pending %d, count %d", s.Pending(), s.RequestCount(PathChat))
	}
}

func TestAPIKeyIsChecked(t *testing.T) {
	s := NewServer(t, WithAPIKey("k"))
	req, _ := http.NewRequest(http.MethodGet, s.URL+"/models", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Errorf("without key: %d", resp.StatusCode)
	}
	req.Header.Set("Authorization", "Bearer k")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("with key: %d", resp.StatusCode)
	}
}

func TestEmbeddingsEndpoint(t *testing.T) {
	tests := []struct {
		name    string
		opts    []Option
		body    string
		wantDim int
		wantN   int
		status  int
	}{
		{"list input, default dim", nil, `{"model":"e","input":["a b","c"]}`, 8, 2, 200},
		{"string input, dim 32", []Option{WithEmbeddingDim(32)}, `{"model":"e","input":"a b"}`, 32, 1, 200},
		{"missing input", nil, `{"model":"e"}`, 0, 0, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewServer(t, tt.opts...)
			resp, err := http.Post(s.URL+"/embeddings", "application/json", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.status)
			}
			if tt.status != 200 {
				return
			}
			var out struct {
				Data []struct {
					Index     int
					Embedding []float32
				}
			}
			if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
				t.Fatal(err)
			}
			if len(out.Data) != tt.wantN {
				t.Fatalf("%d vectors", len(out.Data))
			}
			for i, d := range out.Data {
				if d.Index != i || len(d.Embedding) != tt.wantDim {
					t.Errorf("vector %d: index %d dim %d", i, d.Index, len(d.Embedding))
				}
			}
			if !reflect.DeepEqual(out.Data[0].Embedding, HashEmbedding("a b", tt.wantDim)) {
				t.Error("vector differs from HashEmbedding")
			}
		})
	}
}

func TestHashEmbedding(t *testing.T) {
	cos := func(a, b []float32) float64 {
		var d float64
		for i := range a {
			d += float64(a[i]) * float64(b[i])
		}
		return d
	}
	norm := func(v []float32) float64 { return math.Sqrt(cos(v, v)) }
	const dim = 64
	tests := []struct {
		name    string
		a, b    string
		cmp     string // "eq", "similar" (cos > 0.5)
		minimum float64
	}{
		{"equal texts", "Go is fun", "Go is fun", "eq", 1},
		{"case and punctuation ignored", "Go, is FUN!", "go is fun", "eq", 1},
		{"word order ignored", "fun is go", "go is fun", "eq", 1},
		{"shared words are similar", "the weather in tokyo today", "the weather in tokyo tomorrow", "similar", 0.5},
		{"japanese runes are tokens", "東京の天気", "東京の天気は", "similar", 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := HashEmbedding(tt.a, dim), HashEmbedding(tt.b, dim)
			if math.Abs(norm(a)-1) > 1e-5 || math.Abs(norm(b)-1) > 1e-5 {
				t.Errorf("not unit length: %v %v", norm(a), norm(b))
			}
			c := cos(a, b)
			if tt.cmp == "eq" && !reflect.DeepEqual(a, b) {
				t.Errorf("vectors differ (cos %v)", c)
			}
			if c < tt.minimum-1e-5 {
				t.Errorf("cos = %v, want >= %v", c, tt.minimum)
			}
		})
	}
	if v := HashEmbedding("", 4); !reflect.DeepEqual(v, []float32{1, 0, 0, 0}) {
		t.Errorf("empty text: %v", v)
	}
	if v := HashEmbedding("x", 0); len(v) != 1 {
		t.Errorf("dim 0 gave %d components", len(v))
	}
}

func TestSplitText(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want []string
	}{
		{"", 3, nil},
		{"abcdef", 1, []string{"abcdef"}},
		{"abcdef", 0, []string{"abcdef"}},
		{"abcdefg", 3, []string{"abc", "de", "fg"}},
		{"東京天気", 2, []string{"東京", "天気"}},
		{"ab", 5, []string{"a", "b"}},
	}
	for _, tt := range tests {
		if got := SplitText(tt.s, tt.n); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SplitText(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

func TestLoadScriptAcceptsDurationStringsAndNumbers(t *testing.T) {
	rs, err := LoadScript(strings.NewReader(`[
		{"chunks":["a"],"first_byte_delay":"300ms","chunk_delay":2000000,"status":0,"cut_after":2},
		{"status":429,"retry_after":"1","tool_call_chunks":["[]"],"usage_only_final":true,"usage_choices_null":true,"finish_reason":"length"}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Response{
		{Chunks: []string{"a"}, FirstByteDelay: 300 * time.Millisecond, ChunkDelay: 2 * time.Millisecond, CutAfter: 2},
		{Status: 429, RetryAfter: "1", ToolCallChunks: []string{"[]"}, UsageOnlyFinal: true, UsageChoicesNull: true, FinishReason: "length"},
	}
	if !reflect.DeepEqual(rs, want) {
		t.Errorf("got %+v\nwant %+v", rs, want)
	}
	// A Response marshalled by Go round-trips.
	b, _ := json.Marshal(want)
	back, err := LoadScript(strings.NewReader(string(b)))
	if err != nil || !reflect.DeepEqual(back, want) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	if _, err := LoadScript(strings.NewReader(`[{"chunk_delay":"later"}]`)); err == nil {
		t.Error("bad duration accepted")
	}
}

func TestLatencyIsApplied(t *testing.T) {
	s := NewServer(t, WithLatency(60*time.Millisecond, 20*time.Millisecond), WithChunks(3))
	start := time.Now()
	resp := post(t, s, streamBody)
	first := time.Since(start)
	if _, err := sseEvents(resp.Body); err != nil {
		t.Fatal(err)
	}
	total := time.Since(start)
	if first < 60*time.Millisecond || total < 60*time.Millisecond+3*20*time.Millisecond {
		t.Errorf("first byte after %v, done after %v", first, total)
	}
}

func TestStartAndClose(t *testing.T) {
	s, err := Start("127.0.0.1:0", WithModels("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(s.URL + "/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	s.Close()
	s.Close() // idempotent
	if _, err := http.Get(s.URL + "/models"); err == nil {
		t.Error("server still answers after Close")
	}
}

// A {{now+Ns}} placeholder in a tool call becomes the local date-time N
// seconds after the reply is served; the script itself is not changed.
func TestToolCallChunksExpandNowPlaceholders(t *testing.T) {
	now := time.Date(2026, 11, 30, 23, 59, 58, 0, time.Local)
	in := []string{`{"arguments":"{\"due\":\"{{now+3s}}\",\"was\":\"{{now-60s}}\"}"}`}
	got := expandNow(in, now)
	want := `{"arguments":"{\"due\":\"2026-12-01T00:00:01\",\"was\":\"2026-11-30T23:58:58\"}"}`
	if got[0] != want {
		t.Fatalf("expanded %s, want %s", got[0], want)
	}
	if in[0] == got[0] {
		t.Fatal("the script's entry was changed in place")
	}
}

func TestTheRequestLogHasOneLinePerChatRequestAndNoHeaders(t *testing.T) {
	var log strings.Builder
	s := NewServer(t, WithRequestLog(&log))
	for _, q := range []string{"one", "two"} {
		resp := post(t, s, `{"model":"m", "temperature": 0.3,
			"messages":[{"role":"system","content":"MARK"},{"role":"user","content":"`+q+`"}]}`)
		_, _ = io.Copy(io.Discard, resp.Body)
	}
	lines := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"temperature":0.3`) || !strings.Contains(lines[0], `"content":"MARK"`) ||
		!strings.Contains(lines[1], `"content":"two"`) || strings.Contains(log.String(), "Bearer") {
		t.Fatalf("request log = %q", log.String())
	}
}
