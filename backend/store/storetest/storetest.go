// Package storetest makes the databases the tests of damaged and newer
// files need (issue 21): a filled database, one with garbage written over a
// page in the middle, one that records a migration from the future. Tests
// of every entry point (store, core, the CLI, the window) use the same
// files.
package storetest

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"playchat/backend/store"
)

// PageSize is the page size of the databases playchat writes (SQLite's
// default).
const PageSize = 4096

// FutureMigration is the migration a database "from a newer version"
// records (MarkNewer).
const FutureMigration = "20991231000099_from_the_future"

// Fill creates the database at path (a playchat.db in a data dir) with one
// session of n messages of about 2.4 KB each, then closes it so that
// everything is in the file. It returns the session's id.
func Fill(t testing.TB, path string, n int) string {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := db.CreateSession(ctx, "filled", "openai/m")
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		m := store.Message{SessionID: s.ID, Role: []string{store.RoleUser, store.RoleAssistant}[i%2],
			Content: fmt.Sprintf("%d %s", i, strings.Repeat("吾輩は猫である。", 100))}
		if err := db.InsertMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return s.ID
}

// CorruptMiddle overwrites the page in the middle of the file with random
// bytes (the tester's "garbage in the middle of playchat.db").
func CorruptMiddle(t testing.TB, path string) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	CorruptPage(t, path, st.Size()/PageSize/2+1)
}

// CorruptPage overwrites page n (1-based) of the file with random bytes.
func CorruptPage(t testing.TB, path string, n int64) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	garbage := make([]byte, PageSize)
	r := rand.New(rand.NewPCG(21, uint64(n)))
	for i := range garbage {
		garbage[i] = byte(r.UintN(256))
	}
	if _, err := f.WriteAt(garbage, (n-1)*PageSize); err != nil {
		t.Fatal(err)
	}
}

// MarkNewer records FutureMigration in the database at path, as a newer
// playchat would.
func MarkNewer(t testing.TB, path string) {
	t.Helper()
	db, err := store.OpenUnmigrated(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Bun().ExecContext(context.Background(),
		`INSERT INTO bun_migrations (name, group_id, migrated_at) VALUES (?, 99, CURRENT_TIMESTAMP)`, FutureMigration); err != nil {
		t.Fatal(err)
	}
}

// Hash is the SHA-256 of the file at path.
func Hash(t testing.TB, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}
