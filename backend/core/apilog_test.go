package core

import (
	"context"
	"fmt"
	"log/slog"
	"testing"

	"playchat/backend/chat"
	"playchat/backend/event"
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
	c.FlushAPILogs()
	logs, _, err := c.DB.ListAPILogs(context.Background(), 10, 0)
	if err != nil || len(logs) != 1 || logs[0].PromptTokens != 321 || logs[0].CompletionTokens != 54 {
		t.Fatalf("logs = %+v, %v", logs, err)
	}
}

// Issue 22: API logs say what each call was for.
func TestAPILogsRecordWhatEachCallWasFor(t *testing.T) {
	srv := llmtest.NewServer(t)
	c, err := Open(context.Background(), Options{DataDir: t.TempDir(), Logger: slog.New(slog.DiscardHandler),
		Environ: []string{"OPENAI_BASE_URL=" + srv.URL, "DEFAULT_MODEL=openai/fake"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	tr, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "こんにちは"}, event.EmitterFunc(func(event.Event) {}))
	if err != nil {
		t.Fatal(err)
	}
	tr.Wait()
	if _, err := c.LLM.Complete(ctx, llm.Request{Model: "openai/fake", Purpose: llm.PurposeSummary,
		Messages: []llm.Message{{Role: "user", Content: "x"}}}); err != nil {
		t.Fatal(err)
	}
	c.FlushAPILogs()
	logs, _, err := c.DB.ListAPILogs(ctx, 10, 0)
	if err != nil || len(logs) != 2 || logs[0].Purpose != llm.PurposeSummary || logs[1].Purpose != llm.PurposeTurn {
		t.Fatalf("logs = %+v, %v", logs, err)
	}
}

// Issue 29: the turn does not wait for its api_logs record; the records
// are written in the order they came, FlushAPILogs waits for them, and
// Close keeps the ones still queued.
func TestAPILogsAreWrittenInOrderInTheBackgroundAndKeptAtClose(t *testing.T) {
	dir := t.TempDir()
	open := func() *Core {
		c, err := Open(context.Background(), Options{DataDir: dir, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := open()
	ctx := context.Background()
	const n = 3 * apiLogQueueMax // more than the queue holds: callers wait, none is lost
	for i := range n {
		if err := c.apiLogs.RecordAPILog(ctx, llm.APILog{Model: fmt.Sprintf("m%04d", i), Purpose: llm.PurposeTurn}); err != nil {
			t.Fatal(err)
		}
	}
	c.FlushAPILogs()
	if _, total, err := c.DB.ListAPILogs(ctx, 1, 0); err != nil || total != n {
		t.Fatalf("after FlushAPILogs: %d records, %v; want %d", total, err, n)
	}
	for i := range 5 {
		if err := c.apiLogs.RecordAPILog(ctx, llm.APILog{Model: fmt.Sprintf("late%d", i), Purpose: llm.PurposeTurn}); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c = open()
	defer c.Close()
	logs, total, err := c.DB.ListAPILogs(ctx, 500, 0)
	if err != nil || total != n+5 {
		t.Fatalf("after Close and a new start: %d records, %v; want %d", total, err, n+5)
	}
	// Newest first: the last queued is on top, the queue's order kept.
	for i, want := range []string{"late4", "late3", "late2", "late1", "late0", fmt.Sprintf("m%04d", n-1)} {
		if logs[i].Model != want {
			t.Fatalf("record %d is %q, want %q", i, logs[i].Model, want)
		}
	}
}
