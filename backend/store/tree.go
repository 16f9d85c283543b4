package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/uptrace/bun"
)

// The message tree (issue 9). Every message has a parent (nil for the
// first message of a session); a regenerated reply or an edited question is
// a new sibling of the message it replaces, so no version is overwritten.
// sessions.active_leaf_id names the last message of the selected branch:
// the path from it to the root is what the window shows, what the context
// builder sends and what the summariser archives. A child's id is always
// larger than its parent's (it is inserted later), so a branch in id order
// is a branch from the root down.

// branchIDs selects the ids of the session's selected branch (the path
// from its active leaf to the root). A session whose active leaf was never
// set (rows written by raw SQL) uses its newest message. UNION, not UNION
// ALL, so even a corrupt cycle ends.
const branchIDs = `WITH RECURSIVE path(id) AS (
		SELECT COALESCE(s.active_leaf_id, (SELECT MAX(x.id) FROM messages x WHERE x.session_id = s.id))
		FROM sessions s WHERE s.id = ?
		UNION
		SELECT p.parent_id FROM messages p JOIN path ON p.id = path.id WHERE p.parent_id IS NOT NULL
	) SELECT id FROM path WHERE id IS NOT NULL`

// BranchMessages returns the messages of the session's selected branch,
// archived ones included, from the first message to the active leaf.
func (d *DB) BranchMessages(ctx context.Context, sessionID string) ([]Message, error) {
	forked, err := d.sessionForked(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	var ms []Message
	q := d.bun.NewSelect().Model(&ms).Where("session_id = ?", sessionID)
	if forked {
		q = q.Where("id IN ("+branchIDs+")", sessionID)
	}
	err = q.Order("id ASC").Scan(ctx)
	return ms, err
}

// GetMessage returns the message with id, or an error wrapping ErrNotFound.
func (d *DB) GetMessage(ctx context.Context, id int64) (Message, error) {
	var m Message
	if err := d.bun.NewSelect().Model(&m).Where("id = ?", id).Scan(ctx); err != nil {
		return Message{}, notFound(err, fmt.Sprintf("message %d", id))
	}
	return m, nil
}

// ActiveLeaf returns the id of the last message of the session's selected
// branch; 0 when the session has no message.
func (d *DB) ActiveLeaf(ctx context.Context, sessionID string) (int64, error) {
	leaf, err := activeLeaf(ctx, d.bun, sessionID)
	if err != nil || leaf == nil {
		return 0, err
	}
	return *leaf, nil
}

func activeLeaf(ctx context.Context, db bun.IDB, sessionID string) (*int64, error) {
	var leaf sql.NullInt64
	err := db.NewRaw(`SELECT COALESCE(s.active_leaf_id, (SELECT MAX(x.id) FROM messages x WHERE x.session_id = s.id))
		FROM sessions s WHERE s.id = ?`, sessionID).Scan(ctx, &leaf)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !leaf.Valid) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("active leaf of session %s: %w", sessionID, err)
	}
	return &leaf.Int64, nil
}

func setActiveLeaf(ctx context.Context, db bun.IDB, sessionID string, id int64) error {
	_, err := db.NewUpdate().Table("sessions").Set("active_leaf_id = ?", id).Where("id = ?", sessionID).Exec(ctx)
	return err
}

