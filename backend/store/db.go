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
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// ErrNotFound is returned when a row asked for by id does not exist.
var ErrNotFound = errors.New("not found")

// BusyTimeout is how long a connection waits for a lock before giving up.
const BusyTimeout = 30 * time.Second

// DB is an open playchat database. It is safe for concurrent use.
type DB struct {
	bun  *bun.DB
	path string
}

// FileName is the database file's name inside the data dir.
const FileName = "playchat.db"

// DSN returns the modernc.org/sqlite data source name for path with WAL,
// busy timeout, foreign keys and immediate transactions.
func DSN(path string) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", BusyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	q.Set("_time_format", "sqlite")
	return "file:" + path + "?" + q.Encode()
}

// Open opens (creating if needed) the database at path and migrates it to the
// latest schema version. The parent directory is created with mode 0700.
func Open(ctx context.Context, path string) (*DB, error) {
	db, err := OpenUnmigrated(path)
	if err != nil {
		return nil, err
	}
	if err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// OpenUnmigrated opens the database without applying migrations (tests use
// it to build a database at an earlier schema version).
func OpenUnmigrated(path string) (*DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	sqldb, err := sql.Open("sqlite", DSN(path))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	sqldb.SetMaxOpenConns(8)
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
	return &DB{bun: bun.NewDB(sqldb, sqlitedialect.New()), path: path}, nil
}

// Path is the database file's path.
func (d *DB) Path() string { return d.path }

// Bun exposes the bun handle for packages that own their tables' queries.
func (d *DB) Bun() *bun.DB { return d.bun }

// Close closes the database.
func (d *DB) Close() error { return d.bun.Close() }

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
