package store

import (
	"context"
	"fmt"
	"slices"

	"github.com/uptrace/bun"

	"playchat/backend/apperr"
)

// MaxMessageBytes is the most bytes the text of one message may hold
// (1 MiB), whatever its role and wherever it comes from: typed in the
// window or the CLI, streamed from a model, imported, or sent from Discord.
// The services refuse or cut a longer text before it gets here (the rules
// in backend/session, the reply cap in backend/chat); InsertMessage and
// InsertBranch refuse one all the same (CheckContentSize).
const MaxMessageBytes = 1 << 20

// CheckContentSize returns a coded apperr.ChatMessageTooLong error when
// content is longer than MaxMessageBytes, else nil.
func CheckContentSize(content string) error {
	if len(content) > MaxMessageBytes {
		return apperr.New(apperr.ChatMessageTooLong, map[string]any{"bytes": len(content), "maxMiB": MaxMessageBytes >> 20})
	}
	return nil
}

// InsertMessage stores m (its ID and CreatedAt are filled in) and marks the
// session as updated, in one transaction. Status defaults to complete. A
// content longer than MaxMessageBytes is refused (nothing is stored).
//
// m.ParentID nil appends m to the session's selected branch (its parent is
// the active leaf). m becomes the active leaf when its parent was the active
// leaf (or the session was empty), so a reply to a question the user has
// since switched away from is stored on its branch without taking the
// window there. InsertBranch starts a sibling instead. m.Files are stored
// (their bytes first, content-addressed) and linked in the same
// transaction: when it fails, nothing refers to the bytes and
// SweepAttachments removes them. A reply inserted with
// status streaming carries this DB's owner id (streams.go).
func (d *DB) InsertMessage(ctx context.Context, m *Message) error {
	if err := CheckContentSize(m.Content); err != nil {
		return err
	}
	if m.Status == "" {
		m.Status = StatusComplete
	}
	m.StreamOwner = ""
	if m.Status == StatusStreaming {
		m.StreamOwner = d.owner
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
		leaf, err := activeLeaf(ctx, tx, m.SessionID)
		if err != nil {
			return err
		}
		if m.ParentID == nil {
			m.ParentID = leaf
		}
		if _, err := tx.NewInsert().Model(m).Exec(ctx); err != nil {
			return fmt.Errorf("insert message: %w", err)
		}
		if err := linkFiles(ctx, tx, m.ID, m.Files); err != nil {
			return err
		}
		if m.ContextUsage != "" {
			if err := saveContextUsage(ctx, tx, m.ID, m.ContextUsage); err != nil {
				return fmt.Errorf("insert context report: %w", err)
			}
		}
		if leaf == nil || (m.ParentID != nil && *m.ParentID == *leaf) {
			if err := setActiveLeaf(ctx, tx, m.SessionID, m.ID); err != nil {
				return err
			}
		}
		return touchSession(ctx, tx, m.SessionID, m.CreatedAt)
	})
}

// UpdateMessageResult rewrites the reply fields of a stored message: content,
// status, error (with its error info), model, token counts, tool activity
// and cited sources.
func (d *DB) UpdateMessageResult(ctx context.Context, m *Message) error {
	_, err := d.bun.NewUpdate().Model(m).
		Column("content", "status", "error", "error_info", "model", "prompt_tokens", "completion_tokens", "tool_activity", "sources").
		WherePK().Exec(ctx)
	return err
}