// InsertBranch stores m as a child of parentID (nil: a new first message of
// the session) — a sibling of the message it replaces — and selects it: it
// becomes the session's active leaf. Like InsertMessage it fills in ID and
// CreatedAt and marks the session as updated. The parent must be a message
// of the same session, else the error wraps ErrNotFound. A content longer
// than MaxMessageBytes is refused, as by InsertMessage; m.Files are stored
// and linked as by InsertMessage.
func (d *DB) InsertBranch(ctx context.Context, m *Message, parentID *int64) error {
	if err := CheckContentSize(m.Content); err != nil {
		return err
	}
	if m.Status == "" {
		m.Status = StatusComplete
	}
	if m.CreatedAt.IsZero() {
		m.CreatedAt = now()
	}
	if len(m.Files) > 0 {
		blobMu.Lock()
		defer blobMu.Unlock()
		if err := d.writeFiles(m.Files); err != nil {
			return err
		}
	}
	return d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if parentID != nil {
			n, err := tx.NewSelect().Table("messages").Where("id = ? AND session_id = ?", *parentID, m.SessionID).Count(ctx)
			if err != nil {
				return err
			}
			if n == 0 {
				return fmt.Errorf("message %d of session %s: %w", *parentID, m.SessionID, ErrNotFound)
			}
		}
		m.ParentID = parentID
		if _, err := tx.NewInsert().Model(m).Exec(ctx); err != nil {
			return fmt.Errorf("insert message: %w", err)
		}
		if err := linkFiles(ctx, tx, m.ID, m.Files); err != nil {
			return err
		}
		if err := setActiveLeaf(ctx, tx, m.SessionID, m.ID); err != nil {
			return err
		}
		return touchSession(ctx, tx, m.SessionID, m.CreatedAt)
	})
}

// SelectMessage makes message id the end of the session's selected branch
// (the regenerate of a reply selects the question it answers while the new
// reply streams). The error wraps ErrNotFound when id is not a message of
// the session.
func (d *DB) SelectMessage(ctx context.Context, sessionID string, id int64) error {
	res, err := d.bun.NewUpdate().Table("sessions").Set("active_leaf_id = ?", id).
		Where("id = ? AND EXISTS (SELECT 1 FROM messages m WHERE m.id = ? AND m.session_id = ?)", sessionID, id, sessionID).
		Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("message %d of session %s: %w", id, sessionID, ErrNotFound)
	}
	return nil
}

// SelectBranch switches the session to the branch through message id: the
// active leaf becomes the newest leaf below it (the message of the subtree
// with the largest id, which has no children since they would be newer). It
// returns that leaf's id; the error wraps ErrNotFound when id is not a
// message of the session.
func (d *DB) SelectBranch(ctx context.Context, sessionID string, id int64) (int64, error) {
	var leaf int64
	err := d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		n, err := tx.NewSelect().Table("messages").Where("id = ? AND session_id = ?", id, sessionID).Count(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("message %d of session %s: %w", id, sessionID, ErrNotFound)
		}
		if err := tx.NewRaw(`WITH RECURSIVE sub(id) AS (
				SELECT ? UNION SELECT c.id FROM messages c JOIN sub ON c.parent_id = sub.id
			) SELECT MAX(id) FROM sub`, id).Scan(ctx, &leaf); err != nil {
			return err
		}
		return setActiveLeaf(ctx, tx, sessionID, leaf)
	})
	return leaf, err
}

// maxInParams keeps an IN list well below SQLite's limit of 32,766 bound
// parameters.
const maxInParams = 10000

// SiblingIDs returns, for each of the given messages of the session, the
// ids of the messages that share its parent (itself included), oldest first.
// A message without siblings maps to a list of one.
func (d *DB) SiblingIDs(ctx context.Context, sessionID string, ms []Message) (map[int64][]int64, error) {
	out := map[int64][]int64{}
	if len(ms) == 0 {
		return out, nil
	}
	parents := []int64{}
	for _, m := range ms {
		if m.ParentID != nil {
			parents = append(parents, *m.ParentID)
		}
	}
	var rows []struct {
		ID       int64  `bun:"id"`
		ParentID *int64 `bun:"parent_id"`
	}
	q := d.bun.NewSelect().Table("messages").Column("id", "parent_id").Where("session_id = ?", sessionID)
	switch {
	case len(parents) > maxInParams:
		// Past SQLite's bound-parameter limit: read the whole session's links.
	case len(parents) > 0:
		q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("parent_id IS NULL").WhereOr("parent_id IN (?)", bun.In(parents))
		})
	default:
		q = q.Where("parent_id IS NULL")
	}
	if err := q.Order("id ASC").Scan(ctx, &rows); err != nil {
		return nil, err
	}
	byParent := map[int64][]int64{} // 0: the roots
	for _, r := range rows {
		var p int64
		if r.ParentID != nil {
			p = *r.ParentID
		}
		byParent[p] = append(byParent[p], r.ID)
	}
	for _, m := range ms {
		var p int64
		if m.ParentID != nil {
			p = *m.ParentID
		}
		out[m.ID] = byParent[p]
	}
	return out, nil
}

