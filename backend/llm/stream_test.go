package llm_test

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"playchat/backend/llm"
	"playchat/backend/llm/llmtest"
)

func TestStreamConcatenatesChunksInOrder(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(llmtest.Response{Chunks: []string{"Hel", "lo, ", "wor", "ld! 東京"}})

	res, deltas, err := h.stream(t, context.Background(), userRequest("hi"))
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if want := []string{"Hel", "lo, ", "wor", "ld! 東京"}; !reflect.DeepEqual(deltas, want) {
		t.Errorf("deltas = %q, want %q", deltas, want)
	}
	if res.Text != "Hello, world! 東京" || res.FinishReason != "stop" || !res.FirstByte {
		t.Errorf("result = %+v", res)
	}
	reqs := h.srv.ChatRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d chat requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Model != "gpt-test" || !r.Stream || !r.IncludeUsage {
		t.Errorf("request model=%q stream=%v include_usage=%v", r.Model, r.Stream, r.IncludeUsage)
	}
	if r.LastUserMessage() != "hi" || r.Messages[0].Role != "system" {
		t.Errorf("messages = %+v", r.Messages)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
		t.Errorf("Authorization = %q", got)
	}
}

func TestStreamDefaultReplyOfTheFake(t *testing.T) {
	h := newHarness(t)
	res, deltas, err := h.stream(t, context.Background(), userRequest("ping"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "fake reply: ping" || len(deltas) < 2 {
		t.Errorf("text %q in %d deltas", res.Text, len(deltas))
	}
}

func TestStreamTakesTokensFromUsageOnlyFinalChunk(t *testing.T) {
	tests := []struct {
		name string
		null bool
	}{
		{`choices []`, false},
		{`choices null`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Enqueue(llmtest.Response{
				Chunks: []string{"a", "b"}, UsageOnlyFinal: true, UsageChoicesNull: tt.null,
				PromptTokens: 11, CompletionTokens: 7,
			})
			res, deltas, err := h.stream(t, context.Background(), userRequest("x"))
			if err != nil {
				t.Fatal(err)
			}
			if res.Text != "ab" || len(deltas) != 2 {
				t.Errorf("text %q deltas %q", res.Text, deltas)
			}
			if res.PromptTokens != 11 || res.CompletionTokens != 7 {
				t.Errorf("tokens = %d/%d, want 11/7", res.PromptTokens, res.CompletionTokens)
			}
		})
	}
}

func TestStreamRetriesBeforeFirstByte(t *testing.T) {
	ok := llmtest.Response{Chunks: []string{"ok"}}
	tests := []struct {
		name      string
		script    []llmtest.Response
		wantErr   int // APIError status, 0 for success
		wantReqs  int
		wantWaits []time.Duration
	}{
		{"500 then success", []llmtest.Response{{Status: 500}, ok}, 0, 2, []time.Duration{100 * time.Millisecond}},
		{"503 twice then success backs off exponentially", []llmtest.Response{{Status: 503}, {Status: 503}, ok}, 0, 3,
			[]time.Duration{100 * time.Millisecond, 200 * time.Millisecond}},
		{"429 honours Retry-After seconds", []llmtest.Response{{Status: 429, RetryAfter: "2"}, ok}, 0, 2, []time.Duration{2 * time.Second}},
		{"Retry-After is capped at 30s", []llmtest.Response{{Status: 429, RetryAfter: "600"}, ok}, 0, 2, []time.Duration{30 * time.Second}},
		{"500 three times gives up", []llmtest.Response{{Status: 500}, {Status: 500}, {Status: 500}, ok}, 500, 3,
			[]time.Duration{100 * time.Millisecond, 200 * time.Millisecond}},
		{"connection cut before any delta is retried", []llmtest.Response{{CutAfter: -1}, ok}, 0, 2, []time.Duration{100 * time.Millisecond}},
		{"error event at stream start with code 502 is retried", []llmtest.Response{
			{RawEvents: []string{`{"error":{"message":"upstream overloaded","code":502}}`}}, ok}, 0, 2, []time.Duration{100 * time.Millisecond}},
		{"400 is not retried", []llmtest.Response{{Status: 400}, ok}, 400, 1, nil},
		{"404 is not retried", []llmtest.Response{{Status: 404, ErrorBody: `{"error":"model \"gpt-test\" not found"}`}, ok}, 404, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Enqueue(tt.script...)
			res, _, err := h.stream(t, context.Background(), userRequest("x"))
			if tt.wantErr == 0 {
				if err != nil || res.Text != "ok" {
					t.Fatalf("Stream = %q, %v; want ok", res.Text, err)
				}
			} else {
				var ae *llm.APIError
				if !errors.As(err, &ae) || ae.StatusCode != tt.wantErr {
					t.Fatalf("error = %v (%T), want *APIError %d", err, err, tt.wantErr)
				}
				if res.FirstByte || res.Text != "" {
					t.Errorf("result %+v, want empty", res)
				}
			}
			if n := h.srv.RequestCount(llmtest.PathChat); n != tt.wantReqs {
				t.Errorf("%d requests, want %d", n, tt.wantReqs)
			}
			if got := h.sleep.waits(); !reflect.DeepEqual(got, tt.wantWaits) {
				t.Errorf("waits = %v, want %v", got, tt.wantWaits)
			}
		})
	}
}

