package app

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
)

// DraftKinds are the drafts the window keeps: the message box of each chat
// ("messages", {sessionId or "": text}) and unsaved note edits ("notes",
// {pageId: {content, …}}).
var draftKinds = []string{"messages", "notes"}

// DraftService keeps what the window has not sent or saved yet in the data
// dir (store drafts table), so it survives quitting the app and never
// follows the user into another data dir (issue 22: WebKit's storage is
// shared by all of them).
type DraftService struct{ app *App }

// Load returns the drafts of kind ("messages" or "notes") as the window
// saved them (a JSON object), "" when there are none.
func (s *DraftService) Load(kind string) (string, error) {
	c, err := s.app.backend()
	if err != nil {
		return "", err
	}
	if !slices.Contains(draftKinds, kind) {
		return "", fmt.Errorf("unknown kind of drafts %q", kind)
	}
	return c.DB.Draft(context.Background(), kind)
}

// Save replaces the drafts of kind with data, a JSON object ("" or "{}"
// removes them). Anything else is refused and nothing changes.
func (s *DraftService) Save(kind, data string) error {
	c, err := s.app.backend()
	if err != nil {
		return err
	}
	if !slices.Contains(draftKinds, kind) {
		return fmt.Errorf("unknown kind of drafts %q", kind)
	}
	if data != "" {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(data), &obj); err != nil {
			return fmt.Errorf("drafts of %s are not a JSON object: %w", kind, err)
		}
		if len(obj) == 0 {
			data = ""
		}
	}
	return c.DB.SetDraft(context.Background(), kind, data)
}
