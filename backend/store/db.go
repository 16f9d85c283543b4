// Package store opens playchat's SQLite database (modernc.org/sqlite, pure Go)
// through bun, applies the versioned migrations and holds the queries.
//
// Connection settings follow Ollama's desktop app (app/store/database.go):
// WAL journal, a busy timeout, foreign keys on, and BEGIN IMMEDIATE for every
// transaction, so concurrent writers queue on the busy timeout instead of
// failing with "database is locked" when a read lock would be upgraded.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	sqlite "modernc.org/sqlite" // also registers the "sqlite" driver (Check)

	"playchat/backend/filelock"
)

// ErrNotFound is returned when a row asked for by id does not exist.
var ErrNotFound = errors.New("not found")

// BusyTimeout is how long a connection waits for a lock before giving up.
const BusyTimeout = 30 * time.Second

// DB is an open playchat database. It is safe for concurrent use.
type DB struct {
	bun  *bun.DB
	path string
	// health is the run-time damage state of every connection (health.go).
	health *health
	// owner is this open's stream-owner id and lock (streams.go): the
	// replies it writes while they stream carry the id.
	owner     string
	ownerLock *filelock.Lock
}

// FileName is the database file's name inside the data dir.
const FileName = "playchat.db"

// StartLockSuffix names the start-up lock file beside the database
// (playchat.db-start.lock): Open holds it while it checks, creates and
// migrates the database, so N processes starting at once on a fresh data
// dir run those steps one after another, and each later one finds them done.
const StartLockSuffix = "-start.lock"

// MmapSize is how much of the database file (bytes from its start) SQLite
// reads through a memory map instead of read calls (PRAGMA mmap_size;
// https://sqlite.org/mmap.html). A knowledge-base query at 200,000
// documents reads thousands of scattered pages (FTS5's bm25 looks up each
// matching section's size), and SQLite's own page cache (2 MiB a
// connection) held few of them: a quarter of the query's time was pread
// calls, and with the map a hybrid search's p50 went 59 → 37–40 ms and
// 18.5 → 14 ms at 45,000 (issue 29). The mapped pages are the kernel's
// file cache, shared and given back under pressure, not the process's own
// memory. Writes still go through the WAL.
const MmapSize = 1 << 30

// DSN returns the modernc.org/sqlite data source name for path with WAL,
// busy timeout, foreign keys, immediate transactions and memory-mapped
// reads (MmapSize).
func DSN(path string) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", BusyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", fmt.Sprintf("mmap_size(%d)", MmapSize))
	q.Set("_txlock", "immediate")
	q.Set("_time_format", "sqlite")
	return "file:" + path + "?" + q.Encode()
}

// Open opens (creating if needed) the database at path and migrates it to the
// latest schema version. The parent directory is created with mode 0700.
//
// Every first-start step runs under the start-up lock (StartLockSuffix), so
// any number of processes may open one path at once: the first creates the
// file, switches it to WAL and migrates it; the others wait, then find it
// ready. Before anything is written the file is checked (check.go; the full
// quick_check when the file is not known to be sound, clean.go): a damaged
// database or one written by a newer playchat is refused with a coded error
// and left untouched. Replies that a process which has since ended left
// streaming are marked interrupted (RecoverInterrupted).
func Open(ctx context.Context, path string) (*DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	lock, err := filelock.Acquire(path + StartLockSuffix)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer lock.Unlock()
	full := !anotherOwnerAlive(path) && !knownClean(path) // clean.go
	if err := check(ctx, path, full); err != nil {
		return nil, err
	}
	db, err := OpenUnmigrated(path)
	if err != nil {
		return nil, err
	}
	if err := db.Migrate(ctx); err != nil {
		db.abandon()
		return nil, err
	}
	if _, err := db.RecoverInterrupted(ctx); err != nil {
		db.abandon()
		return nil, fmt.Errorf("mark interrupted replies: %w", err)
	}
	return db, nil
}

// maxOpenConns is how many connections one DB holds at most.
const maxOpenConns = 8

// OpenUnmigrated opens the database without applying migrations (tests use
// it to build a database at an earlier schema version). It neither checks
// the file nor takes the start-up lock.
func OpenUnmigrated(path string) (*DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	h := &health{path: path}
	sqldb := sql.OpenDB(connector{dsn: DSN(path), base: &sqlite.Driver{}, h: h})
	// Every connection opened stays open while it is used at least every
	// few minutes: a turn's context layers query side by side, and with
	// database/sql's default of 2 idle connections the others were closed
	// after each turn and opened again in the next — its pragmas run again
	// and its page cache starts cold (issue 29's turn overhead).
	sqldb.SetMaxOpenConns(maxOpenConns)
	sqldb.SetMaxIdleConns(maxOpenConns)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	if err := sqldb.Ping(); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// The database holds API keys saved in the window: owner-only, like the
	// data dir (the WAL and shared-memory files too).
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, os.ErrNotExist) {
			sqldb.Close()
			return nil, fmt.Errorf("protect %s: %w", p, err)
		}
	}
	d := &DB{bun: bun.NewDB(sqldb, sqlitedialect.New()), path: path, health: h}
	if err := d.claimOwner(); err != nil {
		sqldb.Close()
		return nil, err
	}
	return d, nil
}

// Path is the database file's path.
func (d *DB) Path() string { return d.path }

// Bun exposes the bun handle for packages that own their tables' queries.
func (d *DB) Bun() *bun.DB { return d.bun }

// Close closes the database and gives up its stream-owner lock (a reply
// still marked streaming is then marked interrupted by the next start).
// When it was the database's last connection it records the file as
// cleanly closed, so the next start may skip the full check (clean.go).
func (d *DB) Close() error {
	// Under the start-up lock, so that no start checks the file while the
	// marker is being taken.
	lock, lerr := filelock.Acquire(d.path + StartLockSuffix)
	err := d.bun.Close()
	if err == nil && lerr == nil {
		writeCleanMark(d.path, d.health.err() != nil)
	}
	lock.Unlock()
	d.ownerLock.Remove()
	return err
}

// abandon closes a DB that Open could not finish (it holds the start-up
// lock already): no clean marker is written.
func (d *DB) abandon() {
	d.bun.Close()
	d.ownerLock.Remove()
}

// Damage returns the StoreDamaged error once a statement found the
// database damaged (every write is refused from then on), else nil.
func (d *DB) Damage() error { return d.health.err() }

// Tx runs fn in one immediate write transaction: committed if fn returns nil,
// rolled back otherwise.
func (d *DB) Tx(ctx context.Context, fn func(ctx context.Context, tx bun.Tx) error) error {
	return d.bun.RunInTx(ctx, nil, fn)
}

// now is the storage clock: UTC, microsecond precision.
func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

func notFound(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return err
}