func TestStreamRetryAfterHTTPDate(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(llmtest.Response{Status: 429, RetryAfter: time.Now().Add(10 * time.Second).UTC().Format(http.TimeFormat)},
		llmtest.Response{Chunks: []string{"ok"}})
	if _, _, err := h.stream(t, context.Background(), userRequest("x")); err != nil {
		t.Fatal(err)
	}
	w := h.sleep.waits()
	if len(w) != 1 || w[0] < 8*time.Second || w[0] > 10*time.Second {
		t.Errorf("waits = %v, want ~10s", w)
	}
}

func TestStreamCutMidwayReturnsPartialTextAndIsNotRetried(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(llmtest.Response{Chunks: []string{"one ", "two ", "three ", "four"}, CutAfter: 2},
		llmtest.Response{Chunks: []string{"must not be used"}})
	res, deltas, err := h.stream(t, context.Background(), userRequest("x"))
	if err == nil {
		t.Fatal("Stream succeeded on a cut connection")
	}
	if !errors.Is(err, llm.ErrStreamInterrupted) {
		t.Errorf("error %v is not ErrStreamInterrupted", err)
	}
	if res.Text != "one two " || len(deltas) != 2 || !res.FirstByte {
		t.Errorf("result %+v deltas %q, want the two chunks sent", res, deltas)
	}
	if n := h.srv.RequestCount(llmtest.PathChat); n != 1 {
		t.Errorf("%d requests, want 1 (no retry after the first delta)", n)
	}
}

func TestStreamEndWithoutDone(t *testing.T) {
	tests := []struct {
		name        string
		resp        llmtest.Response
		wantErr     bool
		wantText    string
		wantRetries int
	}{
		{"missing [DONE] after a finish_reason is fine", llmtest.Response{Chunks: []string{"a", "b"}, OmitDone: true}, false, "ab", 1},
		{"[DONE] without finish_reason is fine", llmtest.Response{Chunks: []string{"a"}, OmitFinish: true}, false, "a", 1},
		{"neither finish_reason nor [DONE] is interrupted", llmtest.Response{Chunks: []string{"a"}, OmitFinish: true, OmitDone: true}, true, "a", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Enqueue(tt.resp)
			res, _, err := h.stream(t, context.Background(), userRequest("x"))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if tt.wantErr && !errors.Is(err, llm.ErrStreamInterrupted) {
				t.Errorf("error %v is not ErrStreamInterrupted", err)
			}
			if res.Text != tt.wantText {
				t.Errorf("text %q, want %q", res.Text, tt.wantText)
			}
			if n := h.srv.RequestCount(llmtest.PathChat); n != tt.wantRetries {
				t.Errorf("%d requests, want %d", n, tt.wantRetries)
			}
		})
	}
}

