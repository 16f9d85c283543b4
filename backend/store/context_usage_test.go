package store

import (
	"context"
	"testing"
)

// Migration 11 on a database of migration 10: old replies have no report,
// new ones store and replace theirs, and deleting the session deletes them.
func TestContextReportsAreStoredPerReplyAndGoWithTheirSession(t *testing.T) {
	ctx := context.Background()
	old, path := openAt(t, MigrationMessageSearch)
	for _, q := range []string{
		`INSERT INTO sessions (id, title) VALUES ('s', 't')`,
		`INSERT INTO messages (session_id, role, content, status) VALUES ('s', 'assistant', 'old reply', 'complete')`,
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
	ms, _ := db.SessionMessages(ctx, "s")
	if _, ok, err := db.GetContextUsage(ctx, ms[0].ID); ok || err != nil {
		t.Fatalf("an old reply has a report: %v %v", ok, err)
	}

	m := Message{SessionID: "s", Role: RoleAssistant, Content: "new reply", ContextUsage: `{"used":1}`}
	if err := db.InsertMessage(ctx, &m); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := db.GetContextUsage(ctx, m.ID); !ok || err != nil || got != `{"used":1}` {
		t.Fatalf("the report was not stored with the reply: %q %v %v", got, ok, err)
	}
	if err := db.SaveContextUsage(ctx, m.ID, `{"used":2}`); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := db.GetContextUsage(ctx, m.ID); !ok || err != nil || got != `{"used":2}` {
		t.Fatalf("report = %q %v %v", got, ok, err)
	}
	if err := db.DeleteSession(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	if n, _ := db.Bun().NewSelect().Table("turn_context_usage").Count(ctx); n != 0 {
		t.Fatalf("%d reports outlived their session", n)
	}
}
