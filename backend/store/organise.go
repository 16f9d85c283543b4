package store

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
)

// Pins, folders and the archive of chats (issue 27,
// MigrationSessionOrganise). A chat's place is pinned or not, in one folder
// or at the top level, archived or not; a chat with none of these has no
// session_places row. An archived chat leaves the list but stays in the
// message search and opens from the Archived view.

// MaxFolderName is the longest folder name, in characters.
const MaxFolderName = 100

// Folder is a row of folders.
type Folder struct {
	bun.BaseModel `bun:"table:folders"`

	ID        int64     `bun:"id,pk,autoincrement"`
	Name      string    `bun:"name"`
	Position  int       `bun:"position"`
	CreatedAt time.Time `bun:"created_at"`
}

// Place is a row of session_places: where a chat sits in the list.
type Place struct {
	bun.BaseModel `bun:"table:session_places"`

	SessionID  string     `bun:"session_id,pk"`
	PinnedAt   *time.Time `bun:"pinned_at"`
	FolderID   *int64     `bun:"folder_id"`
	ArchivedAt *time.Time `bun:"archived_at"`
}

func checkFolderName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > MaxFolderName || strings.ContainsAny(name, "\n\r\t") {
		return "", apperr.New(apperr.FolderName, map[string]any{"max": MaxFolderName})
	}
	return name, nil
}

// CreateFolder adds a folder at the end of the folder list.
func (d *DB) CreateFolder(ctx context.Context, name string) (Folder, error) {
	name, err := checkFolderName(name)
	if err != nil {
		return Folder{}, err
	}
	f := Folder{Name: name, CreatedAt: now()}
	err = d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		var max sql.NullInt64
		if err := tx.NewSelect().Table("folders").ColumnExpr("max(position)").Scan(ctx, &max); err != nil {
			return err
		}
		f.Position = int(max.Int64) + 1
		_, err := tx.NewInsert().Model(&f).Exec(ctx)
		return err
	})
	return f, err
}

// RenameFolder renames folder id.
func (d *DB) RenameFolder(ctx context.Context, id int64, name string) (Folder, error) {
	name, err := checkFolderName(name)
	if err != nil {
		return Folder{}, err
	}
	res, err := d.bun.NewUpdate().Table("folders").Set("name = ?", name).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return Folder{}, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return Folder{}, folderNotFound(id)
	}
	var f Folder
	err = d.bun.NewSelect().Model(&f).Where("id = ?", id).Scan(ctx)
	return f, err
}

// DeleteFolder deletes folder id; its chats move to the top level (the
// foreign key sets their folder to NULL), none is deleted.
func (d *DB) DeleteFolder(ctx context.Context, id int64) error {
	return d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewDelete().Table("folders").Where("id = ?", id).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return folderNotFound(id)
		}
		return dropEmptyPlaces(ctx, tx)
	})
}

func folderNotFound(id int64) error {
	return apperr.Wrap(apperr.FolderNotFound, ErrNotFound, map[string]any{"id": id})
}

// Folders lists the folders in their order.
func (d *DB) Folders(ctx context.Context) ([]Folder, error) {
	fs := []Folder{}
	err := d.bun.NewSelect().Model(&fs).Order("position ASC", "id ASC").Scan(ctx)
	return fs, err
}

// FolderByName returns the folder named name (the first one when several
// share it), or an error wrapping ErrNotFound.
func (d *DB) FolderByName(ctx context.Context, name string) (Folder, error) {
	var f Folder
	err := d.bun.NewSelect().Model(&f).Where("name = ?", strings.TrimSpace(name)).Order("position ASC", "id ASC").Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return Folder{}, fmt.Errorf("folder %q: %w", name, ErrNotFound)
	}
	return f, err
}

// Places returns the place of every chat that has one, by session id.
func (d *DB) Places(ctx context.Context) (map[string]Place, error) {
	var ps []Place
	if err := d.bun.NewSelect().Model(&ps).Scan(ctx); err != nil {
		return nil, err
	}
	out := make(map[string]Place, len(ps))
	for _, p := range ps {
		out[p.SessionID] = p
	}
	return out, nil
}

// PlaceOf returns the place of one chat (zero when it has none).
func (d *DB) PlaceOf(ctx context.Context, sessionID string) (Place, error) {
	var p Place
	err := d.bun.NewSelect().Model(&p).Where("session_id = ?", sessionID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return Place{SessionID: sessionID}, nil
	}
	return p, err
}

// checkSessions fails, naming the first, when an id is not a chat.
func checkSessions(ctx context.Context, tx bun.IDB, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	var found []string
	if err := tx.NewSelect().Table("sessions").Column("id").Where("id IN (?)", bun.In(ids)).Scan(ctx, &found); err != nil {
		return err
	}
	have := make(map[string]bool, len(found))
	for _, id := range found {
		have[id] = true
	}
	for _, id := range ids {
		if !have[id] {
			return fmt.Errorf("session %s: %w", id, ErrNotFound)
		}
	}
	return nil
}

// place sets one column of the places of ids (every id is checked first;
// an unknown one changes nothing).
func (d *DB) place(ctx context.Context, ids []string, column string, value any) error {
	return d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if err := checkSessions(ctx, tx, ids); err != nil {
			return err
		}
		for _, id := range ids {
			if _, err := tx.NewRaw(`INSERT INTO session_places (session_id, `+column+`) VALUES (?, ?)
				ON CONFLICT (session_id) DO UPDATE SET `+column+` = excluded.`+column, id, value).Exec(ctx); err != nil {
				return err
			}
		}
		return dropEmptyPlaces(ctx, tx)
	})
}

