package store

import (
	"context"
	"testing"
)

// TestForkTriggerMarksASecondFirstMessageAndASiblingOnly checks the
// rewritten trigger (MigrationMessageForkTrigger) on both of its branches:
// a second message without a parent in a session, and a second child of
// one parent; a child of another parent, a first message of another
// session and a sibling in another session leave the mark alone.
func TestForkTriggerMarksASecondFirstMessageAndASiblingOnly(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	forked := func(id string) bool {
		t.Helper()
		var f bool
		if err := db.bun.QueryRowContext(ctx, `SELECT forked FROM sessions WHERE id = ?`, id).Scan(&f); err != nil {
			t.Fatal(err)
		}
		return f
	}
	insert := func(session string, parent *int64) int64 {
		t.Helper()
		res, err := db.bun.ExecContext(ctx, `INSERT INTO messages (session_id, role, content, parent_id) VALUES (?, 'user', 'x', ?)`, session, parent)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := res.LastInsertId()
		return id
	}
	for _, id := range []string{"a", "b", "c"} {
		if _, err := db.bun.ExecContext(ctx, `INSERT INTO sessions (id) VALUES (?)`, id); err != nil {
			t.Fatal(err)
		}
	}
	a1 := insert("a", nil)
	a2 := insert("a", &a1)
	insert("a", &a2)
	b1 := insert("b", nil)
	insert("b", &b1)
	if forked("a") || forked("b") {
		t.Fatal("straight conversations marked forked")
	}
	insert("a", nil) // a second first message
	if !forked("a") || forked("b") {
		t.Fatalf("after a second first message in a: a %v, b %v; want true, false", forked("a"), forked("b"))
	}
	insert("c", &b1) // a child of b1, but in another session
	if forked("b") || forked("c") {
		t.Fatal("a message of another session under the same parent marked a session forked")
	}
	insert("b", &b1) // a sibling of b's second message
	if !forked("b") {
		t.Fatal("a second child of one parent did not mark its session forked")
	}
}
