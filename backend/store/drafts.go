package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// MaxDraftBytes caps one kind of drafts (all its chats or pages together).
const MaxDraftBytes = 32 << 20

// Draft returns the drafts of kind as stored (the window's JSON), "" when
// there are none.
func (d *DB) Draft(ctx context.Context, kind string) (string, error) {
	var data string
	err := d.bun.QueryRowContext(ctx, `SELECT data FROM drafts WHERE kind = ?`, kind).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read drafts: %w", err)
	}
	return data, nil
}

// SetDraft replaces the drafts of kind with data; "" removes them. Data
// longer than MaxDraftBytes is refused and nothing changes.
func (d *DB) SetDraft(ctx context.Context, kind, data string) error {
	if len(data) > MaxDraftBytes {
		return fmt.Errorf("drafts of %s: %d bytes, over %d", kind, len(data), MaxDraftBytes)
	}
	var err error
	if data == "" {
		_, err = d.bun.ExecContext(ctx, `DELETE FROM drafts WHERE kind = ?`, kind)
	} else {
		_, err = d.bun.ExecContext(ctx, `INSERT INTO drafts (kind, data, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (kind) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`, kind, data, now())
	}
	if err != nil {
		return fmt.Errorf("save drafts: %w", err)
	}
	return nil
}
