package app

import (
	"context"
	"testing"

	"playchat/backend/apperr"
)

// The Learned knowledge panel's methods: list (with search), one entry with
// its sources, delete; refresh without a provider is a coded error and
// changes nothing.
func TestKnowledgeServiceListsGetsRefreshesAndDeletes(t *testing.T) {
	a, _ := newTestApp(t)
	c, _ := a.backend()
	ctx := context.Background()
	for _, q := range []string{
		`INSERT INTO knowledge_entries (id, query, summary, heading, norm_query, model, fetched_at, updated_at, created_at)
			VALUES (1, '東京 天気', '## Key points' || char(10) || '- 晴れ [1]', '東京の天気', '東京 天気', 'openai/m', '2026-11-30 10:00:00', '2026-11-30 10:00:00', '2026-11-30 10:00:00')`,
		`INSERT INTO knowledge_entries (id, query, summary, heading, norm_query, fetched_at, updated_at, created_at)
			VALUES (2, 'go generics', '## Key points' || char(10) || '- since 1.18 [1]', 'Go generics', 'go generics', '2026-11-30 11:00:00', '2026-11-30 11:00:00', '2026-11-30 11:00:00')`,
		`INSERT INTO knowledge_sources (entry_id, title, url, position) VALUES (1, 'tenki.jp', 'https://tenki.jp/', 0)`,
	} {
		if _, err := c.DB.Bun().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	s := &KnowledgeService{a}
	all, err := s.List("")
	if err != nil || len(all) != 2 || all[0].ID != 2 || all[1].Heading != "東京の天気" || all[1].FetchedAt != "2026-11-30T10:00:00Z" {
		t.Fatalf("list = %+v, %v", all, err)
	}
	if found, _ := s.List("晴れ"); len(found) != 1 || found[0].ID != 1 {
		t.Errorf("search 晴れ = %+v", found)
	}
	e, err := s.Get(1)
	if err != nil || len(e.Sources) != 1 || e.Sources[0].URL != "https://tenki.jp/" || e.Body != "## Key points\n- 晴れ [1]" {
		t.Fatalf("get = %+v, %v", e, err)
	}
	if _, err := s.Refresh(1); apperr.CodeOf(err) != apperr.WebSearchNotConfigured {
		t.Errorf("refresh without a provider: %v", err)
	}
	if err := s.Delete(1); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(1); apperr.CodeOf(err) != apperr.KnowledgeNotFound {
		t.Errorf("get deleted: %v", err)
	}
}
