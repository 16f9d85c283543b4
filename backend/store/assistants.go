package store

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Assistant is a row of assistants (MigrationAssistants): named chat
// settings a new chat copies.
type Assistant struct {
	bun.BaseModel `bun:"table:assistants"`

	ID          int64  `bun:"id,pk,autoincrement"`
	Name        string `bun:"name"`
	Icon        string `bun:"icon"`
	Description string `bun:"description"`
	// Settings is ChatSettings as JSON ("" = all defaults).
	Settings string `bun:"settings"`
	// NotePageIDs is a JSON array of the note pages pinned to a chat started
	// from the assistant ("" = none).
	NotePageIDs string `bun:"note_page_ids"`
	// KBDomain is the top-level knowledge-base folder the KB layer keeps to
	// in such a chat ("" = the whole knowledge base).
	KBDomain string `bun:"kb_domain"`
	Position int    `bun:"position"`
	// Version starts at 1 and grows with every edit.
	Version int `bun:"version"`
	// BuiltinKey names a built-in assistant ("" for the user's own).
	BuiltinKey string    `bun:"builtin_key"`
	CreatedAt  time.Time `bun:"created_at"`
	UpdatedAt  time.Time `bun:"updated_at"`
}

// ListAssistants returns every assistant in the user's order.
func (d *DB) ListAssistants(ctx context.Context) ([]Assistant, error) {
	var as []Assistant
	err := d.bun.NewSelect().Model(&as).Order("position", "id").Scan(ctx)
	return as, err
}

// GetAssistant returns assistant id, or an error wrapping ErrNotFound.
func (d *DB) GetAssistant(ctx context.Context, id int64) (Assistant, error) {
	var a Assistant
	if err := d.bun.NewSelect().Model(&a).Where("id = ?", id).Scan(ctx); err != nil {
		return Assistant{}, notFound(err, fmt.Sprintf("assistant %d", id))
	}
	return a, nil
}

// InsertAssistant stores a as a new assistant at the end of the order
// (version 1); a.ID, Position, Version and the times are set.
func (d *DB) InsertAssistant(ctx context.Context, a *Assistant) error {
	return d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error { return insertAssistant(ctx, tx, a) })
}

// InsertAssistantTx is InsertAssistant inside tx (imports, seeding).
func InsertAssistantTx(ctx context.Context, tx bun.IDB, a *Assistant) error {
	return insertAssistant(ctx, tx, a)
}

func insertAssistant(ctx context.Context, db bun.IDB, a *Assistant) error {
	var last int
	if err := db.NewSelect().Table("assistants").ColumnExpr("COALESCE(MAX(position), -1)").Scan(ctx, &last); err != nil {
		return err
	}
	t := now()
	a.ID, a.Position, a.Version, a.CreatedAt, a.UpdatedAt = 0, last+1, 1, t, t
	_, err := db.NewInsert().Model(a).Exec(ctx)
	if err != nil {
		return fmt.Errorf("insert assistant: %w", err)
	}
	return nil
}

// UpdateAssistant stores a's name, icon, description, settings, pages and
// KB folder, bumps its version and returns the row.
func (d *DB) UpdateAssistant(ctx context.Context, a Assistant) (Assistant, error) {
	res, err := d.bun.NewUpdate().Table("assistants").
		Set("name = ?", a.Name).Set("icon = ?", a.Icon).Set("description = ?", a.Description).
		Set("settings = ?", a.Settings).Set("note_page_ids = ?", a.NotePageIDs).Set("kb_domain = ?", a.KBDomain).
		Set("version = version + 1").Set("updated_at = ?", now()).
		Where("id = ?", a.ID).Exec(ctx)
	if err != nil {
		return Assistant{}, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return Assistant{}, fmt.Errorf("assistant %d: %w", a.ID, ErrNotFound)
	}
	return d.GetAssistant(ctx, a.ID)
}

// DeleteAssistant deletes assistant id; chats started from it keep their
// copy of its settings (their assistant_id becomes NULL).
func (d *DB) DeleteAssistant(ctx context.Context, id int64) error {
	res, err := d.bun.NewDelete().Table("assistants").Where("id = ?", id).Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("assistant %d: %w", id, ErrNotFound)
	}
	return nil
}

// ReorderAssistants sets the order to ids, which must list every assistant
// exactly once (ok false otherwise, and nothing changes).
func (d *DB) ReorderAssistants(ctx context.Context, ids []int64) (ok bool, err error) {
	err = d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		var have []int64
		if err := tx.NewSelect().Table("assistants").Column("id").Scan(ctx, &have); err != nil {
			return err
		}
		if len(have) != len(ids) {
			return nil
		}
		known := map[int64]bool{}
		for _, id := range have {
			known[id] = true
		}
		for _, id := range ids {
			if !known[id] {
				return nil
			}
			delete(known, id) // a repeated id fails the next lookup
		}
		for i, id := range ids {
			if _, err := tx.NewUpdate().Table("assistants").Set("position = ?", i).Where("id = ?", id).Exec(ctx); err != nil {
				return err
			}
		}
		ok = true
		return nil
	})
	return ok, err
}

// SeedAssistants inserts each of as whose BuiltinKey has never been seeded
// and records the key, in one transaction: a built-in is created once, and
// one the user deleted stays deleted. It returns how many were inserted.
func (d *DB) SeedAssistants(ctx context.Context, as []Assistant) (int, error) {
	n := 0
	err := d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		for i := range as {
			res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO assistant_seeds (key, seeded_at) VALUES (?, ?)`, as[i].BuiltinKey, now())
			if err != nil {
				return err
			}
			if k, _ := res.RowsAffected(); k == 0 {
				continue
			}
			if err := insertAssistant(ctx, tx, &as[i]); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}
