package app

import (
	"context"
	"time"
)

// OrganiseService pins chats, keeps them in folders and archives them
// (issue 27, backend/store/organise.go). SessionService.List still returns
// every chat; the page places them with Overview, so the two stay
// independent.
type OrganiseService struct{ app *App }

// Folder is a folder of chats.
type Folder struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Position int    `json:"position"`
}

// Place is where a chat sits: pinned (since when), its folder (0: the top
// level), archived (since when). Times are RFC 3339 UTC, "" when unset.
type Place struct {
	PinnedAt   string `json:"pinnedAt"`
	FolderID   int64  `json:"folderId"`
	ArchivedAt string `json:"archivedAt"`
}

// Organisation is the folders and the place of every chat that has one.
type Organisation struct {
	Folders []Folder         `json:"folders"`
	Places  map[string]Place `json:"places"`
}

func stampText(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// Overview returns the folders and the places.
func (s *OrganiseService) Overview() (Organisation, error) {
	c, err := s.app.backend()
	if err != nil {
		return Organisation{}, err
	}
	ctx := context.Background()
	fs, err := c.DB.Folders(ctx)
	if err != nil {
		return Organisation{}, err
	}
	ps, err := c.DB.Places(ctx)
	if err != nil {
		return Organisation{}, err
	}
	out := Organisation{Folders: make([]Folder, len(fs)), Places: make(map[string]Place, len(ps))}
	for i, f := range fs {
		out.Folders[i] = Folder{ID: f.ID, Name: f.Name, Position: f.Position}
	}
	for id, p := range ps {
		pl := Place{PinnedAt: stampText(p.PinnedAt), ArchivedAt: stampText(p.ArchivedAt)}
		if p.FolderID != nil {
			pl.FolderID = *p.FolderID
		}
		out.Places[id] = pl
	}
	return out, nil
}

// CreateFolder adds a folder (1–100 characters, one line).
func (s *OrganiseService) CreateFolder(name string) (Folder, error) {
	c, err := s.app.backend()
	if err != nil {
		return Folder{}, err
	}
	f, err := c.DB.CreateFolder(context.Background(), name)
	return Folder{ID: f.ID, Name: f.Name, Position: f.Position}, err
}

// RenameFolder renames a folder.
func (s *OrganiseService) RenameFolder(id int64, name string) (Folder, error) {
	c, err := s.app.backend()
	if err != nil {
		return Folder{}, err
	}
	f, err := c.DB.RenameFolder(context.Background(), id, name)
	return Folder{ID: f.ID, Name: f.Name, Position: f.Position}, err
}

// DeleteFolder deletes a folder; its chats move to the top level.
func (s *OrganiseService) DeleteFolder(id int64) error {
	c, err := s.app.backend()
	if err != nil {
		return err
	}
	return c.DB.DeleteFolder(context.Background(), id)
}

// Pin pins or unpins chats.
func (s *OrganiseService) Pin(ids []string, pinned bool) error {
	c, err := s.app.backend()
	if err != nil {
		return err
	}
	return c.DB.SetPinned(context.Background(), ids, pinned)
}

// Archive archives chats (out of the list, still searchable) or brings
// them back.
func (s *OrganiseService) Archive(ids []string, archived bool) error {
	c, err := s.app.backend()
	if err != nil {
		return err
	}
	return c.DB.SetArchived(context.Background(), ids, archived)
}

// Move moves chats into a folder (0: the top level).
func (s *OrganiseService) Move(ids []string, folderID int64) error {
	c, err := s.app.backend()
	if err != nil {
		return err
	}
	var f *int64
	if folderID != 0 {
		f = &folderID
	}
	return c.DB.MoveToFolder(context.Background(), ids, f)
}

// DeleteMany deletes chats (the page asked once, naming how many); replies
// still streaming into them are stopped first. It returns how many.
func (s *OrganiseService) DeleteMany(ids []string) (int, error) {
	c, err := s.app.backend()
	if err != nil {
		return 0, err
	}
	return c.Chat.DeleteSessions(context.Background(), ids)
}
