package core

import (
	"context"
	"log/slog"
	"testing"

	"playchat/backend/llm"
	"playchat/backend/llm/llmtest"
)

// Issue 8, fault 6: the token columns of api_logs stayed 0 although the
// provider sent usage in a usage-only final chunk.
func TestAPILogsStoreTheReportedTokenUsage(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Response{Chunks: []string{"ok"}, UsageOnlyFinal: true, PromptTokens: 321, CompletionTokens: 54})
	c, err := Open(context.Background(), Options{DataDir: t.TempDir(), Logger: slog.New(slog.DiscardHandler),
		Environ: []string{"OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=k"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	req := llm.Request{Model: "openai/fake", Messages: []llm.Message{{Role: "user", Content: "a & b"}}}
	if _, err := c.LLM.Stream(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	logs, _, err := c.DB.ListAPILogs(context.Background(), 10, 0)
	if err != nil || len(logs) != 1 || logs[0].PromptTokens != 321 || logs[0].CompletionTokens != 54 {
		t.Fatalf("logs = %+v, %v", logs, err)
	}
}
