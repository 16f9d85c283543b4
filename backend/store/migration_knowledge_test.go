package store

import (
	"context"
	"testing"
)

// An original knowledge entry survives migration 13: its query becomes its
// heading and (lower-cased) its normalised query, its fetch time is its
// creation time, and its sources stay attached.
func TestKnowledgeMigrationKeepsOriginalEntries(t *testing.T) {
	ctx := context.Background()
	old, path := openAt(t, MigrationReminders)
	for _, q := range []string{
		`INSERT INTO knowledge_entries (id, query, summary, created_at) VALUES (7, ' Tokyo Weather ', '晴れ', '2026-11-01 09:00:00')`,
		`INSERT INTO knowledge_sources (entry_id, title, url) VALUES (7, 'tenki', 'https://tenki.jp/')`,
	} {
		if _, err := old.Bun().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	old.Close()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("migrate: %v", err)
	}
	defer db.Close()
	var row struct {
		Heading   string `bun:"heading"`
		NormQuery string `bun:"norm_query"`
		Fetched   string `bun:"fetched"`
		Sources   int    `bun:"sources"`
	}
	err = db.Bun().NewRaw(`SELECT heading, norm_query, CAST(fetched_at AS TEXT) AS fetched,
		(SELECT COUNT(*) FROM knowledge_sources WHERE entry_id = 7) AS sources FROM knowledge_entries WHERE id = 7`).Scan(ctx, &row)
	if err != nil {
		t.Fatal(err)
	}
	if row.Heading != "Tokyo Weather" || row.NormQuery != "tokyo weather" || row.Fetched != "2026-11-01 09:00:00" || row.Sources != 1 {
		t.Errorf("migrated entry = %+v", row)
	}
}