func TestStreamCancellationStopsQuickly(t *testing.T) {
	tests := []struct {
		name     string
		resp     llmtest.Response
		cancelOn string // "delta": in onDelta; "timer": after 50ms
		wantText string
	}{
		{"mid-stream", llmtest.Response{Chunks: []string{"a", "b", "c", "d"}, ChunkDelay: 2 * time.Second}, "delta", "a"},
		{"while waiting for the first byte", llmtest.Response{Chunks: []string{"a"}, FirstByteDelay: 5 * time.Second}, "timer", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Enqueue(tt.resp)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancelOn == "timer" {
				time.AfterFunc(50*time.Millisecond, cancel)
			}
			var deltas []string
			start := time.Now()
			res, err := h.client.Stream(ctx, userRequest("x"), func(s string) {
				deltas = append(deltas, s)
				if tt.cancelOn == "delta" {
					cancel()
				}
			})
			if el := time.Since(start); el > time.Second {
				t.Errorf("Stream took %v after cancel", el)
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			if res.Text != tt.wantText || strings.Join(deltas, "") != tt.wantText {
				t.Errorf("text %q deltas %q, want %q", res.Text, deltas, tt.wantText)
			}
			if n := h.srv.RequestCount(llmtest.PathChat); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
}

func TestStreamCancelledDuringBackoff(t *testing.T) {
	h := newHarness(t)
	ctx, cancel := context.WithCancel(context.Background())
	h.client = llm.New(llm.Providers{OpenAIKey: testKey, OpenAIBaseURL: h.srv.URL},
		llm.WithSleep(func(ctx context.Context, d time.Duration) error { cancel(); return ctx.Err() }))
	h.srv.Enqueue(llmtest.Response{Status: 500}, llmtest.Response{Chunks: []string{"late"}})
	_, err := h.client.Stream(ctx, userRequest("x"), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if n := h.srv.RequestCount(llmtest.PathChat); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

func TestStreamAccumulatesToolCalls(t *testing.T) {
	call := func(id, name, args string) llm.ToolCall {
		return llm.ToolCall{ID: id, Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: name, Arguments: args}}
	}
	tests := []struct {
		name          string
		resp          llmtest.Response
		wantText      string
		wantFinish    string
		wantCalls     []llm.ToolCall
		wantTruncated []llm.ToolCall
	}{
		{
			name: "OpenAI split style",
			resp: llmtest.Response{ToolCallChunks: []string{
				`[{"index":0,"id":"call_a","type":"function","function":{"name":"web_search","arguments":""}}]`,
				`[{"index":0,"function":{"arguments":"{\"query\":"}}]`,
				`[{"index":0,"function":{"arguments":"\"東京 天気\"}"}}]`,
				`[{"index":1,"id":"call_b","type":"function","function":{"name":"read_note","arguments":"{\"id\":2}"}}]`,
			}},
			wantFinish: "tool_calls",
			wantCalls:  []llm.ToolCall{call("call_a", "web_search", `{"query":"東京 天気"}`), call("call_b", "read_note", `{"id":2}`)},
		},
		{
			name: "Ollama whole style with text before and finish stop",
			resp: llmtest.Response{
				Chunks:       []string{"Let me check."},
				FinishReason: "stop",
				ToolCallChunks: []string{
					`{"id":"call_o","type":"function","function":{"name":"web_search","arguments":"{\"query\":\"go\"}"}}`,
				},
			},
			wantText:   "Let me check.",
			wantFinish: "stop",
			wantCalls:  []llm.ToolCall{call("call_o", "web_search", `{"query":"go"}`)},
		},
		{
			name: "raw chunk with null arguments and duplicate finish chunks",
			resp: llmtest.Response{RawEvents: []string{
				`{"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_n","type":"function","function":{"name":"list_reminders","arguments":null}}]},"finish_reason":null}]}`,
				`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
				`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
				`[DONE]`,
			}},
			wantFinish: "tool_calls",
			wantCalls:  []llm.ToolCall{call("call_n", "list_reminders", `{}`)},
		},
		{
			name: "arguments cut by length",
			resp: llmtest.Response{FinishReason: "length", ToolCallChunks: []string{
				`[{"index":0,"id":"call_t","type":"function","function":{"name":"write_note","arguments":"{\"content\":\"abc"}}]`,
			}},
			wantFinish:    "length",
			wantTruncated: []llm.ToolCall{call("call_t", "write_note", `{"content":"abc`)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Enqueue(tt.resp)
			req := userRequest("weather?")
			req.Tools = []llm.Tool{{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
				Name: "web_search", Parameters: map[string]any{"type": "object"},
			}}}
			res, _, err := h.stream(t, context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if res.Text != tt.wantText || res.FinishReason != tt.wantFinish {
				t.Errorf("text %q finish %q, want %q %q", res.Text, res.FinishReason, tt.wantText, tt.wantFinish)
			}
			if !reflect.DeepEqual(res.ToolCalls, tt.wantCalls) {
				t.Errorf("calls:\n got %+v\nwant %+v", res.ToolCalls, tt.wantCalls)
			}
			if !reflect.DeepEqual(res.Truncated, tt.wantTruncated) {
				t.Errorf("truncated:\n got %+v\nwant %+v", res.Truncated, tt.wantTruncated)
			}
			if tools := h.srv.ChatRequests()[0].Tools; len(tools) != 1 || tools[0].Function.Name != "web_search" {
				t.Errorf("tools sent = %+v", tools)
			}
		})
	}
}

func TestStreamSendsToolResultsBack(t *testing.T) {
	h := newHarness(t)
	req := userRequest("weather?")
	req.Messages = append(req.Messages,
		llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{{ID: "call_1", Type: "function",
			Function: openai.FunctionCall{Name: "web_search", Arguments: `{"query":"x"}`}}}},
		llm.Message{Role: "tool", ToolCallID: "call_1", Content: "sunny"},
	)
	if _, _, err := h.stream(t, context.Background(), req); err != nil {
		t.Fatal(err)
	}
	msgs := h.srv.ChatRequests()[0].Messages
	if len(msgs) != 4 || msgs[2].ToolCalls[0].ID != "call_1" || msgs[3].ToolCallID != "call_1" || msgs[3].Content != "sunny" {
		t.Errorf("messages sent = %+v", msgs)
	}
}

func TestStreamRetriesWithoutStreamOptionsWhenRejected(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(llmtest.Response{RejectStreamOptions: true, Chunks: []string{"fine"}})
	res, _, err := h.stream(t, context.Background(), userRequest("x"))
	if err != nil || res.Text != "fine" {
		t.Fatalf("Stream = %q, %v", res.Text, err)
	}
	reqs := h.srv.ChatRequests()
	if len(reqs) != 2 || !reqs[0].HasStreamOptions || reqs[1].HasStreamOptions {
		t.Fatalf("requests: %d, stream_options %v then %v", len(reqs), reqs[0].HasStreamOptions, reqs[len(reqs)-1].HasStreamOptions)
	}
	if w := h.sleep.waits(); len(w) != 0 {
		t.Errorf("waited %v before the stream_options fallback", w)
	}
	logs := h.sink.all()
	if len(logs) != 1 || strings.Contains(logs[0].RequestJSON, "stream_options") {
		t.Errorf("api log should hold the request actually answered: %+v", logs)
	}
}

func TestStreamReportsToolsUnsupported(t *testing.T) {
	tests := []struct{ name, body string }{
		{"Ollama", `{"error":"registry.ollama.ai/library/gemma:2b does not support tools"}`},
		{"OpenAI style", `{"error":{"message":"tools is not supported in this model","type":"invalid_request_error"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Enqueue(llmtest.Response{Status: 400, ErrorBody: tt.body})
			_, _, err := h.stream(t, context.Background(), userRequest("x"))
			if !errors.Is(err, llm.ErrToolsUnsupported) {
				t.Fatalf("err = %v, want ErrToolsUnsupported", err)
			}
			if !strings.HasPrefix(err.Error(), "provider returned 400: ") {
				t.Errorf("message %q", err)
			}
		})
	}
}

func TestStreamUnresolvableModel(t *testing.T) {
	h := newHarness(t)
	req := userRequest("x")
	req.Model = "nope/x"
	_, _, err := h.stream(t, context.Background(), req)
	if !errors.Is(err, llm.ErrUnknownProvider) {
		t.Fatalf("err = %v", err)
	}
	if n := len(h.srv.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
	if logs := h.sink.all(); len(logs) != 1 || logs[0].Error == "" {
		t.Errorf("logs = %+v, want one with the error", logs)
	}
}
