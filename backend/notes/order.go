package notes

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/uptrace/bun"

	"playchat/backend/apperr"
	"playchat/backend/store"
)

// SetSection moves page id into section ("" = ungrouped) and renumbers all
// pages: the page goes to the end of that section's run, or to the end of
// the list when section is "" or has no other pages. Setting the section a
// page already has changes nothing. A missing page wraps store.ErrNotFound; a
// bad section name wraps ErrInvalid.
func (s *Service) SetSection(ctx context.Context, id int64, section string) (Page, error) {
	section, err := CleanSection(section)
	if err != nil {
		return Page{}, err
	}
	var out Page
	err = s.db.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		rows, err := loadRows(ctx, tx)
		if err != nil {
			return err
		}
		rows = normalize(rows)
		i := indexOf(rows, id)
		if i < 0 {
			return apperr.Wrap(apperr.NotesPageNotFound, store.ErrNotFound, map[string]any{"id": id})
		}
		if rows[i].section() == section {
			if err := savePositions(ctx, tx, rows); err != nil {
				return err
			}
			out = rows[indexOf(rows, id)].page()
			return nil
		}
		r := rows[i]
		r.Section, r.UpdatedAt = sectionValue(section), now()
		order, at := insertAtSectionEnd(slices.Delete(slices.Clone(rows), i, i+1), r)
		if _, err := tx.NewUpdate().Table("note_pages").Set("section = ?", r.Section).Set("updated_at = ?", r.UpdatedAt).
			Where("id = ?", id).Exec(ctx); err != nil {
			return fmt.Errorf("set section of note page %d: %w", id, err)
		}
		if err := savePositions(ctx, tx, order); err != nil {
			return err
		}
		out = order[at].page()
		return nil
	})
	return out, err
}

// RenameSection gives every page of section from the name to, at once, and
// returns how many pages it changed. to == "" ungroups them (they keep their
// places); renaming into a section that already has pages moves the renamed
// pages to the end of that section's run, so sections stay contiguous.
// from == "" or a bad name wraps ErrInvalid; a section with no pages wraps
// store.ErrNotFound.
func (s *Service) RenameSection(ctx context.Context, from, to string) (int, error) {
	from = strings.TrimSpace(from)
	if from == "" {
		return 0, apperr.Wrap(apperr.NotesRenameUngrouped, ErrInvalid, nil)
	}
	to, err := CleanSection(to)
	if err != nil {
		return 0, err
	}
	n := 0
	err = s.db.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		rows, err := loadRows(ctx, tx)
		if err != nil {
			return err
		}
		rows = normalize(rows)
		var moved []pageRow
		var ids []int64
		var rest []pageRow
		target := false // does another section named `to` exist?
		for _, r := range rows {
			switch {
			case r.section() == from:
				moved = append(moved, r)
				ids = append(ids, r.ID)
			default:
				target = target || (to != "" && r.section() == to)
				rest = append(rest, r)
			}
		}
		if len(moved) == 0 {
			return apperr.Wrap(apperr.NotesSectionEmpty, store.ErrNotFound, map[string]any{"section": from})
		}
		n = len(moved)
		if to == from {
			return savePositions(ctx, tx, rows)
		}
		t := now()
		if _, err := tx.NewUpdate().Table("note_pages").Set("section = ?", sectionValue(to)).Set("updated_at = ?", t).
			Where("id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
			return fmt.Errorf("rename section %q: %w", from, err)
		}
		order := rows
		if target {
			// Merge: the renamed run follows the existing run of `to`.
			order = rest
			for _, r := range moved {
				r.Section = sectionValue(to)
				order, _ = insertAtSectionEnd(order, r)
			}
		}
		return savePositions(ctx, tx, order)
	})
	return n, err
}

