package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// fillAndClose writes a database with some messages at a new path and
// closes it; it returns the path.
func fillAndClose(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := db.CreateSession(ctx, "t", "openai/m")
	if err != nil {
		t.Fatal(err)
	}
	for range 200 {
		m := Message{SessionID: s.ID, Role: RoleUser, Content: string(make([]byte, 2000))}
		if err := db.InsertMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// A database closed cleanly by its last user is known to be sound until
// its file changes — even by bytes that keep its size and time.
func TestTheCleanMarkerHoldsUntilTheFileChanges(t *testing.T) {
	path := fillAndClose(t)
	if !knownClean(path) {
		t.Fatal("a cleanly closed database is not known clean")
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("garbage"), st.Size()/2); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(path, st.ModTime(), st.ModTime()); err != nil { // same size, same time
		t.Fatal(err)
	}
	if knownClean(path) {
		t.Fatal("a changed file is still known clean")
	}
}

// Only the last connection's close marks the file: while another process
// has it open, the file may change under the marker.
func TestOnlyTheLastCloseMarksTheFileClean(t *testing.T) {
	ctx := context.Background()
	path := fillAndClose(t)
	a, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if !anotherOwnerAlive(path) {
		t.Error("two open DBs, but no other owner is seen")
	}
	if _, err := a.CreateSession(ctx, "while both are open", "openai/m"); err != nil {
		t.Fatal(err)
	}
	a.Close()
	if knownClean(path) {
		t.Error("marked clean while another DB still has it open")
	}
	b.Close()
	if !knownClean(path) {
		t.Error("the last close did not mark it clean")
	}
	if anotherOwnerAlive(path) {
		t.Error("an owner is seen after every DB closed")
	}
}

// A process that dies leaves no marker for its changes: the next start
// runs the full check.
func TestAnOpenDatabaseIsNotKnownCleanOnceWritten(t *testing.T) {
	ctx := context.Background()
	path := fillAndClose(t)
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for range 50 { // enough for the WAL to be checkpointed into the file
		if _, err := db.CreateSession(ctx, string(make([]byte, 4000)), "openai/m"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Bun().ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	if knownClean(path) {
		t.Error("the file changed by a live process is known clean")
	}
}