// ErrAnswered is wrapped by DeleteUnanswered's error when the question has
// a reply with text.
var ErrAnswered = errors.New("the question has a reply")

// DeleteUnanswered removes user message id of the session together with
// its replies that hold no text (failed, or stopped before their first
// word), in one transaction. Messages sent after them (children of those
// replies, or of the question) move up to the question's parent, so the
// conversation stays one branch; an active leaf that was removed becomes
// the question's parent. The error wraps ErrNotFound when id is not a user
// message of the session and ErrAnswered when one of its replies has text
// (or it was summarised into memory: archived) — nothing changes then.
func (d *DB) DeleteUnanswered(ctx context.Context, sessionID string, id int64) error {
	defer d.sweepQuietly(ctx)
	return d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		var q Message
		if err := tx.NewSelect().Model(&q).Where("id = ? AND session_id = ? AND role = ?", id, sessionID, RoleUser).
			Scan(ctx); err != nil {
			return notFound(err, fmt.Sprintf("user message %d of session %s", id, sessionID))
		}
		if q.ArchivedAt != nil {
			return fmt.Errorf("message %d is archived: %w", id, ErrAnswered)
		}
		var replies []Message
		if err := tx.NewSelect().Model(&replies).Where("parent_id = ?", id).Order("id ASC").Scan(ctx); err != nil {
			return err
		}
		gone := []int64{id}
		for _, r := range replies {
			if r.Role == RoleAssistant && strings.TrimSpace(r.Content) != "" {
				return fmt.Errorf("message %d: %w", id, ErrAnswered)
			}
			if r.Role == RoleAssistant {
				gone = append(gone, r.ID)
			}
		}
		// What was sent after: children of the removed rows that stay.
		if _, err := tx.NewUpdate().Table("messages").Set("parent_id = ?", q.ParentID).
			Where("parent_id IN (?)", bun.In(gone)).Where("id NOT IN (?)", bun.In(gone)).Exec(ctx); err != nil {
			return fmt.Errorf("move later messages up: %w", err)
		}
		leaf, err := activeLeaf(ctx, tx, sessionID)
		if err != nil {
			return err
		}
		if _, err := tx.NewDelete().Table("messages").Where("id IN (?)", bun.In(gone)).Exec(ctx); err != nil {
			return fmt.Errorf("delete unanswered question: %w", err)
		}
		if leaf != nil && slices.Contains(gone, *leaf) {
			if _, err := tx.NewUpdate().Table("sessions").Set("active_leaf_id = ?", q.ParentID).
				Where("id = ?", sessionID).Exec(ctx); err != nil {
				return err
			}
		}
		return touchSession(ctx, tx, sessionID, now())
	})
}

// sessionForked reports whether reading the session's selected branch needs
// the walk of the parent chain (branchIDs): the session has branched
// (MigrationSessionForked), or its active leaf is not its newest message (a
// regenerate answers an earlier question before its reply exists). When it
// is false, the selected branch is all of the session's messages. An
// unknown session counts as forked, so callers take the general path and
// find nothing.
func (d *DB) sessionForked(ctx context.Context, sessionID string) (bool, error) {
	var forked []bool
	err := d.bun.NewSelect().Table("sessions").
		ColumnExpr(`forked OR (active_leaf_id IS NOT NULL AND active_leaf_id IS NOT
			(SELECT MAX(m.id) FROM messages m WHERE m.session_id = sessions.id))`).
		Where("id = ?", sessionID).Scan(ctx, &forked)
	if err != nil {
		return false, err
	}
	return len(forked) == 0 || forked[0], nil
}