// Reorder applies an order computed by the notes panel (drag and drop) in
// one transaction: order must list every current page id exactly once; the
// pages take their index in order as position and page pageID takes section
// ("" = ungrouped). The result must keep every section contiguous. An order
// with missing, unknown or repeated ids, or one that would split a section,
// is an error wrapping ErrInvalid that says which ids or section; a missing
// pageID wraps store.ErrNotFound. On error nothing changes. It returns every
// page in the new order.
func (s *Service) Reorder(ctx context.Context, pageID int64, section string, order []int64) ([]Page, error) {
	section, err := CleanSection(section)
	if err != nil {
		return nil, err
	}
	var out []Page
	err = s.db.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		rows, err := loadRows(ctx, tx)
		if err != nil {
			return err
		}
		if indexOf(rows, pageID) < 0 {
			return apperr.Wrap(apperr.NotesPageNotFound, store.ErrNotFound, map[string]any{"id": pageID})
		}
		if err := checkOrderSet(rows, order); err != nil {
			return err
		}
		byID := make(map[int64]pageRow, len(rows))
		for _, r := range rows {
			byID[r.ID] = r
		}
		next := make([]pageRow, len(order))
		changed := false
		for i, id := range order {
			next[i] = byID[id]
			if id == pageID && next[i].section() != section {
				next[i].Section, next[i].UpdatedAt = sectionValue(section), now()
				changed = true
			}
		}
		if err := checkContiguous(next); err != nil {
			return err
		}
		if changed {
			r := next[slices.Index(order, pageID)]
			if _, err := tx.NewUpdate().Table("note_pages").Set("section = ?", r.Section).Set("updated_at = ?", r.UpdatedAt).
				Where("id = ?", pageID).Exec(ctx); err != nil {
				return fmt.Errorf("set section of note page %d: %w", pageID, err)
			}
		}
		if err := savePositions(ctx, tx, next); err != nil {
			return err
		}
		out = pages(next)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// checkOrderSet reports every id of rows missing from order, every id of
// order that is not a page, and every id order repeats.
func checkOrderSet(rows []pageRow, order []int64) error {
	known := make(map[int64]bool, len(rows))
	for _, r := range rows {
		known[r.ID] = true
	}
	seen := make(map[int64]int, len(order))
	var extra, dup []int64
	for _, id := range order {
		seen[id]++
		switch {
		case !known[id] && seen[id] == 1:
			extra = append(extra, id)
		case known[id] && seen[id] == 2:
			dup = append(dup, id)
		}
	}
	var missing []int64
	for _, r := range rows {
		if seen[r.ID] == 0 {
			missing = append(missing, r.ID)
		}
	}
	if len(missing)+len(extra)+len(dup) == 0 {
		return nil
	}
	var why []string
	if len(missing) > 0 {
		why = append(why, fmt.Sprintf("missing page ids %v", missing))
	}
	if len(extra) > 0 {
		why = append(why, fmt.Sprintf("unknown page ids %v", extra))
	}
	if len(dup) > 0 {
		why = append(why, fmt.Sprintf("duplicated page ids %v", dup))
	}
	return apperr.Wrap(apperr.NotesOrderIncomplete, ErrInvalid, map[string]any{"n": len(rows), "detail": strings.Join(why, "; ")})
}

// checkContiguous fails when the pages of one section are not next to each
// other in order.
func checkContiguous(order []pageRow) error {
	closed := map[string]int{} // section → index of its run's last page
	for i, r := range order {
		sec := r.section()
		if sec == "" || (i > 0 && order[i-1].section() == sec) {
			continue
		}
		if last, ok := closed[sec]; ok {
			return apperr.Wrap(apperr.NotesOrderSplit, ErrInvalid, map[string]any{"section": sec,
				"detail": fmt.Sprintf("page %d at position %d is apart from page %d at position %d", order[last].ID, last, r.ID, i)})
		}
		j := i
		for j+1 < len(order) && order[j+1].section() == sec {
			j++
		}
		closed[sec] = j
	}
	return nil
}

// normalize gathers the pages of each section at its first run, keeping the
// relative order of everything else. It is the identity on rows that already
// keep the invariant; it repairs databases written by other programs.
func normalize(rows []pageRow) []pageRow {
	type slot struct{ rows []pageRow }
	var slots []*slot
	bySection := map[string]*slot{}
	for _, r := range rows {
		sec := r.section()
		if sl, ok := bySection[sec]; ok && sec != "" {
			sl.rows = append(sl.rows, r)
			continue
		}
		sl := &slot{rows: []pageRow{r}}
		slots = append(slots, sl)
		if sec != "" {
			bySection[sec] = sl
		}
	}
	out := make([]pageRow, 0, len(rows))
	for _, sl := range slots {
		out = append(out, sl.rows...)
	}
	return out
}

// insertAtSectionEnd inserts r after the last page of its section in order,
// or at the end when it is ungrouped or its section has no pages; it returns
// the new order and r's index.
func insertAtSectionEnd(order []pageRow, r pageRow) ([]pageRow, int) {
	at := len(order)
	if sec := r.section(); sec != "" {
		for i := range order {
			if order[i].section() == sec {
				at = i + 1
			}
		}
	}
	return slices.Insert(order, at, r), at
}

// savePositions writes position = index for every page of order whose
// stored position differs, and updates order to match.
func savePositions(ctx context.Context, tx bun.Tx, order []pageRow) error {
	for i := range order {
		if order[i].Position == i {
			continue
		}
		if _, err := tx.NewUpdate().Table("note_pages").Set("position = ?", i).Where("id = ?", order[i].ID).Exec(ctx); err != nil {
			return fmt.Errorf("renumber note pages: %w", err)
		}
		order[i].Position = i
	}
	return nil
}
