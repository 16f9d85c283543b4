package app

import (
	"context"
	"os"
	"regexp"
	"strings"

	"playchat/backend/atomicfile"
	"playchat/backend/session"
)

// SessionService manages chat sessions.
type SessionService struct{ app *App }

// List returns every session, most recently updated first.
func (s *SessionService) List() ([]Session, error) {
	c, err := s.app.backend()
	if err != nil {
		return nil, err
	}
	ss, err := c.DB.ListSessions(context.Background())
	if err != nil {
		return nil, err
	}
	out := make([]Session, len(ss))
	for i, x := range ss {
		out[i] = toSession(x)
	}
	return out, nil
}

// Create makes an empty session with the given model ("" = DEFAULT_MODEL).
func (s *SessionService) Create(model string) (Session, error) {
	c, err := s.app.backend()
	if err != nil {
		return Session{}, err
	}
	if strings.TrimSpace(model) == "" {
		model = c.Config().DefaultModel
	}
	x, err := c.DB.CreateSession(context.Background(), "", strings.TrimSpace(model))
	return toSession(x), err
}

// Rename sets a session's title (1–200 characters after trimming).
func (s *SessionService) Rename(id, title string) (Session, error) {
	c, err := s.app.backend()
	if err != nil {
		return Session{}, err
	}
	// The same rule as an imported session's title (session.CleanTitle).
	if title, err = session.CleanTitle(title); err != nil {
		return Session{}, err
	}
	x, err := c.DB.RenameSession(context.Background(), id, title)
	return toSession(x), err
}

// SetModel sets the model the session uses from its next turn.
func (s *SessionService) SetModel(id, model string) (Session, error) {
	c, err := s.app.backend()
	if err != nil {
		return Session{}, err
	}
	x, err := c.DB.SetSessionModel(context.Background(), id, strings.TrimSpace(model))
	return toSession(x), err
}

// Delete deletes a session with its messages and memories; a reply still
// streaming into it is stopped first.
func (s *SessionService) Delete(id string) error {
	c, err := s.app.backend()
	if err != nil {
		return err
	}
	_, err = c.Chat.DeleteSessions(context.Background(), []string{id})
	return err
}

// Messages returns the messages of the session's selected branch, archived
// ones included, each with its versions (SiblingIDs) when it has several.
func (s *SessionService) Messages(id string) ([]Message, error) {
	c, err := s.app.backend()
	if err != nil {
		return nil, err
	}
	s.app.trim.Poke() // the page is about to render another session
	return branchMessages(context.Background(), c, id)
}

var unsafeName = regexp.MustCompile(`[\\/:*?"<>|\x00-\x1f]+`)

// ExportToFile asks where to save and writes the session as JSON. It returns
// the path written, or "" when the user cancelled.
func (s *SessionService) ExportToFile(id string) (string, error) {
	c, err := s.app.backend()
	if err != nil {
		return "", err
	}
	ctx := context.Background()
	data, err := session.ExportJSON(ctx, c.DB, id)
	if err != nil {
		return "", err
	}
	sess, _ := c.DB.GetSession(ctx, id)
	name := strings.TrimSpace(unsafeName.ReplaceAllString(sess.Title, "_"))
	if name == "" {
		name = "session"
	}
	path, err := s.app.plat().SaveFile("Export session", "playchat-"+name+".json")
	if err != nil || path == "" {
		return "", err
	}
	return path, atomicfile.Write(path, data, 0o600)
}

// ImportFromFile asks for a file and imports it: a playchat session file as
// a new session, or ChatGPT's or Claude's conversations.json as one session
// per conversation (the format is sniffed). A zero result (empty session id)
// means the user cancelled. A broken file is reported and nothing is
// written.
func (s *SessionService) ImportFromFile() (ImportResult, error) {
	c, err := s.app.backend()
	if err != nil {
		return ImportResult{}, err
	}
	path, err := s.app.plat().OpenFile("Import a session, or ChatGPT/Claude conversations.json")
	if err != nil || path == "" {
		return ImportResult{}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return ImportResult{}, err
	}
	defer f.Close()
	res, err := session.ImportAny(context.Background(), c.DB, f, session.FromAuto)
	if err != nil {
		return ImportResult{}, err
	}
	return ImportResult{Session: toSession(res.Session), Messages: res.Messages, Memories: res.Memories,
		Format: res.Format, Sessions: res.Sessions, Placeholders: res.Placeholders, Skipped: res.Skipped,
		SkippedConversations: res.SkippedConversations, Branches: res.Branches, Truncated: res.Truncated}, nil
}
