// Package interop is the tool layer other tools reach playchat through
// (issue 23, DESIGN.md §10): plain Go functions over the knowledge base,
// the notes, the long-term memories, the learned web knowledge and the
// message search, JSON-shaped in and out, with no transport. The MCP server
// (mcp.go: stdio and streamable HTTP) is a thin adapter over them.
//
// Addresses: a knowledge-base document is {domain, path}. The domain is the
// document's top-level folder of the knowledge base ("" for a document at
// its root) and the path is the rest, relative and slash-separated; every
// hit of QueryKB carries exactly the pair ReadDocument takes. Learned
// documents live at _learned/<domain>/<id>.md, so their address is
// {domain: "_learned", path: "<domain>/<id>.md"}.
//
// Permissions are read at every call: writing (WriteNote, AppendLearning)
// needs AllowWrite, the notes need ShareNotes. A refused call changes
// nothing. Every error a caller can cause is an *apperr.Error with an
// interop.* (or kb.*, notes.*) code.
package interop

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/core"
	"playchat/backend/kb"
	"playchat/backend/knowledge"
	"playchat/backend/notes"
	"playchat/backend/store"
)

// Permissions say what other tools may do beyond reading the knowledge
// base, the chats and the memories.
type Permissions struct {
	// AllowWrite offers write_note and append_learning
	// (INTEROP_ALLOW_WRITE, --allow-write).
	AllowWrite bool
	// ShareNotes offers the notes (INTEROP_SHARE_NOTES, --share-notes).
	ShareNotes bool
}

// Options configure New.
type Options struct {
	DB        *store.DB
	KB        *kb.Service
	Notes     *notes.Service
	Knowledge *knowledge.Service
	// Permissions returns the current permissions; it is called for every
	// operation (nil: read-only, notes not shared).
	Permissions func() Permissions
	// Indexing reports whether the knowledge base's first pass of this
	// process is still running (nil: never); WaitIndexed, when set, waits
	// for it (QueryKB waits at most IndexWait).
	Indexing func() bool
	// WaitIndexed blocks until the first pass is done or ctx ends.
	WaitIndexed func(ctx context.Context)
	// Clock is for tests; nil uses time.Now.
	Clock func() time.Time
	// Log receives warnings; nil discards.
	Log *slog.Logger
}

// IndexWait bounds how long QueryKB waits for the knowledge base's first
// pass of this process (a first indexing of a large folder takes longer;
// the search then answers from what is indexed and says so).
const IndexWait = 10 * time.Second

// Service is the tool layer. Safe for concurrent use.
type Service struct {
	o       Options
	learnMu sync.Mutex // serialises AppendLearning's look-up and write
}

// New returns the tool layer over o's services. DB and KB are required;
// without Notes or Knowledge their operations fail.
func New(o Options) (*Service, error) {
	if o.DB == nil || o.KB == nil {
		return nil, errors.New("interop: DB and KB are required")
	}
	if o.Permissions == nil {
		o.Permissions = func() Permissions { return Permissions{} }
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Service{o: o}, nil
}

// FromCore returns the tool layer over c's services. perms is called for
// every operation; nil reads INTEROP_ALLOW_WRITE and INTEROP_SHARE_NOTES
// from c's configuration.
func FromCore(c *core.Core, perms func() Permissions, indexing func() bool, wait func(context.Context)) (*Service, error) {
	if perms == nil {
		perms = func() Permissions {
			cfg := c.Config()
			return Permissions{AllowWrite: cfg.InteropAllowWrite, ShareNotes: cfg.InteropShareNotes}
		}
	}
	return New(Options{DB: c.DB, KB: c.KB, Notes: c.Notes, Knowledge: c.Knowledge, Permissions: perms,
		Indexing: indexing, WaitIndexed: wait, Log: c.Log})
}

// Permissions returns the current permissions.
func (s *Service) Permissions() Permissions { return s.o.Permissions() }

// canWrite refuses a write while writing is not allowed.
func (s *Service) canWrite() error {
	if !s.o.Permissions().AllowWrite {
		return apperr.New(apperr.InteropWriteNotAllowed, nil)
	}
	return nil
}

// notesShared refuses a notes operation while notes are not shared.
func (s *Service) notesShared() error {
	if !s.o.Permissions().ShareNotes {
		return apperr.New(apperr.InteropNotesNotShared, nil)
	}
	if s.o.Notes == nil {
		return errors.New("interop: no notes service")
	}
	return nil
}

// badArg is an InteropBadArgument error.
func badArg(field, reason string) error {
	return apperr.New(apperr.InteropBadArgument, map[string]any{"field": field, "reason": reason})
}

// limit checks an optional count: 0 takes def, otherwise it must lie in
// [1, max].
func limit(field string, n, def, max int) (int, error) {
	if n == 0 {
		return def, nil
	}
	if n < 1 || n > max {
		return 0, apperr.New(apperr.InteropBadArgument, map[string]any{"field": field,
			"reason": "must be between 1 and " + itoa(max)})
	}
	return n, nil
}
