package llm

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"2", 2 * time.Second},
		{" 1.5 ", 1500 * time.Millisecond},
		{"120", 30 * time.Second},
		{"-3", 0},
		{now.Add(7 * time.Second).Format(http.TimeFormat), 7 * time.Second},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0},
		{now.Add(time.Hour).Format(http.TimeFormat), 30 * time.Second},
		{"soon", 0},
	}
	for _, tt := range tests {
		if got := parseRetryAfter(tt.in, now); got != tt.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestScrubRemovesKeys(t *testing.T) {
	tests := []struct {
		in, key, want string
	}{
		{`{"content":"my key is sk-test-SECRET ok"}`, "", `{"content":"my key is sk-[redacted] ok"}`},
		{"Authorization: Bearer abc.def-123", "", "Authorization: Bearer [redacted]"},
		{"token ollama-KEY-42 here", "ollama-KEY-42", "token [redacted] here"},
		{"a task-force and risk-free plan", "", "a task-force and risk-free plan"},
		{"sk-ant-api03-xyz", "", "sk-[redacted]"},
		{`{"a":"BEARER x1","b":"sk-abc1"}<bearer  y2>'beArer z3'`, "", `{"a":"BEARER [redacted]","b":"sk-[redacted]"}<bearer  [redacted]>'beArer [redacted]'`},
		{`"Bearer"`, "", `"Bearer"`},
	}
	for _, tt := range tests {
		if got := scrub(tt.in, tt.key); got != tt.want {
			t.Errorf("scrub(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// The JSON of a request of thousands of messages: a key in the last
	// one is found as in a short text.
	big := strings.Repeat(`{"role":"user","content":"日本語と English の文。 task-force"},`, 3000) + `{"content":"Bearer abc sk-xyz9"}`
	if got, want := scrub(big, ""), strings.TrimSuffix(big, `{"content":"Bearer abc sk-xyz9"}`)+`{"content":"Bearer [redacted] sk-[redacted]"}`; got != want {
		t.Errorf("scrub of a long request: ends %q", got[len(got)-60:])
	}
}

func TestAPIErrorMessageAndToolsUnsupported(t *testing.T) {
	tests := []struct {
		err       *APIError
		wantMsg   string
		wantTools bool
	}{
		{&APIError{StatusCode: 500, Message: "boom"}, "provider returned 500: boom", false},
		{&APIError{StatusCode: 503}, "provider returned 503: Service Unavailable", false},
		{&APIError{Message: "overloaded"}, "provider error: overloaded", false},
		{&APIError{StatusCode: 400, Message: "registry.ollama.ai/library/gemma:2b does not support tools"}, "", true},
		{&APIError{StatusCode: 400, Message: "tools is not supported in this model"}, "", true},
		{&APIError{StatusCode: 400, Message: "Function calling is not enabled for this model."}, "", true},
		{&APIError{StatusCode: 400, Message: "No endpoints found that support tool use."}, "", false},
		{&APIError{StatusCode: 500, Message: "tools are not supported"}, "", false},
		{&APIError{StatusCode: 400, Message: "messages: too long"}, "", false},
	}
	for _, tt := range tests {
		if tt.wantMsg != "" && tt.err.Error() != tt.wantMsg {
			t.Errorf("Error() = %q, want %q", tt.err.Error(), tt.wantMsg)
		}
		if got := errors.Is(tt.err, ErrToolsUnsupported); got != tt.wantTools {
			t.Errorf("%q: errors.Is(ErrToolsUnsupported) = %v, want %v", tt.err.Message, got, tt.wantTools)
		}
	}
}

func TestBodyMessage(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"error":"model \"x\" not found"}`, `model "x" not found`},
		{`{"detail":"Not Found"}`, "Not Found"},
		{"  plain text  ", "plain text"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := bodyMessage([]byte(tt.in)); got != tt.want {
			t.Errorf("bodyMessage(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestClipKeepsRunes(t *testing.T) {
	s := strings.Repeat("天", 200) // 600 bytes
	got := clip(s, 301)
	if !strings.HasSuffix(got, "…") || len(got) > 301+len("…") {
		t.Fatalf("clip gave %d bytes", len(got))
	}
	if strings.ContainsRune(strings.TrimSuffix(got, "…"), '\uFFFD') {
		t.Error("clip split a rune")
	}
}
