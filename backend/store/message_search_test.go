package store

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// searchFixture is two sessions: a Japanese one and an English one.
type searchFixture struct {
	db       *DB
	ja, en   Session
	jaMsg    Message // 吾輩は猫である…
	enMsg    Message
	oldMsg   Message // in ja, a year earlier
	widthMsg Message // written in half-width katakana
}

func newSearchFixture(t *testing.T) searchFixture {
	t.Helper()
	ctx := context.Background()
	db := openTest(t)
	f := searchFixture{db: db}
	var err error
	if f.ja, err = db.CreateSession(ctx, "猫の話", "openai/m"); err != nil {
		t.Fatal(err)
	}
	if f.en, err = db.CreateSession(ctx, "Cooking", "openai/m"); err != nil {
		t.Fatal(err)
	}
	add := func(s Session, role, content string, at time.Time) Message {
		m := Message{SessionID: s.ID, Role: role, Content: content, CreatedAt: at}
		if err := db.InsertMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	base := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	f.oldMsg = add(f.ja, RoleUser, "去年の夏目漱石の話", base.AddDate(-1, 0, 0))
	f.jaMsg = add(f.ja, RoleAssistant, "吾輩は猫である。名前はまだ無い。夏目漱石の小説です。", base)
	f.enMsg = add(f.en, RoleUser, "How do I bake sourdough bread at home?", base.Add(time.Hour))
	f.widthMsg = add(f.en, RoleAssistant, "ﾜｶﾞﾊｲ is how a cat might say it.", base.Add(2*time.Hour))
	return f
}

func hitIDs(hits []MessageHit) []int64 {
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.MessageID
	}
	return ids
}

func search(t *testing.T, db *DB, q MessageSearch) []MessageHit {
	t.Helper()
	hits, err := db.SearchMessages(context.Background(), q)
	if err != nil {
		t.Fatalf("search %q: %v", q.Text, err)
	}
	return hits
}

func TestSearchFindsAJapaneseWordInAnotherSessionWithItsSessionAndExcerpt(t *testing.T) {
	f := newSearchFixture(t)
	hits := search(t, f.db, MessageSearch{Text: "漱石"})
	if len(hits) != 2 || hits[0].MessageID != f.jaMsg.ID || hits[1].MessageID != f.oldMsg.ID {
		t.Fatalf("hits = %v, want the two 漱石 messages, newest first", hitIDs(hits))
	}
	h := hits[0]
	if h.SessionID != f.ja.ID || h.SessionTitle != "猫の話" || h.Role != RoleAssistant || !h.CreatedAt.Equal(f.jaMsg.CreatedAt) {
		t.Fatalf("hit = %+v", h)
	}
	if got := h.ExcerptText("«", "»"); !strings.Contains(got, "«漱石»") || !strings.Contains(got, "吾輩は猫") {
		t.Fatalf("excerpt = %q, want 漱石 marked in context", got)
	}
	// An inflected query word meets the dictionary form in the index.
	if hits := search(t, f.db, MessageSearch{Text: "焼いた sourdough"}); len(hits) != 0 {
		t.Fatalf("every word must match: %v", hitIDs(hits))
	}
	if hits := search(t, f.db, MessageSearch{Text: "小説を書いた"}); len(hits) != 0 {
		t.Fatalf("書く is in no message: %v", hitIDs(hits))
	}
	w := Message{SessionID: f.en.ID, Role: RoleUser, Content: "昨日、小説を書きました"}
	if err := f.db.InsertMessage(context.Background(), &w); err != nil {
		t.Fatal(err)
	}
	if hits := search(t, f.db, MessageSearch{Text: "小説を書いた"}); len(hits) != 1 || hits[0].MessageID != w.ID {
		t.Fatalf("書いた should find 書きました (both 書く): %v", hitIDs(hits))
	}
	if hits := search(t, f.db, MessageSearch{Text: "BREAD"}); len(hits) != 1 || hits[0].MessageID != f.enMsg.ID {
		t.Fatalf("case-insensitive Latin word: %v", hitIDs(hits))
	}
}

