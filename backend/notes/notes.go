// Package notes holds the shared notes that the user and the model edit
// together (DESIGN.md §6, issue 3): pages grouped into sections, their order,
// the pages pinned to a session, the context layers that show them to the
// model (2: index, 2.5: pinned text) and the read_note/write_note tools.
//
// Invariant after every write: positions are 0..n-1 with no gaps and the
// pages of one (non-empty) section are contiguous. Ungrouped pages (section
// "") may sit anywhere between the groups. Every write runs in one immediate
// transaction, so concurrent writers queue instead of interleaving.
package notes

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"playchat/backend/apperr"
	"playchat/backend/store"
)

// Limits on what a page may hold. Titles and sections are counted in
// characters (runes) after trimming surrounding spaces; content in bytes.
const (
	MaxTitleRunes   = 200
	MaxSectionRunes = 100
	MaxContentBytes = 1 << 20 // 1 MiB
)

// ErrInvalid is wrapped by every error about bad input (a title too long, an
// order that misses ids, …); nothing was changed when it is returned.
var ErrInvalid = errors.New("invalid input")

// Page is one page of the shared notes (one tab in the notes panel).
type Page struct {
	// ID is the page's database id (≥ 1).
	ID int64 `json:"id"`
	// Title is the page's one-line title, 1–200 characters.
	Title string `json:"title"`
	// Content is the page's Markdown text, at most 1 MiB.
	Content string `json:"content"`
	// Position is the page's index in the whole list, 0..n-1.
	Position int `json:"position"`
	// Section groups pages into a run of tabs; "" means ungrouped.
	Section string `json:"section"`
	// Version is 1 for a new page and goes up by one with every write of
	// its title or content (by the user or by write_note), not when it is
	// only moved or regrouped. A save names the version its draft started
	// from (see Update), so it cannot overwrite a change it never saw.
	Version int64 `json:"version"`
	// CreatedAt and UpdatedAt are UTC. UpdatedAt changes when the title,
	// content or section changes, not when the page is only moved.
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// pageRow is a row of note_pages. section is NULL for ungrouped pages (the
// original app wrote NULL; "" read from old rows means the same).
type pageRow struct {
	bun.BaseModel `bun:"table:note_pages"`

	ID        int64     `bun:"id,pk,autoincrement"`
	Title     string    `bun:"title"`
	Content   string    `bun:"content"`
	Position  int       `bun:"position"`
	Section   *string   `bun:"section"`
	Version   int64     `bun:"version"`
	CreatedAt time.Time `bun:"created_at"`
	UpdatedAt time.Time `bun:"updated_at"`
}

func (r pageRow) section() string {
	if r.Section == nil {
		return ""
	}
	return strings.TrimSpace(*r.Section)
}

func (r pageRow) page() Page {
	return Page{ID: r.ID, Title: r.Title, Content: r.Content, Position: r.Position, Section: r.section(),
		Version: r.Version, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
}

// sectionValue is the column value for section s: NULL when ungrouped.
func sectionValue(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Service reads and writes the shared notes. Safe for concurrent use.
type Service struct {
	db *store.DB
}

// New returns a Service on db (already migrated).
func New(db *store.DB) *Service { return &Service{db: db} }

// now is the storage clock: UTC, microsecond precision (as in store).
func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// List returns every page in position order.
func (s *Service) List(ctx context.Context) ([]Page, error) {
	rows, err := loadRows(ctx, s.db.Bun())
	if err != nil {
		return nil, err
	}
	return pages(rows), nil
}

// Get returns the page with id, or an error wrapping store.ErrNotFound.
func (s *Service) Get(ctx context.Context, id int64) (Page, error) {
	r, err := getRow(ctx, s.db.Bun(), id)
	if err != nil {
		return Page{}, err
	}
	return r.page(), nil
}

// FindByTitle returns the page titled title (trimmed): an exact match first,
// else a case-insensitive one; among several, the first in position order.
// No match is an error wrapping store.ErrNotFound.
func (s *Service) FindByTitle(ctx context.Context, title string) (Page, error) {
	title = strings.TrimSpace(title)
	ps, err := s.List(ctx)
	if err != nil {
		return Page{}, err
	}
	if p, ok := findTitle(ps, title); ok {
		return p, nil
	}
	return Page{}, fmt.Errorf("note page titled %q: %w", title, store.ErrNotFound)
}

func findTitle(ps []Page, title string) (Page, bool) {
	for _, p := range ps {
		if p.Title == title {
			return p, true
		}
	}
	for _, p := range ps {
		if strings.EqualFold(p.Title, title) {
			return p, true
		}
	}
	return Page{}, false
}

// Create adds a page. It goes at the end of its section's run, or at the end
// of the list when section is "" or has no pages yet. Bad input (see
// CleanTitle, CleanSection, CheckContent) is an error wrapping ErrInvalid.
func (s *Service) Create(ctx context.Context, title, content, section string) (Page, error) {
	return s.create(ctx, title, content, section)
}

// ErrTitleTaken is returned when a page already has that title (ignoring
// case): titles are unique, since read_note and write_note find pages by
// title, falling back to a case-insensitive match.
var ErrTitleTaken = errors.New("a note page with this title already exists")

// create is Create; it refuses (ErrTitleTaken) a title that a page already
// has (ignoring case), checked in the same transaction.
func (s *Service) create(ctx context.Context, title, content, section string) (Page, error) {
	title, err := CleanTitle(title)
	if err != nil {
		return Page{}, err
	}
	if section, err = CleanSection(section); err != nil {
		return Page{}, err
	}
	if err := CheckContent(content); err != nil {
		return Page{}, err
	}
	t := now()
	row := pageRow{Title: title, Content: content, Section: sectionValue(section), Version: 1, CreatedAt: t, UpdatedAt: t}
	err = s.db.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		rows, err := loadRows(ctx, tx)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if strings.EqualFold(r.Title, title) {
				return apperr.Wrap(apperr.NotesTitleTaken, ErrTitleTaken, map[string]any{"id": r.ID, "title": title})
			}
		}
		order, at := insertAtSectionEnd(normalize(rows), row)
		row.Position = at
		if _, err := tx.NewInsert().Model(&row).Exec(ctx); err != nil {
			return fmt.Errorf("create note page: %w", err)
		}
		order[at] = row
		return savePositions(ctx, tx, order)
	})
	if err != nil {
		return Page{}, err
	}
	return row.page(), nil
}

