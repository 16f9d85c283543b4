package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"path/filepath"
	"sync"

	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"playchat/backend/apperr"
)

// Damage found at run time (issue 21). Check refuses a damaged file at
// start, but damage can also show later — a page that goes bad on disk, a
// file changed under a running playchat. Every connection of a DB goes
// through guardedConn: the first SQLITE_CORRUPT or SQLITE_NOTADB of any
// statement marks the database damaged, that error and every later one
// come back as a StoreDamaged error (coded, naming the file and the data
// folder), and from then on each connection is switched to PRAGMA
// query_only before its next statement, so SQLite itself refuses every
// further write while reads that still work go on.

// Other failures of the disk under the database (issue 22: "database or
// disk is full (13)" reached the Japanese window in English, with an empty
// code in `ask --json`) come back coded the same way: storageError.

// health is the damage state shared by the connections of one DB.
type health struct {
	path string

	mu    sync.Mutex
	cause error // the first damage seen; nil while none
}

// err returns the StoreDamaged error, or nil while no damage was seen.
func (h *health) err() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.cause
}

// check passes err through, turning damage into StoreDamaged (and
// remembering it); once damaged, every error is the StoreDamaged one.
func (h *health) check(err error) error {
	if err == nil || err == io.EOF || errors.Is(err, driver.ErrSkip) {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cause == nil && isDamage(err) {
		h.cause = Damaged(h.path, err)
	}
	if h.cause != nil {
		return h.cause
	}
	return storageError(h.path, err)
}

// connector opens guarded connections to dsn.
type connector struct {
	dsn  string
	base *sqlite.Driver
	h    *health
}

func (c connector) Connect(ctx context.Context) (driver.Conn, error) {
	if err := c.h.err(); err != nil {
		return nil, err
	}
	cn, err := c.base.Open(c.dsn)
	if err != nil {
		return nil, c.h.check(err)
	}
	bc, ok := cn.(baseConn)
	if !ok {
		cn.Close()
		return nil, errors.New("store: the sqlite driver's connection lacks a context method")
	}
	return &guardedConn{base: bc, h: c.h}, nil
}

func (c connector) Driver() driver.Driver { return c.base }

// baseConn is what modernc.org/sqlite's connection implements.
type baseConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// guardedConn is one connection; see health.
type guardedConn struct {
	base     baseConn
	h        *health
	readOnly bool // PRAGMA query_only was set after damage
}

// guard switches the connection to query_only once the database is damaged.
func (c *guardedConn) guard(ctx context.Context) {
	if c.readOnly || c.h.err() == nil {
		return
	}
	if _, err := c.base.ExecContext(ctx, "PRAGMA query_only = 1", nil); err == nil {
		c.readOnly = true
	}
}

func (c *guardedConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *guardedConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	c.guard(ctx)
	s, err := c.base.PrepareContext(ctx, query)
	if err != nil {
		return nil, c.h.check(err)
	}
	return &guardedStmt{base: s, h: c.h}, nil
}

func (c *guardedConn) Close() error { return c.base.Close() }

func (c *guardedConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *guardedConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	c.guard(ctx)
	tx, err := c.base.BeginTx(ctx, opts)
	if err != nil {
		return nil, c.h.check(err)
	}
	return guardedTx{base: tx, h: c.h}, nil
}

func (c *guardedConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	c.guard(ctx)
	r, err := c.base.ExecContext(ctx, query, args)
	return r, c.h.check(err)
}

func (c *guardedConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	c.guard(ctx)
	r, err := c.base.QueryContext(ctx, query, args)
	if err != nil {
		return nil, c.h.check(err)
	}
	return guardedRows{base: r, h: c.h}, nil
}

func (c *guardedConn) Ping(ctx context.Context) error { return c.h.check(c.base.Ping(ctx)) }

func (c *guardedConn) ResetSession(ctx context.Context) error { return c.base.ResetSession(ctx) }

func (c *guardedConn) IsValid() bool { return c.base.IsValid() }

type guardedTx struct {
	base driver.Tx
	h    *health
}

func (t guardedTx) Commit() error   { return t.h.check(t.base.Commit()) }
func (t guardedTx) Rollback() error { return t.h.check(t.base.Rollback()) }

type guardedStmt struct {
	base driver.Stmt
	h    *health
}

func (s *guardedStmt) Close() error  { return s.base.Close() }
func (s *guardedStmt) NumInput() int { return s.base.NumInput() }

func (s *guardedStmt) Exec(args []driver.Value) (driver.Result, error) {
	r, err := s.base.Exec(args) //nolint:staticcheck // the driver.Stmt method
	return r, s.h.check(err)
}

func (s *guardedStmt) Query(args []driver.Value) (driver.Rows, error) {
	r, err := s.base.Query(args) //nolint:staticcheck // the driver.Stmt method
	if err != nil {
		return nil, s.h.check(err)
	}
	return guardedRows{base: r, h: s.h}, nil
}

func (s *guardedStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	sc, ok := s.base.(driver.StmtExecContext)
	if !ok {
		return s.Exec(values(args))
	}
	r, err := sc.ExecContext(ctx, args)
	return r, s.h.check(err)
}

func (s *guardedStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	sc, ok := s.base.(driver.StmtQueryContext)
	if !ok {
		return s.Query(values(args))
	}
	r, err := sc.QueryContext(ctx, args)
	if err != nil {
		return nil, s.h.check(err)
	}
	return guardedRows{base: r, h: s.h}, nil
}

// values drops the names of args (a driver without the context methods
// takes positional values).
func values(args []driver.NamedValue) []driver.Value {
	vs := make([]driver.Value, len(args))
	for i, a := range args {
		vs[i] = a.Value
	}
	return vs
}

type guardedRows struct {
	base driver.Rows
	h    *health
}

func (r guardedRows) Columns() []string { return r.base.Columns() }
func (r guardedRows) Close() error      { return r.base.Close() }
func (r guardedRows) Next(dest []driver.Value) error {
	return r.h.check(r.base.Next(dest))
}

// ColumnTypeDatabaseTypeName passes the driver's column type through.
func (r guardedRows) ColumnTypeDatabaseTypeName(i int) string {
	if t, ok := r.base.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return t.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}

// storageError turns a SQLite error about the storage under the database at
// path into a coded one — apperr.StoreDiskFull (SQLITE_FULL),
// apperr.StoreReadOnly (SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN),
// apperr.StoreIO (SQLITE_IOERR and its extended codes), apperr.StoreBusy
// (SQLITE_BUSY, SQLITE_LOCKED) — with params path, dir and detail
// (SQLite's English words). The SQLite error stays wrapped (errors.As
// finds it). Any other error (a constraint, a syntax error) is returned as
// it is.
func storageError(path string, err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	var code apperr.Code
	switch se.Code() & 0xff { // the primary code of an extended one
	case sqlite3.SQLITE_FULL:
		code = apperr.StoreDiskFull
	case sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_CANTOPEN:
		code = apperr.StoreReadOnly
	case sqlite3.SQLITE_IOERR:
		code = apperr.StoreIO
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		code = apperr.StoreBusy
	default:
		return err
	}
	return apperr.Wrap(code, err, map[string]any{"path": path, "dir": filepath.Dir(path), "detail": se.Error()})
}