func TestSearchMatchesWidthVariantsBothWays(t *testing.T) {
	f := newSearchFixture(t)
	// Full-width query, half-width text.
	hits := search(t, f.db, MessageSearch{Text: "ワガハイ"})
	if len(hits) != 1 || hits[0].MessageID != f.widthMsg.ID {
		t.Fatalf("ワガハイ: %v, want the ﾜｶﾞﾊｲ message", hitIDs(hits))
	}
	if got := hits[0].ExcerptText("«", "»"); !strings.HasPrefix(got, "«ﾜｶﾞﾊｲ»") {
		t.Fatalf("excerpt marks the text as written: %q", got)
	}
	// Half-width query and full-width Latin.
	if hits := search(t, f.db, MessageSearch{Text: "ﾜｶﾞﾊｲ"}); len(hits) != 1 || hits[0].MessageID != f.widthMsg.ID {
		t.Fatalf("ﾜｶﾞﾊｲ: %v", hitIDs(hits))
	}
	if hits := search(t, f.db, MessageSearch{Text: "ＳＯＵＲＤＯＵＧＨ"}); len(hits) != 1 || hits[0].MessageID != f.enMsg.ID {
		t.Fatalf("full-width Latin: %v", hitIDs(hits))
	}
}

func TestSearchFiltersBySessionDateAndLimit(t *testing.T) {
	f := newSearchFixture(t)
	if hits := search(t, f.db, MessageSearch{Text: "猫", SessionID: f.en.ID}); len(hits) != 0 {
		t.Fatalf("猫 in the English session: %v (its ﾜｶﾞﾊｲ line says cat, not 猫)", hitIDs(hits))
	}
	if hits := search(t, f.db, MessageSearch{Text: "漱石", SessionID: f.ja.ID}); len(hits) != 2 {
		t.Fatalf("session filter dropped hits: %v", hitIDs(hits))
	}
	since := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if hits := search(t, f.db, MessageSearch{Text: "漱石", From: since}); len(hits) != 1 || hits[0].MessageID != f.jaMsg.ID {
		t.Fatalf("from %v: %v", since, hitIDs(hits))
	}
	if hits := search(t, f.db, MessageSearch{Text: "漱石", To: since}); len(hits) != 1 || hits[0].MessageID != f.oldMsg.ID {
		t.Fatalf("to %v: %v", since, hitIDs(hits))
	}
	if hits := search(t, f.db, MessageSearch{Text: "漱石", Limit: 1}); len(hits) != 1 || hits[0].MessageID != f.jaMsg.ID {
		t.Fatalf("limit 1: %v", hitIDs(hits))
	}
	// A Latin word still being typed matches as a prefix.
	if hits := search(t, f.db, MessageSearch{Text: "sourd"}); len(hits) != 1 {
		t.Fatalf("prefix: %v", hitIDs(hits))
	}
	if _, err := f.db.SearchMessages(context.Background(), MessageSearch{Text: " 、。!? "}); !errors.Is(err, ErrEmptySearch) {
		t.Fatalf("punctuation only: err = %v, want ErrEmptySearch", err)
	}
}