// AnyVersion as the base of Update writes whatever the page's version is
// (write_note replace, a rename that leaves the content alone).
const AnyVersion int64 = 0

// ErrStale is matched (errors.Is) by every *StaleError.
var ErrStale = errors.New("the note page changed since the draft began")

// StaleError refuses a save whose draft started from an older version of the
// page than the stored one: someone (the AI, another window) changed the page
// meanwhile, and writing the draft would drop that change. Nothing was
// written. The client merges its draft with Current and saves again with
// Current.Version as the base.
type StaleError struct {
	// Base is the version the refused draft started from.
	Base int64
	// Current is the page as stored now, with its version and content.
	Current Page
}

func (e *StaleError) Error() string {
	return fmt.Sprintf("note page %d changed since the draft began: it is at version %d, the draft started from version %d; nothing was saved",
		e.Current.ID, e.Current.Version, e.Base)
}

// Is reports whether target is ErrStale.
func (e *StaleError) Is(target error) bool { return target == ErrStale }

// Update changes a page's title and/or content; a nil argument is left
// unchanged, and writing either bumps the page's version by one. base is
// the version the caller's draft started from: when the page is at another
// version, Update writes nothing and returns a *StaleError carrying the
// current page (AnyVersion skips this check). A missing page wraps
// store.ErrNotFound; bad input wraps ErrInvalid.
func (s *Service) Update(ctx context.Context, id, base int64, title, content *string) (Page, error) {
	set := map[string]any{}
	if title != nil {
		t, err := CleanTitle(*title)
		if err != nil {
			return Page{}, err
		}
		set["title"] = t
	}
	if content != nil {
		if err := CheckContent(*content); err != nil {
			return Page{}, err
		}
		set["content"] = *content
	}
	var out pageRow
	err := s.db.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		cur, err := getRow(ctx, tx, id)
		if err != nil {
			return err
		}
		if base != AnyVersion && cur.Version != base {
			return &StaleError{Base: base, Current: cur.page()}
		}
		if t, ok := set["title"]; ok {
			rows, err := loadRows(ctx, tx)
			if err != nil {
				return err
			}
			for _, r := range rows {
				if r.ID != id && strings.EqualFold(r.Title, t.(string)) {
					return apperr.Wrap(apperr.NotesTitleTaken, ErrTitleTaken, map[string]any{"id": r.ID, "title": r.Title})
				}
			}
		}
		if len(set) > 0 {
			q := tx.NewUpdate().Table("note_pages").Set("updated_at = ?", now()).Set("version = version + 1").Where("id = ?", id)
			for col, v := range set {
				q = q.Set("? = ?", bun.Ident(col), v)
			}
			if _, err := q.Exec(ctx); err != nil {
				return fmt.Errorf("update note page %d: %w", id, err)
			}
		}
		out, err = getRow(ctx, tx, id)
		return err
	})
	if err != nil {
		return Page{}, err
	}
	return out.page(), nil
}

// Append adds text to the end of page id's content, after a line break
// unless the content is empty or already ends with one, in one transaction
// (write_note's append mode). A missing page wraps store.ErrNotFound; a
// result over MaxContentBytes wraps ErrInvalid and nothing is written.
func (s *Service) Append(ctx context.Context, id int64, text string) (Page, error) {
	return s.appendContent(ctx, id, text)
}

