package app

import (
	"context"
	"errors"
	"fmt"

	"playchat/backend/notes"
)

// NotesService edits the shared notes for the notes panel.
type NotesService struct{ app *App }

// List returns every page in tab order.
func (s *NotesService) List() ([]NotePage, error) {
	c, err := s.app.backend()
	if err != nil {
		return nil, err
	}
	ps, err := c.Notes.List(context.Background())
	return toNotePages(ps), err
}

// Create adds a page at the end of its section ("" = ungrouped, at the end).
func (s *NotesService) Create(title, content, section string) (NotePage, error) {
	c, err := s.app.backend()
	if err != nil {
		return NotePage{}, err
	}
	p, err := c.Notes.Create(context.Background(), title, content, section)
	return toNotePage(p), err
}

// NoteSave is the outcome of NotesService.Update.
type NoteSave struct {
	// Saved is true when the draft was written; Page is then the saved page
	// with its new version.
	Saved bool `json:"saved"`
	// Page is the page as stored after the call. When Saved is false the
	// page changed since the draft began (the AI or another window wrote
	// it): nothing was written and Page is that newer page, so the client
	// merges its draft with it and saves again with Page.Version as base.
	Page NotePage `json:"page"`
}

// Update replaces a page's title and content, provided the page is still at
// baseVersion, the version the draft started from (≥ 1). A page that moved
// on is not an error: the result says Saved false and carries the current
// page, and nothing was written.
func (s *NotesService) Update(id int64, title, content string, baseVersion int64) (NoteSave, error) {
	c, err := s.app.backend()
	if err != nil {
		return NoteSave{}, err
	}
	if baseVersion < 1 {
		return NoteSave{}, fmt.Errorf("the base version of a note save must be at least 1, not %d: %w", baseVersion, notes.ErrInvalid)
	}
	p, err := c.Notes.Update(context.Background(), id, baseVersion, &title, &content)
	if stale := (*notes.StaleError)(nil); errors.As(err, &stale) {
		return NoteSave{Saved: false, Page: toNotePage(stale.Current)}, nil
	}
	if err != nil {
		return NoteSave{}, err
	}
	return NoteSave{Saved: true, Page: toNotePage(p)}, nil
}

// Delete deletes a page (and its pins).
func (s *NotesService) Delete(id int64) error {
	c, err := s.app.backend()
	if err != nil {
		return err
	}
	return c.Notes.Delete(context.Background(), id)
}

// SetSection moves a page to the end of a section ("" ungroups it).
func (s *NotesService) SetSection(id int64, section string) (NotePage, error) {
	c, err := s.app.backend()
	if err != nil {
		return NotePage{}, err
	}
	p, err := c.Notes.SetSection(context.Background(), id, section)
	return toNotePage(p), err
}

// RenameSection renames every page's section from → to and returns how
// many pages changed.
func (s *NotesService) RenameSection(from, to string) (int, error) {
	c, err := s.app.backend()
	if err != nil {
		return 0, err
	}
	return c.Notes.RenameSection(context.Background(), from, to)
}

// Reorder applies a drag and drop: order is the complete new order of every
// page id, and pageID (the dragged page) takes section. An order that is not
// exactly the current set of ids changes nothing and says why.
func (s *NotesService) Reorder(pageID int64, section string, order []int64) ([]NotePage, error) {
	c, err := s.app.backend()
	if err != nil {
		return nil, err
	}
	ps, err := c.Notes.Reorder(context.Background(), pageID, section, order)
	return toNotePages(ps), err
}

// Pins returns the ids of the pages pinned to a session.
func (s *NotesService) Pins(sessionID string) ([]int64, error) {
	c, err := s.app.backend()
	if err != nil {
		return nil, err
	}
	ids, err := c.Notes.Pins(context.Background(), sessionID)
	if ids == nil {
		ids = []int64{}
	}
	return ids, err
}

// SetPins replaces the pages pinned to a session.
func (s *NotesService) SetPins(sessionID string, pageIDs []int64) error {
	c, err := s.app.backend()
	if err != nil {
		return err
	}
	return c.Notes.SetPins(context.Background(), sessionID, pageIDs)
}

// Rename changes only a page's title (its content is left as stored, so an
// edit the AI made meanwhile is kept).
func (s *NotesService) Rename(id int64, title string) (NotePage, error) {
	c, err := s.app.backend()
	if err != nil {
		return NotePage{}, err
	}
	p, err := c.Notes.Update(context.Background(), id, notes.AnyVersion, &title, nil)
	return toNotePage(p), err
}