// ActiveMessages returns the messages of the session's selected branch
// (tree.go) that are not archived, oldest first: the short-term memory
// (context layer 5) and what the summariser archives from.
func (d *DB) ActiveMessages(ctx context.Context, sessionID string) ([]Message, error) {
	forked, err := d.sessionForked(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	var ms []Message
	q := d.bun.NewSelect().Model(&ms).Where("session_id = ? AND archived_at IS NULL", sessionID)
	if forked {
		q = q.Where("id IN ("+branchIDs+")", sessionID)
	}
	err = q.Order("id ASC").Scan(ctx)
	return ms, err
}

// historyColumns are the columns ActiveHistory reads.
var historyColumns = []string{"id", "session_id", "parent_id", "role", "content", "status", "model"}

// ActiveHistory returns the messages ActiveMessages returns, oldest first,
// with only what a request's history is made of: ID, SessionID, ParentID,
// Role, Content, Status and Model, and their Files (LoadFiles); the other
// fields are zero. Every chat turn and every preview of the context meter
// reads it, so it leaves out what they never use (timestamps, errors,
// token counts, tool activity), whose decoding was most of the cost of
// reading thousands of messages (issue 29).
func (d *DB) ActiveHistory(ctx context.Context, sessionID string) ([]Message, error) {
	var ms []Message
	q, err := d.activeHistoryQuery(ctx, sessionID, &ms)
	if err != nil {
		return nil, err
	}
	if err := q.Order("id ASC").Scan(ctx); err != nil {
		return nil, err
	}
	return ms, d.LoadFiles(ctx, ms)
}

// activeHistoryQuery selects ActiveHistory's columns of the session's
// active messages (its selected branch when it forked) into ms.
func (d *DB) activeHistoryQuery(ctx context.Context, sessionID string, ms *[]Message) (*bun.SelectQuery, error) {
	forked, err := d.sessionForked(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	q := d.bun.NewSelect().Model(ms).Column(historyColumns...).Where("session_id = ? AND archived_at IS NULL", sessionID)
	if forked {
		q = q.Where("id IN ("+branchIDs+")", sessionID)
	}
	return q, nil
}

// pathIDs selects the ids of the messages above a message (its parent, the
// parent's parent, … to the first message), as branchIDs does from a
// session's active leaf.
const pathIDs = `WITH RECURSIVE path(id) AS (
		SELECT parent_id FROM messages WHERE id = ?
		UNION
		SELECT p.parent_id FROM messages p JOIN path ON p.id = path.id WHERE p.parent_id IS NOT NULL
	) SELECT id FROM path WHERE id IS NOT NULL`

// HistoryBefore returns the messages above message id in its branch (its
// parent up to the session's first message) that are not archived, oldest
// first, with ActiveHistory's columns and their Files: what a new version
// of id is sent after, whichever branch is selected.
func (d *DB) HistoryBefore(ctx context.Context, id int64) ([]Message, error) {
	var ms []Message
	err := d.bun.NewSelect().Model(&ms).Column(historyColumns...).
		Where("archived_at IS NULL AND id IN ("+pathIDs+")", id).Order("id ASC").Scan(ctx)
	if err != nil {
		return nil, err
	}
	return ms, d.LoadFiles(ctx, ms)
}

// ActiveHistoryTail returns the newest limit messages of those
// ActiveHistory returns whose id is below before (0: no bound), oldest
// first, with the same columns and their Files. A turn reads a long chat's
// history back from its end a page at a time and stops once what it read
// fills the request by itself (chat's historyWithin): the older messages
// could not be sent anyway.
func (d *DB) ActiveHistoryTail(ctx context.Context, sessionID string, before int64, limit int) ([]Message, error) {
	var ms []Message
	q, err := d.activeHistoryQuery(ctx, sessionID, &ms)
	if err != nil {
		return nil, err
	}
	if before > 0 {
		q = q.Where("id < ?", before)
	}
	if err := q.Order("id DESC").Limit(limit).Scan(ctx); err != nil {
		return nil, err
	}
	slices.Reverse(ms)
	return ms, d.LoadFiles(ctx, ms)
}

// SessionMessages returns every message of the session, of every branch,
// archived ones included, oldest first (export; BranchMessages is what the
// window shows).
func (d *DB) SessionMessages(ctx context.Context, sessionID string) ([]Message, error) {
	var ms []Message
	err := d.bun.NewSelect().Model(&ms).Where("session_id = ?", sessionID).Order("id ASC").Scan(ctx)
	return ms, err
}

// CountActiveMessages counts the messages of the session's selected branch
// that are not archived.
func (d *DB) CountActiveMessages(ctx context.Context, sessionID string) (int, error) {
	forked, err := d.sessionForked(ctx, sessionID)
	if err != nil {
		return 0, err
	}
	q := d.bun.NewSelect().Model((*Message)(nil)).Where("session_id = ? AND archived_at IS NULL", sessionID)
	if forked {
		q = q.Where("id IN ("+branchIDs+")", sessionID)
	}
	return q.Count(ctx)
}

// MessageTags returns the tags of the given messages, keyed by message id.
func (d *DB) MessageTags(ctx context.Context, ids []int64) (map[int64][]string, error) {
	out := map[int64][]string{}
	if len(ids) == 0 {
		return out, nil
	}
	var tags []MessageTag
	if err := d.bun.NewSelect().Model(&tags).Where("message_id IN (?)", bun.In(ids)).Order("id").Scan(ctx); err != nil {
		return nil, err
	}
	for _, t := range tags {
		out[t.MessageID] = append(out[t.MessageID], t.Tag)
	}
	return out, nil
}
