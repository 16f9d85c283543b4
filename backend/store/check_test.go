package store_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/store"
	"playchat/backend/store/storetest"
)

// filledDB writes a database of about 1 MB (a session with 400 messages)
// at a new path and returns the path.
func filledDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), store.FileName)
	storetest.Fill(t, path, 400)
	return path
}

func TestADatabaseDamagedInTheMiddleIsRefusedAndLeftUntouched(t *testing.T) {
	path := filledDB(t)
	storetest.CorruptMiddle(t, path)
	before := storetest.Hash(t, path)
	db, err := store.Open(context.Background(), path)
	if err == nil {
		db.Close()
		t.Fatal("a damaged database opened")
	}
	if apperr.CodeOf(err) != apperr.StoreDamaged || !store.IsDamaged(err) {
		t.Fatalf("error %v has code %q, want %s", err, apperr.CodeOf(err), apperr.StoreDamaged)
	}
	in := apperr.InfoOf(err)
	if in.Params["dir"] != filepath.Dir(path) || in.Params["path"] != path {
		t.Errorf("params %v do not name the data folder and the file", in.Params)
	}
	if !strings.Contains(err.Error(), filepath.Dir(path)) || !strings.Contains(err.Error(), "backup") {
		t.Errorf("message %q does not name the folder and the way back", err)
	}
	if storetest.Hash(t, path) != before {
		t.Error("the damaged file was changed")
	}
}

func TestAFileThatIsNotADatabaseIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), store.FileName)
	if err := os.WriteFile(path, []byte(strings.Repeat("this is not sqlite\n", 300)), 0o600); err != nil {
		t.Fatal(err)
	}
	before := storetest.Hash(t, path)
	_, err := store.Open(context.Background(), path)
	if apperr.CodeOf(err) != apperr.StoreDamaged {
		t.Fatalf("got %v, want %s", err, apperr.StoreDamaged)
	}
	if storetest.Hash(t, path) != before {
		t.Error("the file was changed")
	}
}

func TestADatabaseOfANewerVersionIsRefusedAndLeftUntouched(t *testing.T) {
	ctx := context.Background()
	path := filledDB(t)
	storetest.MarkNewer(t, path)
	before := storetest.Hash(t, path)
	_, err := store.Open(ctx, path)
	if apperr.CodeOf(err) != apperr.StoreNewerSchema {
		t.Fatalf("got %v, want %s", err, apperr.StoreNewerSchema)
	}
	in := apperr.InfoOf(err)
	if in.Params["migration"] != storetest.FutureMigration || in.Params["latest"] != store.LatestMigration() || in.Params["dir"] != filepath.Dir(path) {
		t.Errorf("params %v", in.Params)
	}
	if storetest.Hash(t, path) != before {
		t.Error("the newer database was changed")
	}
}

func TestASoundDatabasePassesTheCheck(t *testing.T) {
	path := filledDB(t)
	before := storetest.Hash(t, path)
	if err := store.Check(context.Background(), path); err != nil {
		t.Fatal(err)
	}
	if storetest.Hash(t, path) != before {
		t.Error("the check changed the file")
	}
	if err := store.Check(context.Background(), filepath.Join(t.TempDir(), "missing.db")); err != nil {
		t.Errorf("a missing file (a first start): %v", err)
	}
}

// Damage that shows while the database is open: the error is coded, and
// from then on every write is refused, while the rest of the file stays
// as it was.
func TestDamageFoundAtRunTimeStopsWrites(t *testing.T) {
	ctx := context.Background()
	path := filledDB(t)
	db, err := store.Open(ctx, path)
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
	storetest.CorruptPage(t, path, root)
	_, err = db.SessionMessages(ctx, sessions[0].ID)
	if apperr.CodeOf(err) != apperr.StoreDamaged {
		t.Fatalf("reading the damaged table: %v, want %s", err, apperr.StoreDamaged)
	}
	if db.Damage() == nil {
		t.Fatal("the DB does not report the damage")
	}
	before := storetest.Hash(t, path)
	_, err = db.CreateSession(ctx, "after the damage", "openai/m")
	if apperr.CodeOf(err) != apperr.StoreDamaged {
		t.Fatalf("a write after the damage: %v, want %s", err, apperr.StoreDamaged)
	}
	if n, err := db.Bun().NewSelect().Table("sessions").Where("title = ?", "after the damage").Count(ctx); err == nil && n != 0 {
		t.Error("the write went through")
	}
	if storetest.Hash(t, path) != before {
		t.Error("the file changed after the damage was found")
	}
}

// What a killed process leaves — the database file and a WAL with commits
// not yet checkpointed, no shared-memory file — passes the check and
// opens with everything the WAL holds.
func TestAWALLeftByAKilledProcessPassesTheCheck(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, store.FileName)
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.CreateSession(ctx, "in the WAL only", "openai/m"); err != nil {
		t.Fatal(err)
	}
	// Copy the files as they are while the DB is open: the commit is in
	// the WAL, not yet in the database file.
	crashed := filepath.Join(t.TempDir(), store.FileName)
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(path + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(crashed+suffix, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := store.Check(ctx, crashed); err != nil {
		t.Fatalf("check after a crash: %v", err)
	}
	reopened, err := store.Open(ctx, crashed)
	if err != nil {
		t.Fatal(err)
	}
	defer reopened.Close()
	ss, err := reopened.ListSessions(ctx)
	if err != nil || len(ss) != 1 || ss[0].Title != "in the WAL only" {
		t.Fatalf("sessions after the crash: %+v, %v", ss, err)
	}
}
