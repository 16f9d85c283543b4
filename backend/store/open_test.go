package store

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// wantAllMigrations fails t unless the database at path records every
// step exactly once.
func wantAllMigrations(t *testing.T, path string) {
	t.Helper()
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var rows []struct {
		Name string `bun:"name"`
		N    int    `bun:"n"`
	}
	if err := db.Bun().NewRaw(`SELECT name, count(*) AS n FROM bun_migrations GROUP BY name ORDER BY name`).
		Scan(context.Background(), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(steps) {
		t.Errorf("%d migrations recorded, want %d", len(rows), len(steps))
	}
	for _, r := range rows {
		if r.N != 1 {
			t.Errorf("migration %s recorded %d times", r.Name, r.N)
		}
	}
	if rows[len(rows)-1].Name != LatestMigration() {
		t.Errorf("newest recorded %s, want %s", rows[len(rows)-1].Name, LatestMigration())
	}
}

// Issue 21: 50 parallel first starts on an empty data dir failed with
// "duplicate column name: status". Twenty processes open one fresh
// database at once; every one must succeed.
func TestTwentyProcessesFirstStartAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", FileName) // the data dir does not exist yet either
	const n = 20
	outs := make([][]byte, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = helper("open", path).CombinedOutput()
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || firstLine(outs[i]) != "ok" {
			t.Errorf("process %d: %v: %s", i, errs[i], outs[i])
		}
	}
	wantAllMigrations(t, path)
}

// The same within one process: twenty goroutines open one fresh database.
func TestTwentyOpensInOneProcessAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	const n = 20
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := Open(context.Background(), path)
			if err == nil {
				err = db.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("open %d: %v", i, err)
		}
	}
	wantAllMigrations(t, path)
}

// Without the start-up lock (MigrateTo called directly, as a test or a
// tool may), concurrent callers still apply each step once: each step is
// checked and applied in one immediate transaction.
func TestConcurrentMigrateToAppliesEachStepOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	const n = 8
	dbs := make([]*DB, n)
	for i := range dbs {
		db, err := OpenUnmigrated(path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		dbs[i] = db
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i, db := range dbs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = db.Migrate(context.Background())
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("migrate %d: %v", i, err)
		}
	}
	wantAllMigrations(t, path)
}

// An earlier version recorded a step only after its transaction
// committed, so a process that died in between left a step applied but
// unrecorded, and every later start failed on it ("duplicate column").
// The statements are idempotent: such a database opens.
func TestAStepAppliedButNotRecordedRunsAgain(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{MigrationDesign, MigrationMessageSearch, MigrationTags, MigrationStreamingReplies} {
		if _, err := db.Bun().ExecContext(ctx, `DELETE FROM bun_migrations WHERE name = ?`, name); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	wantAllMigrations(t, path)
}

// A migration that fails leaves the start-up lock free and the database
// closed: the error comes back (no wait on the lock Open itself holds), and
// the next start gets the same error rather than hanging.
func TestAFailedMigrationReturnsAndReleasesTheStartLock(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	db, err := OpenUnmigrated(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.MigrateTo(ctx, MigrationOriginal); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Bun().ExecContext(ctx, `CREATE TRIGGER refuse BEFORE INSERT ON bun_migrations
		BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for i := range 2 {
		done := make(chan error, 1)
		go func() {
			db, err := Open(ctx, path)
			if err == nil {
				db.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "refused by the test") {
				t.Fatalf("open %d: %v", i, err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("open %d hangs", i)
		}
	}
}
