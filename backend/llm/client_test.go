package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"playchat/backend/llm"
	"playchat/backend/llm/llmtest"
)

func TestAPILogsOneRecordPerCall(t *testing.T) {
	tests := []struct {
		name       string
		script     []llmtest.Response
		complete   bool
		wantErr    bool
		wantText   string
		minLatency time.Duration
	}{
		{"stream", []llmtest.Response{{Chunks: []string{"hi ", "there"}, FirstByteDelay: 30 * time.Millisecond}}, false, false, "hi there", 30 * time.Millisecond},
		{"stream retried once is still one record", []llmtest.Response{{Status: 500}, {Chunks: []string{"ok"}, FirstByteDelay: 20 * time.Millisecond}}, false, false, "ok", 20 * time.Millisecond},
		{"failed stream records the error", []llmtest.Response{{Status: 400, ErrorBody: `{"error":{"message":"bad things"}}`}}, false, true, "", 0},
		{"cut stream records the partial text", []llmtest.Response{{Chunks: []string{"par", "tial", "x"}, CutAfter: 2}}, false, true, "partial", 0},
		{"complete", []llmtest.Response{{Chunks: []string{"sum", "mary"}, FirstByteDelay: 25 * time.Millisecond}}, true, false, "summary", 25 * time.Millisecond},
		{"stream with tool calls renders them", []llmtest.Response{{ToolCallChunks: []string{
			`[{"index":0,"id":"call_1","type":"function","function":{"name":"web_search","arguments":"{\"query\":\"go\"}"}}]`}}},
			false, false, `tool_calls: [{"id":"call_1","type":"function","function":{"name":"web_search","arguments":"{\"query\":\"go\"}"}}]`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Enqueue(tt.script...)
			req := userRequest("my old key was sk-live-abcdef0123 and header Bearer xyz.123")
			before := time.Now().UTC()
			var err error
			if tt.complete {
				_, err = h.client.Complete(context.Background(), req)
			} else {
				_, err = h.client.Stream(context.Background(), req, nil)
			}
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			logs := h.sink.all()
			if len(logs) != 1 {
				t.Fatalf("%d api logs, want 1", len(logs))
			}
			l := logs[0]
			if l.Model != testModel || l.SessionID != "sess-1" {
				t.Errorf("model %q session %q", l.Model, l.SessionID)
			}
			if l.ResponseText != tt.wantText {
				t.Errorf("response %q, want %q", l.ResponseText, tt.wantText)
			}
			if (l.Error != "") != tt.wantErr {
				t.Errorf("log error %q, wantErr %v", l.Error, tt.wantErr)
			}
			if l.LatencyMS < tt.minLatency.Milliseconds() {
				t.Errorf("latency %dms, want >= %v", l.LatencyMS, tt.minLatency)
			}
			if l.CreatedAt.Location() != time.UTC || l.CreatedAt.Before(before.Add(-time.Second)) {
				t.Errorf("created_at %v", l.CreatedAt)
			}
			var body map[string]any
			if err := json.Unmarshal([]byte(l.RequestJSON), &body); err != nil {
				t.Fatalf("request_json is not JSON: %v\n%s", err, l.RequestJSON)
			}
			if body["model"] != "gpt-test" || body["messages"] == nil {
				t.Errorf("request_json = %s", l.RequestJSON)
			}
			for _, leak := range []string{"SECRET", "sk-live-abcdef0123", "xyz.123"} {
				if strings.Contains(fmt.Sprintf("%+v", l), leak) {
					t.Errorf("api log contains %q: %+v", leak, l)
				}
			}
		})
	}
}

