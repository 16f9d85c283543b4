package llm_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/llm"
	"playchat/backend/llm/llmtest"
)

// countingTransport fails and counts every request: a test using it proves
// that nothing left the process.
type countingTransport struct{ n atomic.Int64 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return nil, errors.New("no request may be sent (to " + r.URL.Host + ")")
}

// issue 8: OPENAI_BASE_URL=localhost:41813 used to fall back to
// api.openai.com, sending the prompt and the key there. An invalid base URL
// is refused, for every provider, and nothing is sent anywhere.
func TestInvalidBaseURLIsRefusedAndNothingIsSent(t *testing.T) {
	for _, tt := range []struct {
		model, key string
		p          llm.Providers
	}{
		{"openai/gpt-4o-mini", "OPENAI_BASE_URL", llm.Providers{OpenAIKey: testKey, OpenAIBaseURL: "localhost:41813"}},
		{"openai/gpt-4o-mini", "OPENAI_BASE_URL", llm.Providers{OpenAIBaseURL: "ftp://example.test/v1"}},
		{"anthropic/claude", "ANTHROPIC_BASE_URL", llm.Providers{AnthropicKey: testKey, AnthropicBaseURL: "api.anthropic.com/v1"}},
		{"ollama/llama3", "OLLAMA_API_BASE", llm.Providers{OllamaBase: "localhost:11434"}},
		{"lm_studio/qwen", "LM_STUDIO_API_BASE", llm.Providers{LMStudioBase: "http://"}},
	} {
		tr := &countingTransport{}
		c := llm.New(tt.p, llm.WithHTTPClient(&http.Client{Transport: tr}), llm.WithRetry(1, 0))
		_, err := c.Stream(context.Background(), llm.Request{Model: tt.model,
			Messages: []llm.Message{{Role: "user", Content: "secret prompt"}}}, func(string) {})
		if !errors.Is(err, llm.ErrInvalidBaseURL) {
			t.Errorf("%s: Stream error %v, want ErrInvalidBaseURL", tt.model, err)
		}
		if err != nil && (!strings.Contains(err.Error(), tt.key) || strings.Contains(err.Error(), testKey)) {
			t.Errorf("%s: error %q should name %s and never the key", tt.model, err, tt.key)
		}
		if apperr.CodeOf(err) != apperr.ConfigInvalidValue {
			t.Errorf("%s: code %q, want %q", tt.model, apperr.CodeOf(err), apperr.ConfigInvalidValue)
		}
		if _, err := c.Embed(context.Background(), tt.model, []string{"x"}); !errors.Is(err, llm.ErrInvalidBaseURL) {
			t.Errorf("%s: Embed error %v, want ErrInvalidBaseURL", tt.model, err)
		}
		if n := tr.n.Load(); n != 0 {
			t.Errorf("%s: %d requests were sent with an invalid base URL", tt.model, n)
		}
	}
}

// A wrong path under a custom base URL answers 404 to everything; the error
// says the base URL looks wrong. A 404 about the model (Ollama's "model not
// found") keeps its own words.
func TestNotFoundFromACustomBaseURLHintsAtTheBaseURL(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := llm.New(llm.Providers{OpenAIBaseURL: srv.URL + "/wrong"}, llm.WithRetry(1, 0))
	_, err := c.Stream(context.Background(), userRequest("hi"), func(string) {})
	var ae *llm.APIError
	if !errors.As(err, &ae) || ae.StatusCode != 404 {
		t.Fatalf("error %v, want a 404 APIError", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "base URL "+srv.URL+"/wrong") || !strings.Contains(msg, "OPENAI_BASE_URL") || !strings.Contains(msg, "looks wrong") {
		t.Errorf("404 error %q does not point at the base URL", msg)
	}
	// The window words it by its own code, with the base URL and its key.
	info := apperr.InfoOf(err)
	if info.Code != apperr.LLMWrongBaseURL || info.Params["baseURL"] != srv.URL+"/wrong" || info.Params["key"] != "OPENAI_BASE_URL" {
		t.Errorf("404 error info %+v, want code %s with the base URL and its key", info, apperr.LLMWrongBaseURL)
	}
	if d, _ := info.Params["detail"].(string); strings.Contains(d, "looks wrong") {
		t.Errorf("detail %q repeats the hint", d)
	}

	srv.Enqueue(llmtest.Response{Status: 404, ErrorBody: `{"error":"model 'nope' not found"}`})
	c = llm.New(llm.Providers{OpenAIBaseURL: srv.URL}, llm.WithRetry(1, 0))
	_, err = c.Stream(context.Background(), userRequest("hi"), func(string) {})
	if err == nil || strings.Contains(err.Error(), "looks wrong") {
		t.Errorf("a model-not-found 404 got the base URL hint: %v", err)
	}
}
