package store

import (
	"context"
	"testing"
)

// An older database may hold a tag twice on one message (an import): the
// migration keeps one row, and from then on a tag is stored once per
// message or memory.
func TestTagsMigrationDropsDuplicatesAndKeepsOneTagPerMessage(t *testing.T) {
	ctx := context.Background()
	old, path := openAt(t, MigrationSessionForked)
	for _, stmt := range []string{
		`INSERT INTO sessions (id, title) VALUES ('s1', 't')`,
		`INSERT INTO messages (session_id, role, content) VALUES ('s1', 'user', '天気はどう')`,
		`INSERT INTO message_tags (message_id, tag) VALUES (1, '天気'), (1, '天気'), (1, '雨')`,
		`INSERT INTO memories (session_id, summary) VALUES ('s1', 'まとめ')`,
		`INSERT INTO memory_tags (memory_id, tag) VALUES (1, '要約'), (1, '要約')`,
	} {
		if _, err := old.Bun().ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	old.Close()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("migrate: %v", err)
	}
	defer db.Close()
	tags, _ := db.MessageTags(ctx, []int64{1})
	if got := tags[1]; len(got) != 2 || got[0] != "天気" || got[1] != "雨" {
		t.Fatalf("message tags after the migration = %v, want [天気 雨]", got)
	}
	mtags, _ := db.MemoryTags(ctx, []int64{1})
	if got := mtags[1]; len(got) != 1 {
		t.Fatalf("memory tags after the migration = %v, want one 要約", got)
	}
	if _, err := db.Bun().ExecContext(ctx, `INSERT INTO message_tags (message_id, tag) VALUES (1, '天気')`); err == nil {
		t.Fatal("a second 天気 on the message was stored; want the unique index to refuse it")
	}
	// AddMessageTags skips a tag the message has.
	if err := db.AddMessageTags(ctx, 1, []string{"天気", "傘"}); err != nil {
		t.Fatal(err)
	}
	tags, _ = db.MessageTags(ctx, []int64{1})
	if len(tags[1]) != 3 {
		t.Fatalf("tags after adding 天気 again and 傘 = %v, want 3", tags[1])
	}
}

