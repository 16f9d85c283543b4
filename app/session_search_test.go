package app

import (
	"context"
	"testing"
	"time"

	"playchat/backend/store"
)

// The window's search returns the store's hits with RFC 3339 times and the
// excerpt as parts; a query without a word finds nothing instead of failing.
func TestSessionSearchFindsMessagesOfEverySessionWithExcerptParts(t *testing.T) {
	a, _ := newTestApp(t)
	c, _ := a.backend()
	ctx := context.Background()
	sess, err := c.DB.CreateSession(ctx, "猫", "openai/m")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	m := store.Message{SessionID: sess.ID, Role: store.RoleUser, Content: "吾輩は猫である", CreatedAt: at}
	if err := c.DB.InsertMessage(ctx, &m); err != nil {
		t.Fatal(err)
	}
	s := &SessionService{a}
	hits, err := s.Search(SearchRequest{Query: "ﾜｶﾞﾊｲ 猫"})
	if err != nil || len(hits) != 0 {
		t.Fatalf("ﾜｶﾞﾊｲ is not in the text: %+v, %v", hits, err)
	}
	hits, err = s.Search(SearchRequest{Query: "吾輩", From: "2026-11-01T00:00:00Z", To: "2026-11-02T00:00:00+09:00"})
	if err != nil || len(hits) != 1 {
		t.Fatalf("hits = %+v, %v", hits, err)
	}
	h := hits[0]
	if h.SessionID != sess.ID || h.SessionTitle != "猫" || h.MessageID != m.ID || h.CreatedAt != "2026-11-01T12:00:00Z" {
		t.Fatalf("hit = %+v", h)
	}
	if len(h.Excerpt) != 2 || h.Excerpt[0] != (ExcerptPart{Text: "吾輩", Match: true}) || h.Excerpt[1].Match {
		t.Fatalf("excerpt = %+v", h.Excerpt)
	}
	if hits, err := s.Search(SearchRequest{Query: "吾輩", To: "2026-11-01T00:00:00Z"}); err != nil || len(hits) != 0 {
		t.Fatalf("before the message: %+v, %v", hits, err)
	}
	if hits, err := s.Search(SearchRequest{Query: "、。"}); err != nil || hits == nil || len(hits) != 0 {
		t.Fatalf("punctuation only: %#v, %v", hits, err)
	}
	if _, err := s.Search(SearchRequest{Query: "吾輩", From: "yesterday"}); err == nil {
		t.Fatal("an unreadable date was accepted")
	}
}

// PrepareSearch indexes what was stored since the last search, so the
// search itself has nothing left to segment.
func TestPrepareSearchEmptiesTheIndexQueue(t *testing.T) {
	a, _ := newTestApp(t)
	c, _ := a.backend()
	ctx := context.Background()
	sess, _ := c.DB.CreateSession(ctx, "", "openai/m")
	for _, text := range []string{"一つ目", "二つ目"} {
		if err := c.DB.InsertMessage(ctx, &store.Message{SessionID: sess.ID, Role: store.RoleUser, Content: text}); err != nil {
			t.Fatal(err)
		}
	}
	queued := func() int {
		var n int
		if err := c.DB.Bun().QueryRowContext(ctx, `SELECT count(*) FROM message_search_pending`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if queued() != 2 {
		t.Fatalf("queued before = %d, want 2", queued())
	}
	if err := (&SessionService{a}).PrepareSearch(); err != nil {
		t.Fatal(err)
	}
	if queued() != 0 {
		t.Fatalf("queued after = %d", queued())
	}
}
