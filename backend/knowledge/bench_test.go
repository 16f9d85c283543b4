package knowledge_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"

	"playchat/backend/core"
	"playchat/backend/layer"
	"playchat/backend/tokens"
)

// BenchmarkLayerOne1000Entries is the per-turn overhead layer 1 adds with
// 1,000 learned-knowledge entries stored: reading the newest
// KNOWLEDGE_CONTEXT_LIMIT (15) headings and building the block, plus the
// Enabled check of read_knowledge that runs with every request. It reports
// the block's size in (estimated) tokens as "layer1-tokens".
func BenchmarkLayerOne1000Entries(b *testing.B) {
	ctx := context.Background()
	c, err := core.Open(ctx, core.Options{DataDir: b.TempDir(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	for i := 1; i <= 1000; i++ {
		q := fmt.Sprintf("検索語 %d", i)
		if _, err := c.DB.Bun().ExecContext(ctx, `INSERT INTO knowledge_entries (query, summary, heading, norm_query, fetched_at, updated_at, created_at)
			VALUES (?, '## Key points\n\n- x [1]\n', ?, ?, datetime('now'), datetime('now'), datetime('now', ?))`,
			q, fmt.Sprintf("学んだこと その %d について", i), q, fmt.Sprintf("+%d seconds", i)); err != nil {
			b.Fatal(err)
		}
	}
	l := c.Knowledge.Layer()
	var text string
	b.ResetTimer()
	for b.Loop() {
		if !c.Knowledge.Any(ctx) {
			b.Fatal("no entries")
		}
		bs, err := l.Build(ctx, layer.Query{})
		if err != nil || len(bs) != 1 {
			b.Fatal(bs, err)
		}
		text = bs[0].Text
	}
	b.StopTimer()
	b.ReportMetric(float64(tokens.ForModel("openai/gpt-4o-mini").Count(text)), "layer1-tokens")
}
