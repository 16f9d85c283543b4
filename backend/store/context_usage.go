package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"
)

// ContextUsage is a row of turn_context_usage (MigrationTurnContextUsage):
// the context report of the request that produced an assistant reply.
type ContextUsage struct {
	bun.BaseModel `bun:"table:turn_context_usage"`

	// MessageID is the assistant reply's id.
	MessageID int64 `bun:"message_id,pk"`
	// Report is the chat.ContextReport as JSON.
	Report string `bun:"report"`
}

// SaveContextUsage stores (or replaces) the context report of reply
// messageID; report is JSON.
// (InsertMessage stores a new reply's report with it: Message.ContextUsage.)
func (d *DB) SaveContextUsage(ctx context.Context, messageID int64, report string) error {
	return saveContextUsage(ctx, d.bun, messageID, report)
}

func saveContextUsage(ctx context.Context, db bun.IDB, messageID int64, report string) error {
	_, err := db.NewInsert().Model(&ContextUsage{MessageID: messageID, Report: report}).
		On("CONFLICT (message_id) DO UPDATE").Set("report = EXCLUDED.report").Exec(ctx)
	return err
}

// GetContextUsage returns the stored report JSON of reply messageID and
// true, or "" and false when none was stored (a reply from before
// MigrationTurnContextUsage, a user message, or a turn that failed before
// its context was built).
func (d *DB) GetContextUsage(ctx context.Context, messageID int64) (string, bool, error) {
	var u ContextUsage
	err := d.bun.NewSelect().Model(&u).Where("message_id = ?", messageID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return u.Report, true, nil
}
