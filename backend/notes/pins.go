package notes

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"playchat/backend/store"
)

// pinRow is a row of session_note_pages: page PageID's full text goes into
// the context of session SessionID (layer 2.5). Deleting the page or the
// session deletes the row (ON DELETE CASCADE).
type pinRow struct {
	bun.BaseModel `bun:"table:session_note_pages"`

	ID        int64     `bun:"id,pk,autoincrement"`
	SessionID string    `bun:"session_id"`
	PageID    int64     `bun:"page_id"`
	CreatedAt time.Time `bun:"created_at"`
}

// Pins returns the ids of the pages pinned to session sessionID, in page
// position order; none (or an unknown session) is an empty list.
func (s *Service) Pins(ctx context.Context, sessionID string) ([]int64, error) {
	ps, err := s.pinnedPages(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(ps))
	for i, p := range ps {
		ids[i] = p.ID
	}
	return ids, nil
}

// SetPins makes pageIDs (repeats ignored) the exact set of pages pinned to
// session sessionID, in one transaction; an empty list unpins everything.
// Pins already present keep their creation time. An unknown session or page
// id is an error wrapping store.ErrNotFound, and nothing changes.
func (s *Service) SetPins(ctx context.Context, sessionID string, pageIDs []int64) error {
	ids := slices.Clone(pageIDs)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	return s.db.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if err := checkSession(ctx, tx, sessionID); err != nil {
			return err
		}
		if err := checkPages(ctx, tx, ids); err != nil {
			return err
		}
		del := tx.NewDelete().Table("session_note_pages").Where("session_id = ?", sessionID)
		if len(ids) > 0 {
			del = del.Where("page_id NOT IN (?)", bun.In(ids))
		}
		if _, err := del.Exec(ctx); err != nil {
			return fmt.Errorf("set pinned notes: %w", err)
		}
		for _, id := range ids {
			if err := insertPin(ctx, tx, sessionID, id); err != nil {
				return err
			}
		}
		return nil
	})
}

// Pin pins page pageID to session sessionID; pinning it again changes
// nothing. An unknown session or page wraps store.ErrNotFound.
func (s *Service) Pin(ctx context.Context, sessionID string, pageID int64) error {
	return s.db.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if err := checkSession(ctx, tx, sessionID); err != nil {
			return err
		}
		if err := checkPages(ctx, tx, []int64{pageID}); err != nil {
			return err
		}
		return insertPin(ctx, tx, sessionID, pageID)
	})
}

// Unpin unpins page pageID from session sessionID; a page that is not
// pinned (or does not exist) is not an error.
func (s *Service) Unpin(ctx context.Context, sessionID string, pageID int64) error {
	_, err := s.db.Bun().NewDelete().Table("session_note_pages").
		Where("session_id = ? AND page_id = ?", sessionID, pageID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("unpin note page %d: %w", pageID, err)
	}
	return nil
}

// pinnedPages returns the pages pinned to sessionID in position order.
func (s *Service) pinnedPages(ctx context.Context, sessionID string) ([]Page, error) {
	if sessionID == "" {
		return nil, nil
	}
	var rows []pageRow
	err := s.db.Bun().NewSelect().Model(&rows).
		Join("JOIN session_note_pages AS snp ON snp.page_id = page_row.id").
		Where("snp.session_id = ?", sessionID).
		Order("page_row.position", "page_row.id").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("pinned notes of session %s: %w", sessionID, err)
	}
	return pages(rows), nil
}

func insertPin(ctx context.Context, tx bun.Tx, sessionID string, pageID int64) error {
	pin := pinRow{SessionID: sessionID, PageID: pageID, CreatedAt: now()}
	if _, err := tx.NewInsert().Model(&pin).On("CONFLICT (session_id, page_id) DO NOTHING").Exec(ctx); err != nil {
		return fmt.Errorf("pin note page %d: %w", pageID, err)
	}
	return nil
}

func checkSession(ctx context.Context, tx bun.Tx, sessionID string) error {
	n, err := tx.NewSelect().Table("sessions").Where("id = ?", sessionID).Count(ctx)
	if err != nil {
		return fmt.Errorf("check session %s: %w", sessionID, err)
	}
	if n == 0 {
		return fmt.Errorf("session %q: %w", sessionID, store.ErrNotFound)
	}
	return nil
}

// checkPages fails naming every id of ids that is not a page.
func checkPages(ctx context.Context, tx bun.Tx, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	var found []int64
	if err := tx.NewSelect().Table("note_pages").Column("id").Where("id IN (?)", bun.In(ids)).Scan(ctx, &found); err != nil {
		return fmt.Errorf("check note pages: %w", err)
	}
	var unknown []int64
	for _, id := range ids {
		if !slices.Contains(found, id) {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("unknown note page ids %v; nothing was changed: %w", unknown, store.ErrNotFound)
	}
	return nil
}
