package app

import (
	"context"
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

// Update replaces a page's title and content.
func (s *NotesService) Update(id int64, title, content string) (NotePage, error) {
	c, err := s.app.backend()
	if err != nil {
		return NotePage{}, err
	}
	p, err := c.Notes.Update(context.Background(), id, &title, &content)
	return toNotePage(p), err
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
	p, err := c.Notes.Update(context.Background(), id, &title, nil)
	return toNotePage(p), err
}
