package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"playchat/backend/apperr"
)

// Checking the database before it is opened for writing (issue 21). A
// damaged file — garbage in a page, a file that is not a database at all —
// is refused: playchat never writes into a database known to be damaged,
// so nothing that could still be saved from it is overwritten, and the
// file is kept exactly as it is (the way back is a backup). A database
// written by a newer playchat (it records a migration this binary does not
// know) is refused too: this version would misread its tables.
//
// The check reads through a read-only connection with no journal-mode
// change, so checking never changes a byte of the file; it runs under the
// start-up lock, before the migrations.
//
// PRAGMA quick_check reads every page of the file (b-tree structure, page
// and cell bounds, the free list, record formats; unlike integrity_check it
// does not cross-check indexes against their tables). That takes seconds
// on a large history (BenchmarkOpenCheck100k), so Open runs it only when
// the file is not known to be sound (clean.go); Check always runs it.

// quickCheckLimit caps how many problems quick_check lists (the message
// names the first few; one is enough to refuse).
const quickCheckLimit = 10

// sqliteHeader starts every SQLite 3 database file.
var sqliteHeader = []byte("SQLite format 3\x00")

// Check examines the database file at path: nil when it is missing or
// empty (a first start) or sound and of a schema this binary knows; a
// *apperr.Error of code StoreNewerSchema or StoreDamaged when it must not
// be opened; another error when it cannot be read at all (permissions, a
// lock held longer than the busy timeout).
func Check(ctx context.Context, path string) error { return check(ctx, path, true) }

// check is Check; without full it skips PRAGMA quick_check (the header and
// the schema version are still checked).
func check(ctx context.Context, path string, full bool) error {
	st, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) || (err == nil && st.Size() == 0) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("check the database: %w", err)
	}
	if err := checkHeader(path); err != nil {
		return err
	}
	q := "file:" + path + "?mode=ro&_pragma=" + fmt.Sprintf("busy_timeout(%d)", BusyTimeout.Milliseconds())
	db, err := sql.Open("sqlite", q)
	if err != nil {
		return fmt.Errorf("check the database: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if err := newerSchema(ctx, db, path); err != nil {
		return err
	}
	if !full {
		return nil
	}
	rows, err := db.QueryContext(ctx, fmt.Sprintf("PRAGMA quick_check(%d)", quickCheckLimit))
	if err != nil {
		return damagedOr(path, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return damagedOr(path, err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return damagedOr(path, err)
	}
	if len(problems) > 0 {
		if len(problems) > 3 {
			problems = append(problems[:3], "…")
		}
		return Damaged(path, errors.New("integrity check: "+strings.Join(problems, "; ")))
	}
	return nil
}

// checkHeader refuses a file that does not start as a SQLite database.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("check the database: %w", err)
	}
	defer f.Close()
	head := make([]byte, 100) // the database header
	if _, err := io.ReadFull(f, head); err != nil || !bytes.HasPrefix(head, sqliteHeader) {
		return Damaged(path, errors.New("file is not a database (its header is not SQLite's)"))
	}
	return nil
}

// newerSchema returns a StoreNewerSchema error when the database records a
// migration this binary does not know.
func newerSchema(ctx context.Context, db *sql.DB, path string) error {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?`,
		migrationsTable).Scan(&n); err != nil {
		return damagedOr(path, err)
	}
	if n == 0 {
		return nil // created but never migrated
	}
	rows, err := db.QueryContext(ctx, `SELECT name FROM `+migrationsTable+` ORDER BY name`)
	if err != nil {
		return damagedOr(path, err)
	}
	defer rows.Close()
	var unknown []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return damagedOr(path, err)
		}
		if !knownMigration(name) {
			unknown = append(unknown, name)
		}
	}
	if err := rows.Err(); err != nil {
		return damagedOr(path, err)
	}
	if len(unknown) == 0 {
		return nil
	}
	return apperr.Wrap(apperr.StoreNewerSchema, errUnknownMigration, map[string]any{
		"path": path, "dir": filepath.Dir(path), "migration": unknown[len(unknown)-1], "latest": LatestMigration()})
}

// Damaged is the StoreDamaged error of the database file at path, caused by
// cause (SQLite's words, or what the check found).
func Damaged(path string, cause error) error {
	return apperr.Wrap(apperr.StoreDamaged, cause, map[string]any{
		"path": path, "dir": filepath.Dir(path), "detail": cause.Error()})
}

// damagedOr turns a SQLite error that means damage (SQLITE_CORRUPT,
// SQLITE_NOTADB) into Damaged; any other error is returned wrapped.
func damagedOr(path string, err error) error {
	if isDamage(err) {
		return Damaged(path, err)
	}
	return fmt.Errorf("check the database: %w", err)
}

// isDamage reports whether err is SQLite saying the file is damaged or not
// a database.
func isDamage(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff { // the primary code of an extended one
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return true
	}
	return false
}

// IsDamaged reports whether err says the database is damaged (code
// StoreDamaged).
func IsDamaged(err error) bool { return apperr.CodeOf(err) == apperr.StoreDamaged }
