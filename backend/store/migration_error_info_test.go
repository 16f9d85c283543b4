package store

import (
	"context"
	"path/filepath"
	"testing"
)

func TestErrorInfoMigrationKeepsOldRepliesAndStoresNewOnes(t *testing.T) {
	ctx := context.Background()
	old, path := openAt(t, MigrationNoteVersion)
	for _, q := range []string{
		`INSERT INTO sessions (id, title) VALUES ('s', 't')`,
		`INSERT INTO messages (session_id, role, content, status, error) VALUES ('s', 'assistant', '', 'error', 'provider returned 500: boom')`,
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
	ms, err := db.SessionMessages(ctx, "s")
	if err != nil || len(ms) != 1 || ms[0].Error != "provider returned 500: boom" || ms[0].ErrorInfo != "" {
		t.Fatalf("old reply after migration = %+v, %v", ms, err)
	}
	const info = `{"code":"llm.providerStatus","params":{"detail":"boom","status":500},"message":"provider returned 500: boom"}`
	m := Message{SessionID: "s", Role: RoleAssistant, Status: StatusError, Error: "provider returned 500: boom", ErrorInfo: info}
	if err := db.InsertMessage(ctx, &m); err != nil {
		t.Fatal(err)
	}
	ms, _ = db.SessionMessages(ctx, "s")
	if len(ms) != 2 || ms[1].ErrorInfo != info {
		t.Fatalf("new reply = %+v", ms)
	}
}

// openAt returns a new database file in t.TempDir() migrated up to and
// including step (a migration name), and its path.
func openAt(t *testing.T, step string) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), FileName)
	db, err := OpenUnmigrated(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.MigrateTo(context.Background(), step); err != nil {
		t.Fatal(err)
	}
	return db, path
}
