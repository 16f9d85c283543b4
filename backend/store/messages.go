package store

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// InsertMessage stores m (its ID and CreatedAt are filled in) and marks the
// session as updated, in one transaction. Status defaults to complete.
func (d *DB) InsertMessage(ctx context.Context, m *Message) error {
	if m.Status == "" {
		m.Status = StatusComplete
	}
	if m.CreatedAt.IsZero() {
		m.CreatedAt = now()
	}
	return d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewInsert().Model(m).Exec(ctx); err != nil {
			return fmt.Errorf("insert message: %w", err)
		}
		return touchSession(ctx, tx, m.SessionID, m.CreatedAt)
	})
}

// UpdateMessageResult rewrites the reply fields of a stored message: content,
// status, error (with its error info), model, token counts and tool activity.
func (d *DB) UpdateMessageResult(ctx context.Context, m *Message) error {
	_, err := d.bun.NewUpdate().Model(m).
		Column("content", "status", "error", "error_info", "model", "prompt_tokens", "completion_tokens", "tool_activity").
		WherePK().Exec(ctx)
	return err
}

// ActiveMessages returns the session's messages that are not archived, oldest
// first: the short-term memory (context layer 5).
func (d *DB) ActiveMessages(ctx context.Context, sessionID string) ([]Message, error) {
	var ms []Message
	err := d.bun.NewSelect().Model(&ms).Where("session_id = ? AND archived_at IS NULL", sessionID).
		Order("id ASC").Scan(ctx)
	return ms, err
}

// SessionMessages returns every message of the session, archived ones
// included, oldest first.
func (d *DB) SessionMessages(ctx context.Context, sessionID string) ([]Message, error) {
	var ms []Message
	err := d.bun.NewSelect().Model(&ms).Where("session_id = ?", sessionID).Order("id ASC").Scan(ctx)
	return ms, err
}

// CountActiveMessages counts the session's messages that are not archived.
func (d *DB) CountActiveMessages(ctx context.Context, sessionID string) (int, error) {
	return d.bun.NewSelect().Model((*Message)(nil)).
		Where("session_id = ? AND archived_at IS NULL", sessionID).Count(ctx)
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