// Tags go with their message or memory: deleting a session deletes its
// messages' and memories' tags, deleting a memory deletes its tags.
func TestTagsAreDeletedWithTheirMessagesAndMemories(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s, _ := db.CreateSession(ctx, "", "")
	m := Message{SessionID: s.ID, Role: RoleUser, Content: "猫の話"}
	if err := db.InsertMessage(ctx, &m); err != nil {
		t.Fatal(err)
	}
	if err := db.AddMessageTags(ctx, m.ID, []string{"猫", "ペット", "動物"}); err != nil {
		t.Fatal(err)
	}
	mem, err := db.ArchiveIntoMemory(ctx, s.ID, []int64{m.ID}, "猫について話した")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.AddMemoryTags(ctx, mem.ID, []string{"猫"}); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteMemory(ctx, mem.ID); err != nil {
		t.Fatal(err)
	}
	count := func(table string) int {
		n, err := db.Bun().NewSelect().Table(table).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count("memory_tags"); n != 0 {
		t.Fatalf("memory_tags after deleting the memory = %d rows, want 0", n)
	}
	if err := db.DeleteSession(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if n := count("message_tags"); n != 0 {
		t.Fatalf("message_tags after deleting the session = %d rows, want 0", n)
	}
}

// The tagger's backlog is the newest untagged messages with text (failed
// empty replies and system rows left out); tagged ones drop out of it.
func TestUntaggedMessagesAreNewestFirstAndSkipTaggedAndEmpty(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s, _ := db.CreateSession(ctx, "", "")
	var ids []int64
	for _, m := range []Message{
		{Role: RoleUser, Content: "一つ目"},
		{Role: RoleAssistant, Content: "", Status: StatusError},
		{Role: RoleUser, Content: "二つ目"},
		{Role: RoleAssistant, Content: "三つ目"},
	} {
		m.SessionID = s.ID
		if err := db.InsertMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	if err := db.AddMessageTags(ctx, ids[2], []string{"x"}); err != nil {
		t.Fatal(err)
	}
	ms, err := db.UntaggedMessages(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].ID != ids[3] || ms[1].ID != ids[0] {
		t.Fatalf("untagged = %v, want the 3rd reply then the 1st question", treeContents(ms))
	}
	if ms, _ := db.UntaggedMessages(ctx, 1); len(ms) != 1 || ms[0].ID != ids[3] {
		t.Fatalf("untagged with limit 1 = %v, want only the newest", treeContents(ms))
	}
}

// "#tag" in a search filters by tag: alone it lists the tagged messages,
// with text it narrows the text's hits; Latin tags match in any case, a
// full-width ＃ counts, and a last tag still being typed is a prefix.
func TestSearchByTag(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s, _ := db.CreateSession(ctx, "旅行", "")
	var ids []int64
	for _, text := range []string{"京都で紅葉を見た", "大阪で紅葉を見た", "Go の話"} {
		m := Message{SessionID: s.ID, Role: RoleUser, Content: text}
		if err := db.InsertMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	_ = db.AddMessageTags(ctx, ids[0], []string{"旅行", "京都", "紅葉"})
	_ = db.AddMessageTags(ctx, ids[1], []string{"旅行", "大阪", "紅葉"})
	_ = db.AddMessageTags(ctx, ids[2], []string{"Golang"})
	got := func(q string) []int64 {
		t.Helper()
		hits, err := db.SearchMessages(ctx, MessageSearch{Text: q})
		if err != nil {
			t.Fatalf("search %q: %v", q, err)
		}
		var out []int64
		for _, h := range hits {
			out = append(out, h.MessageID)
		}
		return out
	}
	if h := got("#旅行"); len(h) != 2 || h[0] != ids[1] || h[1] != ids[0] {
		t.Fatalf("#旅行 = %v, want both trips, newest first (%d, %d)", h, ids[1], ids[0])
	}
	if h := got("#旅行 京都"); len(h) != 1 || h[0] != ids[0] {
		t.Fatalf("#旅行 京都 = %v, want only the Kyoto message %d", h, ids[0])
	}
	if h := got("＃京都 #紅葉"); len(h) != 1 || h[0] != ids[0] {
		t.Fatalf("＃京都 #紅葉 = %v, want the Kyoto message", h)
	}
	if h := got("#golang"); len(h) != 1 || h[0] != ids[2] {
		t.Fatalf("#golang = %v, want the Go message (case-insensitive)", h)
	}
	if h := got("#京"); len(h) != 1 || h[0] != ids[0] {
		t.Fatalf("#京 while typing = %v, want the Kyoto message (prefix of 京都)", h)
	}
	if h := got("#京 "); len(h) != 0 {
		t.Fatalf("#京 followed by a space = %v, want none (no tag 京)", h)
	}
	if h := got("#旅 京都"); len(h) != 0 {
		t.Fatalf("#旅 京都 = %v, want none (only a last tag is a prefix: 旅 is no tag)", h)
	}
	if h := got("#北海道"); len(h) != 0 {
		t.Fatalf("#北海道 = %v, want no hit", h)
	}
	if hits, err := db.SearchMessages(ctx, MessageSearch{Text: "#旅行", SessionID: "other"}); err != nil || len(hits) != 0 {
		t.Fatalf("#旅行 in another session = %v, %v; want none", hits, err)
	}
	if _, err := db.SearchMessages(ctx, MessageSearch{Text: "# "}); err != ErrEmptySearch {
		t.Fatalf("a bare # = %v, want ErrEmptySearch", err)
	}
}

// The tagger's backlog leaves out a reply that is still streaming: it is
// tagged once it is finished.
func TestAStreamingReplyIsNotInTheTaggingBacklog(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	r := streamingReply(t, db, "half a reply")
	ms, err := db.UntaggedMessages(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.ID == r.ID {
			t.Fatal("a streaming reply is in the backlog")
		}
	}
	if len(ms) != 1 {
		t.Errorf("backlog %+v, want the question only", ms)
	}
}
