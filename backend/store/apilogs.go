package store

import (
	"context"
	"fmt"
)

// InsertAPILog stores one LLM call record. CreatedAt defaults to now.
func (d *DB) InsertAPILog(ctx context.Context, l *APILog) error {
	if l.CreatedAt.IsZero() {
		l.CreatedAt = now()
	}
	_, err := d.bun.NewInsert().Model(l).Exec(ctx)
	return err
}

// ListAPILogs returns one page of logs, newest first, and the total count.
// limit is capped to 500.
func (d *DB) ListAPILogs(ctx context.Context, limit, offset int) ([]APILog, int, error) {
	if limit <= 0 || limit > 500 {
		limit = 500
	}
	var ls []APILog
	total, err := d.bun.NewSelect().Model(&ls).
		ExcludeColumn("request_json").
		Order("id DESC").Limit(limit).Offset(max(offset, 0)).ScanAndCount(ctx)
	return ls, total, err
}

// GetAPILog returns one log with its request and response.
func (d *DB) GetAPILog(ctx context.Context, id int64) (APILog, error) {
	var l APILog
	if err := d.bun.NewSelect().Model(&l).Where("id = ?", id).Scan(ctx); err != nil {
		return APILog{}, notFound(err, fmt.Sprintf("log %d", id))
	}
	return l, nil
}

// DeleteAPILog deletes one log.
func (d *DB) DeleteAPILog(ctx context.Context, id int64) error {
	res, err := d.bun.NewDelete().Table("api_logs").Where("id = ?", id).Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("log %d: %w", id, ErrNotFound)
	}
	return nil
}

// ClearAPILogs deletes every log.
func (d *DB) ClearAPILogs(ctx context.Context) error {
	_, err := d.bun.NewDelete().Table("api_logs").Where("1 = 1").Exec(ctx)
	return err
}

// SessionUsage is the token usage of one session's logged LLM calls.
type SessionUsage struct {
	// SessionID is "" for calls made outside a session (model checks,
	// embeddings of the knowledge base).
	SessionID string `bun:"session_id"`
	// Title is the session's title ("" when the session was deleted or
	// SessionID is "").
	Title string `bun:"title"`
	// Calls counts the logged calls.
	Calls int `bun:"calls"`
	// PromptTokens and CompletionTokens sum the usage the providers
	// reported (calls without usage count 0).
	PromptTokens     int `bun:"prompt_tokens"`
	CompletionTokens int `bun:"completion_tokens"`
}

// APILogUsage returns the token usage of the logged calls per session, the
// session used most recently first.
func (d *DB) APILogUsage(ctx context.Context) ([]SessionUsage, error) {
	var out []SessionUsage
	err := d.bun.NewRaw(`SELECT COALESCE(l.session_id, '') AS session_id, COALESCE(s.title, '') AS title,
			COUNT(*) AS calls, COALESCE(SUM(l.prompt_tokens), 0) AS prompt_tokens,
			COALESCE(SUM(l.completion_tokens), 0) AS completion_tokens
		FROM api_logs l LEFT JOIN sessions s ON s.id = l.session_id
		GROUP BY COALESCE(l.session_id, '')
		ORDER BY MAX(l.id) DESC`).Scan(ctx, &out)
	return out, err
}
