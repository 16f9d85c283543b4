package store

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/apperr"
)

// fileHash is the SHA-256 of the file at path.
func fileHash(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// filledDB writes a database of about 2 MB (a session with 400 messages)
// at a new path, closes it (everything checkpointed into the file) and
// returns the path.
func filledDB(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := db.CreateSession(ctx, "filled", "openai/m")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 400 {
		m := Message{SessionID: s.ID, Role: []string{RoleUser, RoleAssistant}[i%2],
			Content: fmt.Sprintf("%d %s", i, strings.Repeat("吾輩は猫である。", 200))}
		if err := db.InsertMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// pageSize is the page size of the databases the tests write (SQLite's
// default).
const pageSize = 4096

// corruptMiddlePage overwrites the page in the middle of the file with
// random bytes (the tester's "garbage in the middle of playchat.db").
func corruptMiddlePage(t *testing.T, path string) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	corruptPage(t, path, st.Size()/pageSize/2+1)
}

// corruptPage overwrites page n (1-based) of the file with random bytes.
func corruptPage(t *testing.T, path string, n int64) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	garbage := make([]byte, pageSize)
	r := rand.New(rand.NewPCG(21, uint64(n)))
	for i := range garbage {
		garbage[i] = byte(r.UintN(256))
	}
	if _, err := f.WriteAt(garbage, (n-1)*pageSize); err != nil {
		t.Fatal(err)
	}
}

func TestADatabaseDamagedInTheMiddleIsRefusedAndLeftUntouched(t *testing.T) {
	path := filledDB(t)
	corruptMiddlePage(t, path)
	before := fileHash(t, path)
	db, err := Open(context.Background(), path)
	if err == nil {
		db.Close()
		t.Fatal("a damaged database opened")
	}
	if apperr.CodeOf(err) != apperr.StoreDamaged || !IsDamaged(err) {
		t.Fatalf("error %v has code %q, want %s", err, apperr.CodeOf(err), apperr.StoreDamaged)
	}
	in := apperr.InfoOf(err)
	if in.Params["dir"] != filepath.Dir(path) || in.Params["path"] != path {
		t.Errorf("params %v do not name the data folder and the file", in.Params)
	}
	if !strings.Contains(err.Error(), filepath.Dir(path)) || !strings.Contains(err.Error(), "backup") {
		t.Errorf("message %q does not name the folder and the way back", err)
	}
	if fileHash(t, path) != before {
		t.Error("the damaged file was changed")
	}
}

func TestAFileThatIsNotADatabaseIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(path, []byte(strings.Repeat("this is not sqlite\n", 300)), 0o600); err != nil {
		t.Fatal(err)
	}
	before := fileHash(t, path)
	_, err := Open(context.Background(), path)
	if apperr.CodeOf(err) != apperr.StoreDamaged {
		t.Fatalf("got %v, want %s", err, apperr.StoreDamaged)
	}
	if fileHash(t, path) != before {
		t.Error("the file was changed")
	}
}

func TestADatabaseOfANewerVersionIsRefusedAndLeftUntouched(t *testing.T) {
	ctx := context.Background()
	path := filledDB(t)
	db, err := OpenUnmigrated(path)
	if err != nil {
		t.Fatal(err)
	}
	const future = "20991231000099_from_the_future"
	if _, err := db.Bun().ExecContext(ctx, `INSERT INTO bun_migrations (name, group_id, migrated_at) VALUES (?, 99, CURRENT_TIMESTAMP)`, future); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before := fileHash(t, path)
	_, err = Open(ctx, path)
	if apperr.CodeOf(err) != apperr.StoreNewerSchema {
		t.Fatalf("got %v, want %s", err, apperr.StoreNewerSchema)
	}
	in := apperr.InfoOf(err)
	if in.Params["migration"] != future || in.Params["latest"] != LatestMigration() || in.Params["dir"] != filepath.Dir(path) {
		t.Errorf("params %v", in.Params)
	}
	if !errors.Is(err, errUnknownMigration) {
		t.Error("the cause is lost")
	}
	if fileHash(t, path) != before {
		t.Error("the newer database was changed")
	}
}

func TestASoundDatabasePassesTheCheck(t *testing.T) {
	path := filledDB(t)
	before := fileHash(t, path)
	if err := Check(context.Background(), path); err != nil {
		t.Fatal(err)
	}
	if fileHash(t, path) != before {
		t.Error("the check changed the file")
	}
	if err := Check(context.Background(), filepath.Join(t.TempDir(), "missing.db")); err != nil {
		t.Errorf("a missing file (a first start): %v", err)
	}
}

// Damage that shows while the database is open: the error is coded, and
// from then on every write is refused, while the rest of the file stays
// as it was.
func TestDamageFoundAtRunTimeStopsWrites(t *testing.T) {
	ctx := context.Background()
	path := filledDB(t)
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sessions, err := db.ListSessions(ctx)
	if err != nil || len(sessions) != 1 {
		t.Fatalf("sessions %v, %v", sessions, err)
	}
	var root int64
	if err := db.Bun().NewRaw(`SELECT rootpage FROM sqlite_master WHERE name = 'messages'`).Scan(ctx, &root); err != nil {
		t.Fatal(err)
	}
	// The file goes bad under the running process: the messages table's
	// b-tree root (garbage in a text's overflow page reads back as text;
	// a page of the tree's structure is what SQLite can tell is damaged).
	corruptPage(t, path, root)
	_, err = db.SessionMessages(ctx, sessions[0].ID)
	if apperr.CodeOf(err) != apperr.StoreDamaged {
		t.Fatalf("reading the damaged table: %v, want %s", err, apperr.StoreDamaged)
	}
	if db.Damage() == nil {
		t.Fatal("the DB does not report the damage")
	}
	before := fileHash(t, path)
	_, err = db.CreateSession(ctx, "after the damage", "openai/m")
	if apperr.CodeOf(err) != apperr.StoreDamaged {
		t.Fatalf("a write after the damage: %v, want %s", err, apperr.StoreDamaged)
	}
	if n, err := db.Bun().NewSelect().Table("sessions").Where("title = ?", "after the damage").Count(ctx); err == nil && n != 0 {
		t.Error("the write went through")
	}
	if fileHash(t, path) != before {
		t.Error("the file changed after the damage was found")
	}
}
