package llm_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"playchat/backend/llm/llmtest"
)

// Issue 8, fault 6: the usage a provider sends (in a streamed reply's
// usage-only final chunk, or in a completion's body) reaches the API log,
// not only the reply.
func TestTheAPILogCarriesTheUsageTheProviderReported(t *testing.T) {
	tests := []struct {
		name     string
		complete bool
		resp     llmtest.Response
	}{
		{"stream with a usage-only final chunk", false, llmtest.Response{Chunks: []string{"he", "llo"}, UsageOnlyFinal: true, PromptTokens: 123, CompletionTokens: 45}},
		{"stream with choices null in the usage chunk", false, llmtest.Response{Chunks: []string{"hello"}, UsageOnlyFinal: true, UsageChoicesNull: true, PromptTokens: 123, CompletionTokens: 45}},
		{"complete", true, llmtest.Response{Chunks: []string{"hello"}, PromptTokens: 123, CompletionTokens: 45}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.srv.Enqueue(tt.resp)
			var err error
			if tt.complete {
				_, err = h.client.Complete(context.Background(), userRequest("hi"))
			} else {
				_, _, err = h.stream(t, context.Background(), userRequest("hi"))
			}
			if err != nil {
				t.Fatal(err)
			}
			logs := h.sink.all()
			if len(logs) != 1 || logs[0].PromptTokens != 123 || logs[0].CompletionTokens != 45 {
				t.Fatalf("logs = %+v, want prompt 123 / completion 45", logs)
			}
		})
	}
}

func TestTheLoggedRequestShowsAmpersandsAndAnglesAsSent(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(llmtest.Text("ok", 1))
	if _, err := h.client.Complete(context.Background(), userRequest("Q&A <b>tags</b> & more")); err != nil {
		t.Fatal(err)
	}
	j := h.sink.all()[0].RequestJSON
	if !strings.Contains(j, "Q&A <b>tags</b> & more") || strings.Contains(j, `\u0026`) || strings.Contains(j, `\u003c`) {
		t.Fatalf("request_json = %s", j)
	}
	if strings.HasSuffix(j, "\n") {
		t.Fatal("request_json ends with a newline")
	}
}

func TestAnEscapedBackslashBeforeU0026StaysAsItWas(t *testing.T) {
	h := newHarness(t)
	h.srv.Enqueue(llmtest.Text("ok", 1))
	if _, err := h.client.Complete(context.Background(), userRequest(`literal \u0026 and &`)); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Messages []struct{ Content string } `json:"messages"`
	}
	j := h.sink.all()[0].RequestJSON
	if err := json.Unmarshal([]byte(j), &body); err != nil || body.Messages[1].Content != `literal \u0026 and &` {
		t.Fatalf("request_json = %s (%v)", j, err)
	}
}
