package knowledge_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"playchat/backend/layer"
	"playchat/backend/llm/llmtest"
)

func addEntries(t *testing.T, c interface {
	Exec(q string, args ...any) error
}, n int, heading func(i int) string) {
	t.Helper()
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := 1; i <= n; i++ {
		at := base.Add(time.Duration(i) * time.Hour)
		if err := c.Exec(`INSERT INTO knowledge_entries (query, summary, heading, norm_query, fetched_at, updated_at, created_at)
			VALUES (?, '## Key points\n\n- x\n', ?, ?, ?, ?, ?)`, fmt.Sprintf("q%d", i), heading(i), fmt.Sprintf("q%d", i), at, at, at); err != nil {
			t.Fatal(err)
		}
	}
}

type execer struct{ exec func(string, ...any) error }

func (e execer) Exec(q string, args ...any) error { return e.exec(q, args...) }

// Layer 1 lists the newest KNOWLEDGE_CONTEXT_LIMIT headings with their ids
// and dates, newest first, and nothing when there are none or the limit is 0.
func TestLayerOneListsTheNewestHeadingsWithIDs(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	l := c.Knowledge.Layer()
	if bs, err := l.Build(ctx, layer.Query{}); err != nil || len(bs) != 0 {
		t.Fatalf("no entries: %+v, %v", bs, err)
	}
	ex := execer{func(q string, args ...any) error { _, err := c.DB.Bun().ExecContext(ctx, q, args...); return err }}
	addEntries(t, ex, 20, func(i int) string { return fmt.Sprintf("見出し %d", i) })
	bs, err := l.Build(ctx, layer.Query{})
	if err != nil || len(bs) != 1 || !bs[0].Truncatable || bs[0].Layer != "knowledge" {
		t.Fatalf("blocks = %+v, %v", bs, err)
	}
	lines := strings.Split(bs[0].Text, "\n")[1:]
	if len(lines) != 15 || lines[0] != "- [20] 見出し 20 (2026-11-01)" || lines[14] != "- [6] 見出し 6 (2026-11-01)" {
		t.Errorf("lines = %q", lines)
	}
	if err := c.SaveSettings(ctx, map[string]string{"KNOWLEDGE_CONTEXT_LIMIT": "0"}, nil); err != nil {
		t.Fatal(err)
	}
	if bs, _ := l.Build(ctx, layer.Query{}); len(bs) != 0 {
		t.Error("limit 0 still lists headings")
	}
}

// In a small context window layer 1 is cut to its share of the token
// budget at a line: the newest headings stay, the oldest go, and a marker
// says so; the turn still runs.
func TestLayerOneStaysInsideTheTokenBudget(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.NewServer(t)
	c := newCore(t, srv, "CONTEXT_WINDOW_TOKENS=2000", "MAX_OUTPUT_TOKENS=200")
	ex := execer{func(q string, args ...any) error { _, err := c.DB.Bun().ExecContext(ctx, q, args...); return err }}
	addEntries(t, ex, 15, func(i int) string { return fmt.Sprintf("[%02d] ", i) + strings.Repeat("長い見出しの本文", 14) })
	srv.Enqueue(llmtest.Text("はい", 1))
	if res, _ := turn(t, c, "こんにちは"); res.Err != nil {
		t.Fatal(res.Err)
	}
	layer1 := ""
	for _, m := range srv.ChatRequests()[0].Messages {
		if m.Role == "system" && strings.HasPrefix(m.Content, "Learned knowledge") {
			layer1 = m.Content
		}
	}
	if !strings.Contains(layer1, "- [15] [15] ") || strings.Contains(layer1, "- [1] [01] ") ||
		!strings.HasSuffix(layer1, "older learned knowledge left out to fit the context window)") {
		t.Errorf("layer 1 in a small window = %q", layer1)
	}
}
