package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"playchat/backend/apperr"
	"playchat/backend/filelock"
)

// Replies written as they stream (issue 21). A turn inserts its reply with
// status streaming when the first text arrives and updates it as it grows
// (backend/chat), so a process killed mid-reply — kill -9, a crash, a power
// cut — leaves the text that had arrived in the database. The row then
// still says streaming; the next start of any playchat process on the data
// dir marks it partial (error when it had no text yet) with the coded
// reason ChatReplyInterrupted, and the window shows it as interrupted.
//
// Several processes may use one database at once (the window and `playchat
// ask`), so a start must never mark a reply another live process is still
// writing. Each open DB is an owner: it holds an exclusive file lock on
// <data dir>/run/<owner id>.lock for as long as it is open, and every reply
// it streams carries that id in messages.stream_owner. A streaming row is
// interrupted exactly when its owner's lock can be taken (or its file is
// gone): the operating system drops a lock with the process that held it,
// however it ended, so no heartbeat or timeout guesses at liveness.

// OwnerDir is the folder beside the database holding the owners' lock files.
const OwnerDir = "run"

// claimOwner makes d an owner: a new id and its lock file, held until Close.
func (d *DB) claimOwner() error {
	dir := filepath.Join(filepath.Dir(d.path), OwnerDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	id := uuid.NewString()
	l, err := filelock.TryLock(filepath.Join(dir, id+".lock"))
	if err != nil {
		return fmt.Errorf("claim a stream owner: %w", err)
	}
	d.owner, d.ownerLock = id, l
	return nil
}

// Owner is this DB's stream-owner id: InsertMessage stamps it on a reply
// inserted with status streaming.
func (d *DB) Owner() string { return d.owner }

// ownerFile is the lock file of owner id, or "" when id cannot be one (ids
// come from the database: never a path).
func (d *DB) ownerFile(id string) string {
	if _, err := uuid.Parse(id); err != nil || strings.ContainsAny(id, `/\.`) {
		return ""
	}
	return filepath.Join(filepath.Dir(d.path), OwnerDir, id+".lock")
}

// ownerGone reports whether owner id has ended; when it has and its lock
// file exists, the lock is returned held (Remove it once its rows are
// marked). An owner whose liveness cannot be learned counts as alive.
func (d *DB) ownerGone(id string) (bool, *filelock.Lock) {
	path := d.ownerFile(id)
	if path == "" {
		return true, nil
	}
	l, err := filelock.TryLockExisting(path)
	switch {
	case err == nil:
		return true, l
	case errors.Is(err, os.ErrNotExist):
		return true, nil
	default:
		return false, nil // held (ErrLocked), or unreadable: leave its rows
	}
}

// RecoverInterrupted marks the replies left streaming by owners that have
// ended — partial when they have text, error when not — with the error
// ChatReplyInterrupted, and removes ended owners' lock files. It returns
// how many replies it marked. Open runs it; the window and a regenerate
// run it again when they meet a streaming reply, since an owner may end
// while this process runs. Rows of live owners are never touched.
func (d *DB) RecoverInterrupted(ctx context.Context) (int, error) {
	var owners []string
	if err := d.bun.NewSelect().Model((*Message)(nil)).ColumnExpr("DISTINCT stream_owner").
		Where("status = ?", StatusStreaming).Scan(ctx, &owners); err != nil {
		return 0, err
	}
	info := apperr.InfoOf(apperr.New(apperr.ChatReplyInterrupted, nil))
	infoJSON, err := json.Marshal(info)
	if err != nil {
		return 0, err
	}
	total := 0
	for _, o := range owners {
		if o == d.owner {
			continue
		}
		gone, l := d.ownerGone(o)
		if !gone {
			continue
		}
		res, err := d.bun.NewUpdate().Model((*Message)(nil)).
			Set("status = CASE WHEN trim(content) = '' THEN ? ELSE ? END", StatusError, StatusPartial).
			Set("error = ?", info.Message).Set("error_info = ?", string(infoJSON)).Set("stream_owner = ''").
			Where("status = ? AND stream_owner = ?", StatusStreaming, o).Exec(ctx)
		if err != nil {
			l.Unlock()
			return total, err
		}
		n, _ := res.RowsAffected()
		total += int(n)
		l.Remove()
	}
	d.removeEndedOwners()
	return total, nil
}

// removeEndedOwners deletes the lock files of owners that have ended (a
// process killed without rows left streaming leaves its file behind).
func (d *DB) removeEndedOwners() {
	dir := filepath.Join(filepath.Dir(d.path), OwnerDir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".lock")
		if !ok || id == d.owner {
			continue
		}
		if gone, l := d.ownerGone(id); gone {
			l.Remove()
		}
	}
}

// UpdateStreaming writes what a streaming reply has so far — its text,
// tool activity and cited sources — in one small UPDATE of its row. It
// changes nothing once the reply is no longer streaming.
func (d *DB) UpdateStreaming(ctx context.Context, m *Message) error {
	_, err := d.bun.NewUpdate().Model(m).Column("content", "tool_activity", "sources").
		WherePK().Where("status = ?", StatusStreaming).Exec(ctx)
	return err
}

// FinishReply stores the end of a reply that was inserted streaming (m.ID
// set): its final text, status, error, model, token counts, tool activity
// and sources, and its context report (m.ContextUsage), in one transaction
// that also marks the session as updated.
func (d *DB) FinishReply(ctx context.Context, m *Message) error {
	if m.Status == "" || m.Status == StatusStreaming {
		m.Status = StatusComplete
	}
	m.StreamOwner = ""
	return d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewUpdate().Model(m).
			Column("content", "status", "error", "error_info", "model", "prompt_tokens", "completion_tokens",
				"tool_activity", "sources", "stream_owner").
			WherePK().Exec(ctx)
		if err != nil {
			return fmt.Errorf("finish reply: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("reply %d: %w", m.ID, ErrNotFound)
		}
		if m.ContextUsage != "" {
			if err := saveContextUsage(ctx, tx, m.ID, m.ContextUsage); err != nil {
				return fmt.Errorf("insert context report: %w", err)
			}
		}
		return touchSession(ctx, tx, m.SessionID, now())
	})
}