func TestSearchFollowsEditsAndDeletes(t *testing.T) {
	ctx := context.Background()
	f := newSearchFixture(t)
	search(t, f.db, MessageSearch{Text: "漱石"}) // index everything

	// A reply rewritten in place (UpdateMessageResult) is found by its new text only.
	f.enMsg.Content = "ライ麦パンの焼き方"
	if err := f.db.UpdateMessageResult(ctx, &f.enMsg); err != nil {
		t.Fatal(err)
	}
	if hits := search(t, f.db, MessageSearch{Text: "sourdough"}); len(hits) != 0 {
		t.Fatalf("old text still found: %v", hitIDs(hits))
	}
	if hits := search(t, f.db, MessageSearch{Text: "ライ麦"}); len(hits) != 1 || hits[0].MessageID != f.enMsg.ID {
		t.Fatalf("new text: %v", hitIDs(hits))
	}

	// One message deleted (the last of its session: an earlier one would
	// take its branch with it).
	if _, err := f.db.Bun().ExecContext(ctx, `DELETE FROM messages WHERE id = ?`, f.jaMsg.ID); err != nil {
		t.Fatal(err)
	}
	if hits := search(t, f.db, MessageSearch{Text: "漱石"}); len(hits) != 1 || hits[0].MessageID != f.oldMsg.ID {
		t.Fatalf("after deleting a message: %v", hitIDs(hits))
	}
	// A whole session deleted (its messages go by cascade).
	if err := f.db.DeleteSession(ctx, f.ja.ID); err != nil {
		t.Fatal(err)
	}
	if hits := search(t, f.db, MessageSearch{Text: "漱石"}); len(hits) != 0 {
		t.Fatalf("after deleting the session: %v", hitIDs(hits))
	}
	var n int
	if err := f.db.Bun().QueryRowContext(ctx, `SELECT count(*) FROM message_fts WHERE message_fts MATCH '"漱石"'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("index rows left for 漱石: %d, %v", n, err)
	}
}

func TestSearchIndexesMessagesStoredBeforeTheMigration(t *testing.T) {
	ctx := context.Background()
	old, path := openAt(t, MigrationMessageTree)
	for _, q := range []string{
		`INSERT INTO sessions (id, title) VALUES ('s1', '旧')`,
		`INSERT INTO messages (session_id, role, content) VALUES ('s1', 'user', '吾輩は猫である')`,
	} {
		if _, err := old.Bun().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	old.Close()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	hits := search(t, db, MessageSearch{Text: "吾輩"})
	if len(hits) != 1 || hits[0].SessionID != "s1" {
		t.Fatalf("old message not searchable: %+v", hits)
	}
	var pending int
	if err := db.Bun().QueryRowContext(ctx, `SELECT count(*) FROM message_search_pending`).Scan(&pending); err != nil || pending != 0 {
		t.Fatalf("queue after search: %d, %v", pending, err)
	}
}

func TestExcerptKeepsMarkupAsPlainTextParts(t *testing.T) {
	parts := excerptParts("<img src=x onerror=alert(1)> 猫 です", []string{"猫"}, ExcerptRunes)
	if len(parts) != 3 || parts[0].Text != "<img src=x onerror=alert(1)> " || parts[1] != (ExcerptPart{Text: "猫", Match: true}) {
		t.Fatalf("parts = %+v", parts)
	}
	long := strings.Repeat("あ", 300) + "猫" + strings.Repeat("い", 300)
	got := MessageHit{Excerpt: excerptParts(long, []string{"猫"}, ExcerptRunes)}.ExcerptText("[", "]")
	if !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") || !strings.Contains(got, "[猫]") {
		t.Fatalf("long excerpt = %q", got)
	}
}

// Issue 22: "newest first" put a 2023 message, imported today (so stored
// last), above today's; and a conjugated match (書く → 書いた) was found but
// not marked.
func TestSearchIsNewestFirstByWhenWrittenAndMarksInflectedForms(t *testing.T) {
	f := newSearchFixture(t)
	ctx := context.Background()
	today := Message{SessionID: f.ja.ID, Role: RoleUser, Content: "今日、手紙を書いた", CreatedAt: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
	if err := f.db.InsertMessage(ctx, &today); err != nil {
		t.Fatal(err)
	}
	imported := Message{SessionID: f.en.ID, Role: RoleUser, Content: "2023年に手紙を書きます", CreatedAt: time.Date(2023, 5, 1, 9, 0, 0, 0, time.UTC)}
	if err := f.db.InsertMessage(ctx, &imported); err != nil {
		t.Fatal(err)
	}
	hits := search(t, f.db, MessageSearch{Text: "書く"})
	if len(hits) != 2 || hits[0].MessageID != today.ID || hits[1].MessageID != imported.ID {
		t.Fatalf("hits = %v, want today's %d before the imported %d", hitIDs(hits), today.ID, imported.ID)
	}
	if got := hits[0].ExcerptText("[", "]"); got != "今日、手紙を[書いた]" {
		t.Errorf("excerpt = %q, want 書いた marked", got)
	}
	if got := hits[1].ExcerptText("[", "]"); !strings.Contains(got, "[書きます]") {
		t.Errorf("excerpt = %q, want 書きます marked", got)
	}
}
