package store

import (
	"context"
	"errors"
	"strings"
	"testing"

	sqlite "modernc.org/sqlite"

	"playchat/backend/apperr"
)

// Issue 22: "database or disk is full (13)" reached the Japanese window in
// English with an empty code. A full disk (SQLite's max_page_count makes
// the file "full" at its current size) and a file that cannot be written
// (query_only) come back coded, with the database named, nothing of the
// refused write stored — and once there is room again, writes go on (a full
// disk is not damage).
func TestStorageFailuresComeBackCoded(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s, err := db.CreateSession(ctx, "t", "openai/m")
	if err != nil {
		t.Fatal(err)
	}
	// One connection, so the pragmas below hold for every statement.
	db.Bun().DB.SetMaxOpenConns(1)
	var pages int
	if err := db.Bun().QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Bun().ExecContext(ctx, "PRAGMA max_page_count = ?", pages); err != nil {
		t.Fatal(err)
	}
	big := Message{SessionID: s.ID, Role: RoleUser, Content: strings.Repeat("満杯のディスク ", 40_000)}
	err = db.InsertMessage(ctx, &big)
	if apperr.CodeOf(err) != apperr.StoreDiskFull {
		t.Fatalf("a write to a full disk: code %q, err %v", apperr.CodeOf(err), err)
	}
	in := apperr.InfoOf(err)
	if in.Params["path"] != db.Path() || in.Params["detail"] == "" {
		t.Errorf("params %v: want the database's path and SQLite's words", in.Params)
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		t.Error("the SQLite error is no longer wrapped")
	}
	if ms, _ := db.BranchMessages(ctx, s.ID); len(ms) != 0 {
		t.Errorf("the refused write stored %d messages", len(ms))
	}
	if db.Damage() != nil {
		t.Fatal("a full disk was taken for damage")
	}
	if _, err := db.Bun().ExecContext(ctx, "PRAGMA max_page_count = 1073741823"); err != nil {
		t.Fatal(err)
	}
	if err := db.InsertMessage(ctx, &big); err != nil {
		t.Fatalf("with room again: %v", err)
	}

	if _, err := db.Bun().ExecContext(ctx, "PRAGMA query_only = 1"); err != nil {
		t.Fatal(err)
	}
	m := Message{SessionID: s.ID, Role: RoleUser, Content: "read-only"}
	if err := db.InsertMessage(ctx, &m); apperr.CodeOf(err) != apperr.StoreReadOnly {
		t.Fatalf("a write to a read-only database: code %q, err %v", apperr.CodeOf(err), err)
	}
	if _, err := db.Bun().ExecContext(ctx, "PRAGMA query_only = 0"); err != nil {
		t.Fatal(err)
	}
	// A constraint is not a storage failure: it stays SQLite's own error.
	_, err = db.Bun().ExecContext(ctx, "INSERT INTO sessions (id, title) VALUES (?, 'dup')", s.ID)
	if err == nil || apperr.CodeOf(err) != "" {
		t.Errorf("a duplicate key: code %q, err %v", apperr.CodeOf(err), err)
	}
}
