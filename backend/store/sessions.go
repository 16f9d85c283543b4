package store

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// CreateSession inserts a new session with a fresh UUID and returns it.
func (d *DB) CreateSession(ctx context.Context, title, model string) (Session, error) {
	t := now()
	s := Session{ID: uuid.NewString(), Title: title, Model: model, CreatedAt: t, UpdatedAt: t}
	if _, err := d.bun.NewInsert().Model(&s).Exec(ctx); err != nil {
		return Session{}, fmt.Errorf("create session: %w", err)
	}
	return s, nil
}

// GetSession returns the session with id, or an error wrapping ErrNotFound.
func (d *DB) GetSession(ctx context.Context, id string) (Session, error) {
	var s Session
	err := d.bun.NewSelect().Model(&s).Where("id = ?", id).Scan(ctx)
	if err != nil {
		return Session{}, notFound(err, "session "+id)
	}
	return s, nil
}

// ListSessions returns every session, most recently updated first.
func (d *DB) ListSessions(ctx context.Context) ([]Session, error) {
	var ss []Session
	err := d.bun.NewSelect().Model(&ss).Order("updated_at DESC", "created_at DESC").Scan(ctx)
	return ss, err
}

// RenameSession sets a session's title and returns the session.
func (d *DB) RenameSession(ctx context.Context, id, title string) (Session, error) {
	return d.updateSession(ctx, id, "title", title)
}

// SetSessionModel sets a session's model ("provider/model") and returns it.
func (d *DB) SetSessionModel(ctx context.Context, id, model string) (Session, error) {
	return d.updateSession(ctx, id, "model", model)
}

// updateSession sets one column. updated_at is left alone: it orders the
// session list by conversation activity, and a rename is not activity.
func (d *DB) updateSession(ctx context.Context, id, column, value string) (Session, error) {
	res, err := d.bun.NewUpdate().Table("sessions").Set("? = ?", bun.Ident(column), value).
		Where("id = ?", id).Exec(ctx)
	if err != nil {
		return Session{}, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return Session{}, fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	return d.GetSession(ctx, id)
}

// SetSessionTitleIfEmpty sets the title only while it is still empty (the
// auto-title must never overwrite a title the user typed). It reports whether
// the title was set.
func (d *DB) SetSessionTitleIfEmpty(ctx context.Context, id, title string) (bool, error) {
	res, err := d.bun.NewUpdate().Table("sessions").Set("title = ?", title).
		Where("id = ? AND title = ''", id).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// DeleteSession deletes a session with its messages, memories and tags (by
// cascade). API logs are kept.
func (d *DB) DeleteSession(ctx context.Context, id string) error {
	res, err := d.bun.NewDelete().Table("sessions").Where("id = ?", id).Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	d.sweepQuietly(ctx)
	return nil
}

func touchSession(ctx context.Context, db bun.IDB, id string, t time.Time) error {
	_, err := db.NewUpdate().Table("sessions").Set("updated_at = ?", t).Where("id = ?", id).Exec(ctx)
	return err
}
