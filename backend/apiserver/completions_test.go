package apiserver_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"playchat/backend/llm/llmtest"
)

func llmResponse404() llmtest.Response {
	return llmtest.Response{Status: 404, ErrorBody: `{"error":{"message":"The model does not exist","type":"invalid_request_error","code":"model_not_found"}}`}
}

var hi = []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}

// TestAPlainModelIsPassedOnWithoutStreaming: the provider gets the
// client's messages, tools and parameters; the reply is a chat.completion
// with usage, and the call is in api_logs marked as the API's.
func TestAPlainModelIsPassedOnWithoutStreaming(t *testing.T) {
	e := newEnv(t, envOpts{})
	ctx := context.Background()
	temp := float32(0.3)
	resp, err := e.client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{Model: "openai/fake-chat",
		Messages:    []openai.ChatCompletionMessage{{Role: "system", Content: "SYS"}, {Role: "user", Content: "hi"}},
		Tools:       []openai.Tool{{Type: "function", Function: &openai.FunctionDefinition{Name: "get_weather", Parameters: map[string]any{"type": "object"}}}},
		Temperature: temp, MaxTokens: 77, Stop: []string{"END"}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Object != "chat.completion" || len(resp.Choices) != 1 || resp.Choices[0].Message.Content != "fake reply: hi" ||
		resp.Choices[0].FinishReason != "stop" || resp.Model != "openai/fake-chat" || !strings.HasPrefix(resp.ID, "chatcmpl-") {
		t.Fatalf("reply: %+v", resp)
	}
	if resp.Usage.PromptTokens == 0 || resp.Usage.CompletionTokens == 0 || resp.Usage.TotalTokens != resp.Usage.PromptTokens+resp.Usage.CompletionTokens {
		t.Errorf("usage: %+v", resp.Usage)
	}
	reqs := e.fake.ChatRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d upstream requests", len(reqs))
	}
	r := reqs[0]
	if r.Model != "fake-chat" || len(r.Messages) != 2 || r.Messages[0].Content != "SYS" || len(r.Tools) != 1 || r.Tools[0].Function.Name != "get_weather" {
		t.Errorf("upstream got %+v", r)
	}
	body := string(r.Body)
	for _, want := range []string{`"temperature":0.3`, `"stop":["END"]`, `"max_tokens":77`} {
		if !strings.Contains(body, want) {
			t.Errorf("upstream body lacks %s: %s", want, body)
		}
	}
	e.c.FlushAPILogs()
	logs, _, err := e.c.DB.ListAPILogs(ctx, 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(logs) != 1 || logs[0].Purpose != "api" || logs[0].Model != "openai/fake-chat" {
		t.Errorf("api_logs: %+v", logs)
	}
	if sessionCount(t, e.c.DB) != 0 {
		t.Error("a passed-on request stored a session")
	}
}

// TestAToolCallComesBackToTheClient: a plain model's tool call reaches the
// client as tool_calls with finish_reason tool_calls, streamed and not.
func TestAToolCallComesBackToTheClient(t *testing.T) {
	e := newEnv(t, envOpts{})
	call := `{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Tokyo\"}"}}`
	e.fake.Enqueue(llmtest.Response{ToolCallChunks: []string{call}}, llmtest.Response{ToolCallChunks: []string{call}})
	req := openai.ChatCompletionRequest{Model: "openai/fake-chat", Messages: hi,
		Tools: []openai.Tool{{Type: "function", Function: &openai.FunctionDefinition{Name: "get_weather", Parameters: map[string]any{"type": "object"}}}}}
	resp, err := e.client.CreateChatCompletion(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	c := resp.Choices[0]
	if c.FinishReason != "tool_calls" || len(c.Message.ToolCalls) != 1 || c.Message.ToolCalls[0].Function.Arguments != `{"city":"Tokyo"}` {
		t.Errorf("non-stream: %+v", c)
	}
	st, err := e.client.CreateChatCompletionStream(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var got []openai.ToolCall
	finish := ""
	for {
		ch, err := st.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range ch.Choices {
			got = append(got, c.Delta.ToolCalls...)
			if c.FinishReason != "" {
				finish = string(c.FinishReason)
			}
		}
	}
	if finish != "tool_calls" || len(got) != 1 || got[0].ID != "call_1" || got[0].Index == nil || *got[0].Index != 0 {
		t.Errorf("stream: finish %q, calls %+v", finish, got)
	}
}

// TestAStreamSendsChunksUsageAndDone with go-openai: the deltas make the
// reply, a chunk carries finish_reason, and the usage chunk comes when
// asked for (and not otherwise).
func TestAStreamSendsChunksUsageAndDone(t *testing.T) {
	e := newEnv(t, envOpts{})
	for _, model := range []string{"openai/fake-chat", "playchat/openai/fake-chat"} {
		for _, withUsage := range []bool{true, false} {
			req := openai.ChatCompletionRequest{Model: model, Messages: hi, Stream: true}
			if withUsage {
				req.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
			}
			st, err := e.client.CreateChatCompletionStream(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			var text strings.Builder
			finish, usages := "", 0
			for {
				ch, err := st.Recv()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if ch.Object != "chat.completion.chunk" || ch.Model != model {
					t.Errorf("chunk %+v", ch)
				}
				for _, c := range ch.Choices {
					text.WriteString(c.Delta.Content)
					if c.FinishReason != "" {
						finish = string(c.FinishReason)
					}
				}
				if ch.Usage != nil {
					usages++
					if len(ch.Choices) != 0 || ch.Usage.TotalTokens == 0 {
						t.Errorf("usage chunk %+v", ch)
					}
				}
			}
			st.Close()
			if text.String() != "fake reply: hi" || finish != "stop" || usages != map[bool]int{true: 1, false: 0}[withUsage] {
				t.Errorf("%s usage=%v: text %q finish %q usage chunks %d", model, withUsage, text.String(), finish, usages)
			}
		}
	}
}

// TestTheRawSSEBytesAreOpenAIs reads the bytes of a stream: only "data: "
// events, each ended by a blank line, the first with the role, a finish
// chunk, the usage chunk, then exactly "data: [DONE]\n\n" at the end.
func TestTheRawSSEBytesAreOpenAIs(t *testing.T) {
	e := newEnv(t, envOpts{})
	resp := e.do(t, "POST", "/v1/chat/completions", `{"model":"openai/fake-chat","stream":true,"stream_options":{"include_usage":true},`+
		`"messages":[{"role":"user","content":"hi"}],"some_unknown_field":{"x":1}}`, "")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	raw := string(b)
	if !strings.HasSuffix(raw, "\n\ndata: [DONE]\n\n") {
		t.Fatalf("does not end with [DONE]: %q", raw)
	}
	events := strings.Split(strings.TrimSuffix(raw, "\n\n"), "\n\n")
	for i, ev := range events {
		if !strings.HasPrefix(ev, "data: ") || strings.Contains(ev, "\n") {
			t.Errorf("event %d is not one data line: %q", i, ev)
		}
	}
	n := len(events)
	if n < 5 {
		t.Fatalf("%d events: %q", n, raw)
	}
	if !strings.Contains(events[0], `"delta":{"role":"assistant","content":""}`) || !strings.Contains(events[0], `"finish_reason":null`) {
		t.Errorf("first event %s", events[0])
	}
	if !strings.Contains(events[n-3], `"delta":{},"logprobs":null,"finish_reason":"stop"`) {
		t.Errorf("finish event %s", events[n-3])
	}
	if !strings.Contains(events[n-2], `"choices":[],"usage":{"prompt_tokens":`) {
		t.Errorf("usage event %s", events[n-2])
	}
	if strings.Count(raw, "[DONE]") != 1 {
		t.Error("[DONE] more than once")
	}
}

// TestAnErrorAfterTheFirstTokenIsAnErrorEvent: the provider's stream breaks
// after the first token: the client gets the text so far, an error event in
// OpenAI's JSON, then [DONE]. Before the first token the error is the HTTP
// status.
func TestAnErrorAfterTheFirstTokenIsAnErrorEvent(t *testing.T) {
	e := newEnv(t, envOpts{})
	for _, model := range []string{"openai/fake-chat", "playchat/openai/fake-chat"} {
		e.fake.Enqueue(llmtest.Response{Chunks: []string{"hel", "lo"}, CutAfter: 2})
		resp := e.do(t, "POST", "/v1/chat/completions", `{"model":"`+model+`","stream":true,"messages":[{"role":"user","content":"hi"}]}`, "")
		b, _ := io.ReadAll(resp.Body)
		raw := string(b)
		if resp.StatusCode != 200 || !strings.Contains(raw, `"content":"hel"`) ||
			!strings.HasSuffix(raw, "data: {\"error\":{\"message\":") && !strings.Contains(raw, "\n\ndata: {\"error\":{\"message\":") ||
			!strings.HasSuffix(raw, "\n\ndata: [DONE]\n\n") || strings.Contains(raw, `"finish_reason":"stop"`) {
			t.Errorf("%s: %d %q", model, resp.StatusCode, raw)
		}
		// go-openai sees the error event as an error.
		e.fake.Enqueue(llmtest.Response{Chunks: []string{"hel", "lo"}, CutAfter: 2})
		st, err := e.client.CreateChatCompletionStream(context.Background(), openai.ChatCompletionRequest{Model: model, Messages: hi, Stream: true})
		if err != nil {
			t.Fatal(err)
		}
		var serr error
		for serr == nil {
			_, serr = st.Recv()
		}
		st.Close()
		if errors.Is(serr, io.EOF) {
			t.Errorf("%s: go-openai saw a clean end", model)
		}

		// Before the first token: the provider's 500 (after its retries) is a 502.
		for range 4 {
			e.fake.Enqueue(llmtest.Response{Status: 500})
		}
		resp = e.do(t, "POST", "/v1/chat/completions", `{"model":"`+model+`","stream":true,"messages":[{"role":"user","content":"hi"}]}`, "")
		wantOpenAIError(t, resp, http.StatusBadGateway, "")
		e.fake.Reset()
	}
}