func TestKeyNeverLeaks(t *testing.T) {
	h := newHarness(t)
	// A provider echoing the key in its error, on the retried status too.
	echo := `{"error":{"message":"Incorrect API key provided: ` + testKey + `"}}`
	h.srv.Enqueue(llmtest.Response{Status: 503, ErrorBody: echo}, llmtest.Response{Status: 401, ErrorBody: echo})
	_, err := h.client.Stream(context.Background(), userRequest("x"), nil)
	if err == nil {
		t.Fatal("want an error")
	}
	if strings.Contains(err.Error(), "SECRET") {
		t.Errorf("error leaks the key: %v", err)
	}
	h.srv.Enqueue(llmtest.Response{Status: 401, ErrorBody: echo})
	if _, err := h.client.Complete(context.Background(), llm.Request{Model: "openai/x"}); err == nil {
		t.Fatal("want an error")
	}
	for _, l := range h.sink.all() {
		if strings.Contains(fmt.Sprintf("%+v", l), "SECRET") {
			t.Errorf("api log leaks the key: %+v", l)
		}
	}
	if strings.Contains(h.logBuf.String(), "SECRET") {
		t.Errorf("diagnostic log leaks the key:\n%s", h.logBuf.String())
	}
	if !strings.Contains(h.logBuf.String(), "retrying") {
		t.Errorf("expected a retry log line, got:\n%s", h.logBuf.String())
	}
}

func TestFailingSinkDoesNotFailTheCall(t *testing.T) {
	h := newHarness(t)
	h.sink.fail = true
	res, _, err := h.stream(t, context.Background(), userRequest("x"))
	if err != nil || res.Text == "" {
		t.Fatalf("Stream = %+v, %v", res, err)
	}
	if !strings.Contains(h.logBuf.String(), "disk full") {
		t.Errorf("sink error not logged:\n%s", h.logBuf.String())
	}
}

func TestCancelledStreamIsStillRecorded(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(llmtest.Response{Chunks: []string{"a", "b"}, ChunkDelay: 2 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	_, err := h.client.Stream(ctx, userRequest("x"), func(string) { cancel() })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	logs := h.sink.all()
	if len(logs) != 1 || logs[0].ResponseText != "a" || logs[0].Error != llm.CanceledLogError {
		t.Errorf("logs = %+v", logs)
	}
}

func TestComplete(t *testing.T) {
	tests := []struct {
		name     string
		script   []llmtest.Response
		want     string
		wantErr  bool
		wantReqs int
	}{
		{"returns the whole text", []llmtest.Response{{Chunks: []string{"A ", "title"}}}, "A title", false, 1},
		{"retries a 502", []llmtest.Response{{Status: 502}, {Chunks: []string{"ok"}}}, "ok", false, 2},
		{"does not retry a 401", []llmtest.Response{{Status: 401}}, "", true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Enqueue(tt.script...)
			req := userRequest("summarise")
			req.MaxTokens = 64
			got, err := h.client.Complete(context.Background(), req)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Fatalf("Complete = %q, %v; want %q (err %v)", got, err, tt.want, tt.wantErr)
			}
			reqs := h.srv.ChatRequests()
			if len(reqs) != tt.wantReqs {
				t.Fatalf("%d requests, want %d", len(reqs), tt.wantReqs)
			}
			if r := reqs[0]; r.Stream || r.HasStreamOptions || r.MaxTokens != 64 {
				t.Errorf("request stream=%v stream_options=%v max_tokens=%d", r.Stream, r.HasStreamOptions, r.MaxTokens)
			}
		})
	}
}

func TestEmbedReturnsOneVectorPerInputInOrder(t *testing.T) {
	h := newHarness(t)
	inputs := []string{"東京の天気", "hello world", "", "hello world"}
	got, err := h.client.Embed(context.Background(), "openai/fake-embed", inputs)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(inputs) {
		t.Fatalf("%d vectors for %d inputs", len(got), len(inputs))
	}
	for i, in := range inputs {
		if want := llmtest.HashEmbedding(in, 8); !reflect.DeepEqual(got[i], want) {
			t.Errorf("vector %d = %v, want %v", i, got[i], want)
		}
	}
	if !reflect.DeepEqual(got[1], got[3]) {
		t.Error("equal inputs gave different vectors")
	}
	reqs := h.srv.Requests()
	if len(reqs) != 1 || reqs[0].Path != llmtest.PathEmbeddings || reqs[0].Model != "fake-embed" || !reflect.DeepEqual(reqs[0].Input, inputs) {
		t.Errorf("requests = %+v", reqs)
	}
	if logs := h.sink.all(); len(logs) != 0 {
		t.Errorf("Embed recorded %d api logs", len(logs))
	}
}

