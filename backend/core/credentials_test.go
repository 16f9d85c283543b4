package core

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"playchat/backend/chat"
	"playchat/backend/event"
	"playchat/backend/llm"
	"playchat/backend/llm/llmtest"
	"playchat/backend/session"
)

// Issue 21: http://user:pw@host/v1 was printed in the error text and stored
// in messages.error, error_info and api_logs, and exports carried it. A
// credential in a URL is a secret like a key: masked wherever it is shown,
// stored, exported or logged.
func TestAPasswordInTheBaseURLIsMaskedEverywhere(t *testing.T) {
	const password = "s3cretPW42"
	srv := llmtest.NewServer(t)
	dir := t.TempDir()
	var level slog.LevelVar
	level.Set(slog.LevelDebug)
	logger, closeLog, err := OpenLogFile(dir, &level)
	if err != nil {
		t.Fatal(err)
	}
	defer closeLog()
	for _, base := range []string{
		strings.Replace(srv.URL, "http://", "http://alice:"+password+"@", 1) + "/nope", // 404: "the base URL … looks wrong"
		"http://alice:" + password + "@127.0.0.1:9/v1",                                 // unreachable
	} {
		c, err := Open(context.Background(), Options{DataDir: dir, Logger: logger,
			Environ:    []string{"OPENAI_BASE_URL=" + base, "DEFAULT_MODEL=openai/fake-model"},
			LLMOptions: []llm.Option{llm.WithSleep(func(context.Context, time.Duration) error { return nil })}})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		var events []string
		tr, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "hello"}, event.EmitterFunc(func(e event.Event) {
			if e.Type == event.Error {
				events = append(events, (e.Value.(interface{ Error() string })).Error())
			}
		}))
		if err != nil {
			t.Fatal(err)
		}
		res := tr.Wait()
		if res.Err == nil {
			t.Fatalf("%s: the turn did not fail", base)
		}
		c.FlushAPILogs()
		var stored []string
		rows, err := c.DB.Bun().QueryContext(ctx, `SELECT error || ' ' || error_info FROM messages
			UNION ALL SELECT request_json || ' ' || coalesce(response_text, '') || ' ' || coalesce(error, '') FROM api_logs`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			_ = rows.Scan(&s)
			stored = append(stored, s)
		}
		rows.Close()
		doc, err := session.ExportJSON(ctx, c.DB, tr.SessionID)
		if err != nil {
			t.Fatal(err)
		}
		for what, text := range map[string]string{
			"the turn's error": res.Reply.Error, "the error event": strings.Join(events, " "),
			"the stored rows": strings.Join(stored, "\n"), "the export": string(doc),
			"the config's redaction": c.Config().Redact("pw=" + password),
		} {
			if strings.Contains(text, password) {
				t.Errorf("%s: %s carries the password: %s", base, what, text)
			}
		}
		if !strings.Contains(res.Reply.Error, "alice:***@") && !strings.Contains(res.Reply.Error, "127.0.0.1:9") {
			t.Errorf("%s: the error no longer names the server: %q", base, res.Reply.Error)
		}
		c.Close()
	}
	log, err := os.ReadFile(filepath.Join(LogDir(dir), LogFileName))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(log), password) {
		t.Errorf("the log carries the password:\n%s", log)
	}
}