func dropEmptyPlaces(ctx context.Context, tx bun.IDB) error {
	_, err := tx.NewDelete().Table("session_places").
		Where("pinned_at IS NULL AND folder_id IS NULL AND archived_at IS NULL").Exec(ctx)
	return err
}

func stamp(on bool) any {
	if on {
		return now()
	}
	return nil
}

// SetPinned pins or unpins the chats ids.
func (d *DB) SetPinned(ctx context.Context, ids []string, pinned bool) error {
	return d.place(ctx, ids, "pinned_at", stamp(pinned))
}

// SetArchived archives the chats ids (out of the list, still searchable)
// or brings them back.
func (d *DB) SetArchived(ctx context.Context, ids []string, archived bool) error {
	return d.place(ctx, ids, "archived_at", stamp(archived))
}

// MoveToFolder moves the chats ids into folder (nil: the top level).
func (d *DB) MoveToFolder(ctx context.Context, ids []string, folder *int64) error {
	if folder != nil {
		n, err := d.bun.NewSelect().Table("folders").Where("id = ?", *folder).Count(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return folderNotFound(*folder)
		}
	}
	var v any
	if folder != nil {
		v = *folder
	}
	return d.place(ctx, ids, "folder_id", v)
}

// DeleteSessions deletes the chats ids in one transaction (every id is
// checked first) and returns how many were deleted.
func (d *DB) DeleteSessions(ctx context.Context, ids []string) (int, error) {
	err := d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if err := checkSessions(ctx, tx, ids); err != nil {
			return err
		}
		_, err := tx.NewDelete().Table("sessions").Where("id IN (?)", bun.In(ids)).Exec(ctx)
		return err
	})
	if err != nil {
		return 0, err
	}
	d.sweepQuietly(ctx)
	return len(ids), nil
}

// SessionFilter chooses the chats ListPlacedSessions returns.
type SessionFilter struct {
	// Archived: false lists the chats in the list (not archived), true
	// only the archived ones.
	Archived bool
	// All lists every chat, archived or not (Archived is ignored).
	All bool
	// Folder, when set, keeps the chats in that folder (0: the top level).
	Folder *int64
}

// PlacedSession is a chat with its place.
type PlacedSession struct {
	Session
	Place Place
}

// ListPlacedSessions lists the chats f chooses, most recently updated
// first, each with its place.
func (d *DB) ListPlacedSessions(ctx context.Context, f SessionFilter) ([]PlacedSession, error) {
	ss, err := d.ListSessions(ctx)
	if err != nil {
		return nil, err
	}
	places, err := d.Places(ctx)
	if err != nil {
		return nil, err
	}
	out := []PlacedSession{}
	for _, s := range ss {
		p := places[s.ID]
		p.SessionID = s.ID
		if !f.All && (p.ArchivedAt != nil) != f.Archived {
			continue
		}
		if f.Folder != nil {
			in := int64(0)
			if p.FolderID != nil {
				in = *p.FolderID
			}
			if in != *f.Folder {
				continue
			}
		}
		out = append(out, PlacedSession{Session: s, Place: p})
	}
	return out, nil
}

// PlaceByName is a chat's place with its folder by name, as a session
// export carries it (backend/session).
type PlaceByName struct {
	Pinned   bool   `json:"pinned,omitempty"`
	Folder   string `json:"folder,omitempty"`
	Archived bool   `json:"archived,omitempty"`
}

// Empty reports whether p puts the chat anywhere special.
func (p PlaceByName) Empty() bool { return !p.Pinned && p.Folder == "" && !p.Archived }

// NamedPlaceOf returns the place of a chat with its folder's name.
func (d *DB) NamedPlaceOf(ctx context.Context, sessionID string) (PlaceByName, error) {
	p, err := d.PlaceOf(ctx, sessionID)
	if err != nil {
		return PlaceByName{}, err
	}
	out := PlaceByName{Pinned: p.PinnedAt != nil, Archived: p.ArchivedAt != nil}
	if p.FolderID != nil {
		var f Folder
		if err := d.bun.NewSelect().Model(&f).Where("id = ?", *p.FolderID).Scan(ctx); err == nil {
			out.Folder = f.Name
		}
	}
	return out, nil
}

// SetNamedPlace puts a chat at p inside tx (an import's transaction): the
// folder is found by name, or made at the end of the list.
func SetNamedPlace(ctx context.Context, tx bun.Tx, sessionID string, p PlaceByName) error {
	if p.Empty() {
		return nil
	}
	var folder *int64
	if p.Folder != "" {
		name, err := checkFolderName(p.Folder)
		if err != nil {
			return err
		}
		var ids []int64
		if err := tx.NewSelect().Table("folders").Column("id").Where("name = ?", name).Order("position ASC", "id ASC").Limit(1).Scan(ctx, &ids); err != nil {
			return err
		}
		if len(ids) == 0 {
			var max sql.NullInt64
			if err := tx.NewSelect().Table("folders").ColumnExpr("max(position)").Scan(ctx, &max); err != nil {
				return err
			}
			f := Folder{Name: name, Position: int(max.Int64) + 1, CreatedAt: now()}
			if _, err := tx.NewInsert().Model(&f).Exec(ctx); err != nil {
				return err
			}
			ids = []int64{f.ID}
		}
		folder = &ids[0]
	}
	pl := Place{SessionID: sessionID, FolderID: folder}
	if p.Pinned {
		t := now()
		pl.PinnedAt = &t
	}
	if p.Archived {
		t := now()
		pl.ArchivedAt = &t
	}
	_, err := tx.NewInsert().Model(&pl).Exec(ctx)
	return err
}
