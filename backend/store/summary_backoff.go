package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/uptrace/bun"
)

// SummaryBackoff is a row of summary_backoff: a session whose background
// summaries failed (backend/memory). A session without a row has no
// failures.
type SummaryBackoff struct {
	bun.BaseModel `bun:"table:summary_backoff"`

	SessionID string `bun:"session_id,pk"`
	// Failures counts the summaries that failed in a row (≥ 1).
	Failures int `bun:"failures"`
	// LastError is the last failure's message.
	LastError string `bun:"last_error"`
	// NextAttemptAt is when the next summary may run (UTC).
	NextAttemptAt time.Time `bun:"next_attempt_at"`
	UpdatedAt     time.Time `bun:"updated_at"`
}

// GetSummaryBackoff returns the session's row and true, or a zero value and
// false when its summaries have not failed.
func (d *DB) GetSummaryBackoff(ctx context.Context, sessionID string) (SummaryBackoff, bool, error) {
	var b SummaryBackoff
	err := d.bun.NewSelect().Model(&b).Where("session_id = ?", sessionID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return SummaryBackoff{}, false, nil
	}
	if err != nil {
		return SummaryBackoff{}, false, err
	}
	return b, true, nil
}

// SaveSummaryBackoff inserts or replaces the session's row. A session that
// does not exist (deleted meanwhile) is not an error: nothing is stored.
func (d *DB) SaveSummaryBackoff(ctx context.Context, b SummaryBackoff) error {
	b.UpdatedAt = now()
	b.NextAttemptAt = b.NextAttemptAt.UTC()
	_, err := d.bun.NewInsert().Model(&b).
		On("CONFLICT (session_id) DO UPDATE").
		Set("failures = EXCLUDED.failures").Set("last_error = EXCLUDED.last_error").
		Set("next_attempt_at = EXCLUDED.next_attempt_at").Set("updated_at = EXCLUDED.updated_at").
		Exec(ctx)
	if err != nil {
		if exists, _ := d.bun.NewSelect().Table("sessions").Where("id = ?", b.SessionID).Exists(ctx); !exists {
			return nil
		}
	}
	return err
}

// ClearSummaryBackoff deletes the session's row (its summary worked).
func (d *DB) ClearSummaryBackoff(ctx context.Context, sessionID string) error {
	_, err := d.bun.NewDelete().Model((*SummaryBackoff)(nil)).Where("session_id = ?", sessionID).Exec(ctx)
	return err
}