func TestEmbedCustomFuncAndNoInputs(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithEmbedFunc(func(model, in string) []float32 {
		return []float32{float32(len(in)), 1}
	}))
	c := llm.New(llm.Providers{OllamaBase: strings.TrimSuffix(srv.URL, "/v1")})
	got, err := c.Embed(context.Background(), "ollama/nomic-embed-text", []string{"a", "abc"})
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]float32{{1, 1}, {3, 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	got, err = c.Embed(context.Background(), "ollama/nomic-embed-text", nil)
	if err != nil || got != nil {
		t.Errorf("no inputs: %v, %v", got, err)
	}
	if n := srv.RequestCount("embeddings"); n != 1 {
		t.Errorf("%d embedding requests, want 1", n)
	}
}

func TestListModels(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithModels("qwen3:8b", "llama3.2", "qwen3:8b"))
	c := llm.New(llm.Providers{OllamaBase: strings.TrimSuffix(srv.URL, "/v1"), OpenAIBaseURL: srv.URL, LMStudioBase: srv.URL})
	tests := []struct {
		provider string
		want     []string
		wantErr  error
	}{
		{"ollama", []string{"ollama/llama3.2", "ollama/qwen3:8b"}, nil},
		{"openai/", []string{"openai/llama3.2", "openai/qwen3:8b"}, nil},
		{"lm_studio", []string{"lm_studio/llama3.2", "lm_studio/qwen3:8b"}, nil},
		{"anthropic", nil, llm.ErrMissingKey},
		{"mistral", nil, llm.ErrUnknownProvider},
	}
	for _, tt := range tests {
		t.Run(tt.provider, func(t *testing.T) {
			got, err := c.ListModels(context.Background(), tt.provider)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestReachable(t *testing.T) {
	up := llmtest.NewServer(t)
	down := llmtest.NewServer(t)
	downURL := down.URL
	down.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	tests := []struct {
		name string
		p    llm.Providers
		prov string
		want bool
	}{
		{"fake answers", llm.Providers{OllamaBase: strings.TrimSuffix(up.URL, "/v1")}, "ollama", true},
		{"closed port", llm.Providers{OllamaBase: strings.TrimSuffix(downURL, "/v1")}, "ollama", false},
		{"unknown provider", llm.Providers{}, "nope", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := llm.New(tt.p).Reachable(ctx, tt.prov); got != tt.want {
				t.Errorf("Reachable = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSetProvidersSwitchesServersConcurrently(t *testing.T) {
	a := llmtest.NewServer(t, llmtest.WithReply("from a"))
	b := llmtest.NewServer(t, llmtest.WithReply("from b"))
	c := llm.New(llm.Providers{OpenAIBaseURL: a.URL})
	if got, err := c.Complete(context.Background(), userRequest("x")); err != nil || got != "from a" {
		t.Fatalf("Complete = %q, %v", got, err)
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				c.SetProviders(llm.Providers{OpenAIBaseURL: b.URL})
				return
			}
			_, _ = c.Stream(context.Background(), userRequest("x"), nil)
		}()
	}
	wg.Wait()
	c.SetProviders(llm.Providers{OpenAIBaseURL: b.URL})
	if got, err := c.Complete(context.Background(), userRequest("x")); err != nil || got != "from b" {
		t.Fatalf("after SetProviders: %q, %v", got, err)
	}
}

func TestLegacyFunctionCallStreamBecomesToolCall(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(llmtest.Response{RawEvents: []string{
		`{"choices":[{"index":0,"delta":{"function_call":{"name":"web_search","arguments":"{\"q\""}},"finish_reason":null}]}`,
		`{"choices":[{"index":0,"delta":{"function_call":{"arguments":":1}"}},"finish_reason":"function_call"}]}`,
		`[DONE]`,
	}})
	res, _, err := h.stream(t, context.Background(), userRequest("x"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ToolCalls) != 1 || res.ToolCalls[0].Function != (openai.FunctionCall{Name: "web_search", Arguments: `{"q":1}`}) {
		t.Errorf("calls = %+v", res.ToolCalls)
	}
}