// appendContent adds text to the end of page id's content, after a line
// break unless the content is empty or already ends with one, reading and
// writing in one transaction so a concurrent edit is not lost.
func (s *Service) appendContent(ctx context.Context, id int64, text string) (Page, error) {
	var out pageRow
	err := s.db.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		r, err := getRow(ctx, tx, id)
		if err != nil {
			return err
		}
		content := r.Content
		if content != "" && !strings.HasSuffix(content, "\n") && !strings.HasPrefix(text, "\n") {
			content += "\n"
		}
		content += text
		if err := CheckContent(content); err != nil {
			return err
		}
		r.Content, r.UpdatedAt, r.Version = content, now(), r.Version+1
		if _, err := tx.NewUpdate().Table("note_pages").Set("content = ?", r.Content).Set("updated_at = ?", r.UpdatedAt).
			Set("version = ?", r.Version).Where("id = ?", id).Exec(ctx); err != nil {
			return fmt.Errorf("append to note page %d: %w", id, err)
		}
		out = r
		return nil
	})
	if err != nil {
		return Page{}, err
	}
	return out.page(), nil
}

// Delete removes a page (its pins go with it) and renumbers the rest. A
// missing page wraps store.ErrNotFound.
func (s *Service) Delete(ctx context.Context, id int64) error {
	return s.db.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		rows, err := loadRows(ctx, tx)
		if err != nil {
			return err
		}
		i := indexOf(rows, id)
		if i < 0 {
			return apperr.Wrap(apperr.NotesPageNotFound, store.ErrNotFound, map[string]any{"id": id})
		}
		if _, err := tx.NewDelete().Table("note_pages").Where("id = ?", id).Exec(ctx); err != nil {
			return fmt.Errorf("delete note page %d: %w", id, err)
		}
		rest := append(rows[:i:i], rows[i+1:]...)
		return savePositions(ctx, tx, normalize(rest))
	})
}

// CleanTitle trims title and checks it is one line of 1–200 characters. The
// error wraps ErrInvalid.
func CleanTitle(title string) (string, error) {
	title = strings.TrimSpace(title)
	switch n := utf8.RuneCountInString(title); {
	case n == 0:
		return "", apperr.Wrap(apperr.NotesTitleEmpty, ErrInvalid, nil)
	case n > MaxTitleRunes:
		return "", apperr.Wrap(apperr.NotesTitleTooLong, ErrInvalid, map[string]any{"n": n, "max": MaxTitleRunes})
	case strings.ContainsAny(title, "\r\n"):
		return "", apperr.Wrap(apperr.NotesTitleOneLine, ErrInvalid, nil)
	case !utf8.ValidString(title):
		return "", apperr.Wrap(apperr.NotesTitleNotUTF8, ErrInvalid, nil)
	}
	return title, nil
}

// CleanSection trims section and checks it is one line of at most 100
// characters ("" = ungrouped). The error wraps ErrInvalid.
func CleanSection(section string) (string, error) {
	section = strings.TrimSpace(section)
	switch n := utf8.RuneCountInString(section); {
	case n > MaxSectionRunes:
		return "", apperr.Wrap(apperr.NotesSectionTooLong, ErrInvalid, map[string]any{"n": n, "max": MaxSectionRunes})
	case strings.ContainsAny(section, "\r\n"):
		return "", apperr.Wrap(apperr.NotesSectionOneLine, ErrInvalid, nil)
	case !utf8.ValidString(section):
		return "", apperr.Wrap(apperr.NotesSectionNotUTF8, ErrInvalid, nil)
	}
	return section, nil
}

// CheckContent checks content is valid UTF-8 of at most 1 MiB. The error
// wraps ErrInvalid.
func CheckContent(content string) error {
	if len(content) > MaxContentBytes {
		return apperr.Wrap(apperr.NotesContentTooLong, ErrInvalid, map[string]any{"n": len(content), "max": MaxContentBytes})
	}
	if !utf8.ValidString(content) {
		return apperr.Wrap(apperr.NotesContentNotUTF8, ErrInvalid, nil)
	}
	return nil
}

// loadRows reads every page in position order (id breaks ties in databases
// written by the original app).
func loadRows(ctx context.Context, db bun.IDB) ([]pageRow, error) {
	var rows []pageRow
	if err := db.NewSelect().Model(&rows).Order("position", "id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list note pages: %w", err)
	}
	return rows, nil
}

func getRow(ctx context.Context, db bun.IDB, id int64) (pageRow, error) {
	var r pageRow
	if err := db.NewSelect().Model(&r).Where("id = ?", id).Scan(ctx); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return pageRow{}, apperr.Wrap(apperr.NotesPageNotFound, store.ErrNotFound, map[string]any{"id": id})
		}
		return pageRow{}, fmt.Errorf("get note page %d: %w", id, err)
	}
	return r, nil
}

func pages(rows []pageRow) []Page {
	out := make([]Page, len(rows))
	for i, r := range rows {
		out[i] = r.page()
	}
	return out
}

func indexOf(rows []pageRow, id int64) int {
	for i, r := range rows {
		if r.ID == id {
			return i
		}
	}
	return -1
}
