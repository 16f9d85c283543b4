package store

import (
	"context"
	"testing"
)

// A conversation is one branch until a sibling is inserted: the trigger then
// marks the session forked, and reads follow the selected branch from then
// on (before, the fast path reads all of the session's messages).
func TestSessionIsMarkedForkedByItsFirstSibling(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s, _ := db.CreateSession(ctx, "", "")
	var ids []int64
	for _, text := range []string{"q1", "a1", "q2", "a2"} {
		m := Message{SessionID: s.ID, Role: RoleUser, Content: text}
		if err := db.InsertMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	forked, err := db.sessionForked(ctx, s.ID)
	if err != nil || forked {
		t.Fatalf("a straight conversation counts as forked (%v, %v)", forked, err)
	}
	if ms, _ := db.ActiveMessages(ctx, s.ID); len(ms) != 4 {
		t.Fatalf("active messages of the straight conversation = %d, want 4", len(ms))
	}
	// A regenerate first selects the question it answers again: the branch
	// then ends there, although nothing has forked yet.
	if err := db.SelectMessage(ctx, s.ID, ids[2]); err != nil {
		t.Fatal(err)
	}
	if ms, _ := db.ActiveMessages(ctx, s.ID); len(ms) != 3 {
		t.Fatalf("active messages with q2 selected = %d, want 3 (a2 left out)", len(ms))
	}
	if err := db.SelectMessage(ctx, s.ID, ids[3]); err != nil {
		t.Fatal(err)
	}
	// Edit and resend q2: a sibling of q2 under a1.
	edit := Message{SessionID: s.ID, Role: RoleUser, Content: "q2 edited"}
	if err := db.InsertBranch(ctx, &edit, &ids[1]); err != nil {
		t.Fatal(err)
	}
	if forked, _ = db.sessionForked(ctx, s.ID); !forked {
		t.Fatal("the first sibling did not mark the session forked")
	}
	ms, _ := db.ActiveMessages(ctx, s.ID)
	if got := treeContents(ms); len(got) != 3 || got[2] != "q2 edited" {
		t.Fatalf("active messages after the edit = %v, want q1 a1 \"q2 edited\"", got)
	}
	if n, _ := db.CountActiveMessages(ctx, s.ID); n != 3 {
		t.Fatalf("CountActiveMessages after the edit = %d, want 3", n)
	}
	// Another session stays unforked.
	other, _ := db.CreateSession(ctx, "", "")
	m := Message{SessionID: other.ID, Role: RoleUser, Content: "solo"}
	if err := db.InsertMessage(ctx, &m); err != nil {
		t.Fatal(err)
	}
	if forked, _ = db.sessionForked(ctx, other.ID); forked {
		t.Fatal("a first message in another session marked it forked")
	}
}

// The migration marks the sessions that already branch (two first messages,
// or two replies to one message) and no others.
func TestMigrationSessionForkedMarksSessionsThatBranch(t *testing.T) {
	ctx := context.Background()
	db, _ := openAt(t, MigrationKnowledge)
	defer db.Close()
	for _, q := range []string{
		`INSERT INTO sessions (id, title) VALUES ('straight', 't'), ('fork', 't'), ('roots', 't')`,
		`INSERT INTO messages (id, session_id, role, content, parent_id) VALUES
			(1, 'straight', 'user', 'a', NULL), (2, 'straight', 'assistant', 'b', 1),
			(3, 'fork', 'user', 'a', NULL), (4, 'fork', 'assistant', 'b', 3), (5, 'fork', 'assistant', 'b2', 3),
			(6, 'roots', 'user', 'a', NULL), (7, 'roots', 'user', 'a2', NULL)`,
	} {
		if _, err := db.Bun().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]bool{"straight": false, "fork": true, "roots": true} {
		if got, err := db.sessionForked(ctx, id); err != nil || got != want {
			t.Errorf("session %s forked = %v (%v), want %v", id, got, err, want)
		}
	}
}
