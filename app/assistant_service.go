package app

import (
	"context"
	"os"

	"playchat/backend/assistant"
	"playchat/backend/atomicfile"
	"playchat/backend/store"
)

// AssistantService is the window's door to assistants and per-chat
// settings (issue 26).
type AssistantService struct{ app *App }

// ChatSettingsView is a chat's own settings as the settings panel shows
// them, with the assistant it came from and what its model does not take.
type ChatSettingsView struct {
	SessionID string             `json:"sessionId"`
	Settings  store.ChatSettings `json:"settings"`
	// Assistant is the chat's assistant, when it has one (Newer: it was
	// edited since the chat copied it).
	Assistant assistant.ChatAssistant `json:"assistant"`
	// Unsupported maps the sampling parameters ("temperature", "top_p")
	// the chat's model does not take to how that is known ("table" or
	// "provider"): the panel says they are left out.
	Unsupported map[string]string `json:"unsupported"`
}

// AssistantFileResult is what an import from a file added (none when the
// user cancelled).
type AssistantFileResult struct {
	Assistants []assistant.Assistant `json:"assistants"`
}

func (s *AssistantService) service() (*assistant.Service, error) {
	c, err := s.app.backend()
	if err != nil {
		return nil, err
	}
	return c.Assistants, nil
}

// List returns every assistant in the user's order.
func (s *AssistantService) List() ([]assistant.Assistant, error) {
	as, err := s.service()
	if err != nil {
		return nil, err
	}
	return as.List(context.Background())
}

// Create stores a new assistant at the end of the order.
func (s *AssistantService) Create(d assistant.Draft) (assistant.Assistant, error) {
	as, err := s.service()
	if err != nil {
		return assistant.Assistant{}, err
	}
	return as.Create(context.Background(), d)
}

// Update replaces an assistant's settings (chats started from it keep
// their copy).
func (s *AssistantService) Update(id int64, d assistant.Draft) (assistant.Assistant, error) {
	as, err := s.service()
	if err != nil {
		return assistant.Assistant{}, err
	}
	return as.Update(context.Background(), id, d)
}

// Duplicate copies an assistant; suffix is appended to its name (the
// window passes " (copy)" / "（コピー）").
func (s *AssistantService) Duplicate(id int64, suffix string) (assistant.Assistant, error) {
	as, err := s.service()
	if err != nil {
		return assistant.Assistant{}, err
	}
	return as.Duplicate(context.Background(), id, suffix)
}

// Delete deletes an assistant.
func (s *AssistantService) Delete(id int64) error {
	as, err := s.service()
	if err != nil {
		return err
	}
	return as.Delete(context.Background(), id)
}

// Reorder sets the order (every id exactly once) and returns the list.
func (s *AssistantService) Reorder(ids []int64) ([]assistant.Assistant, error) {
	as, err := s.service()
	if err != nil {
		return nil, err
	}
	return as.Reorder(context.Background(), ids)
}

// ExportToFile asks where to save and writes the assistants ids (all when
// empty) as JSON; "" means the user cancelled.
func (s *AssistantService) ExportToFile(ids []int64) (string, error) {
	as, err := s.service()
	if err != nil {
		return "", err
	}
	data, err := as.ExportJSON(context.Background(), ids)
	if err != nil {
		return "", err
	}
	path, err := s.app.plat().SaveFile("Export assistants", "playchat-assistants.json")
	if err != nil || path == "" {
		return "", err
	}
	return path, atomicfile.Write(path, data, 0o600)
}

// ImportFromFile asks for an assistants file and adds its assistants (all
// or none).
func (s *AssistantService) ImportFromFile() (AssistantFileResult, error) {
	as, err := s.service()
	if err != nil {
		return AssistantFileResult{}, err
	}
	path, err := s.app.plat().OpenFile("Import assistants")
	if err != nil || path == "" {
		return AssistantFileResult{Assistants: []assistant.Assistant{}}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return AssistantFileResult{}, err
	}
	defer f.Close()
	got, err := as.ImportReader(context.Background(), f)
	if err != nil {
		return AssistantFileResult{}, err
	}
	return AssistantFileResult{Assistants: got}, nil
}

// ChatSettings returns a chat's own settings for the settings panel.
func (s *AssistantService) ChatSettings(sessionID string) (ChatSettingsView, error) {
	c, err := s.app.backend()
	if err != nil {
		return ChatSettingsView{}, err
	}
	ctx := context.Background()
	cs, err := c.DB.SessionSettings(ctx, sessionID)
	if err != nil {
		return ChatSettingsView{}, err
	}
	of, err := c.Assistants.OfChat(ctx, sessionID)
	if err != nil {
		return ChatSettingsView{}, err
	}
	model := cs.Model
	if model == "" {
		model = c.Config().DefaultModel
	}
	return ChatSettingsView{SessionID: sessionID, Settings: cs, Assistant: of, Unsupported: c.LLM.ParamSupport(model)}, nil
}

// SetChatSettings stores a chat's own settings (they apply from its next
// turn; Model "" keeps the chat's model) and returns them.
func (s *AssistantService) SetChatSettings(sessionID string, cs store.ChatSettings) (ChatSettingsView, error) {
	c, err := s.app.backend()
	if err != nil {
		return ChatSettingsView{}, err
	}
	if _, err := c.DB.SetSessionSettings(context.Background(), sessionID, cs); err != nil {
		return ChatSettingsView{}, err
	}
	return s.ChatSettings(sessionID)
}

// ApplyToChat copies an assistant's current version into a chat ("apply
// the assistant's new version").
func (s *AssistantService) ApplyToChat(sessionID string, id int64) (ChatSettingsView, error) {
	as, err := s.service()
	if err != nil {
		return ChatSettingsView{}, err
	}
	if _, err := as.Apply(context.Background(), sessionID, id); err != nil {
		return ChatSettingsView{}, err
	}
	return s.ChatSettings(sessionID)
}

// ModelParams returns the sampling parameters model does not take, with
// how that is known (the new-chat panel, before a session exists).
func (s *AssistantService) ModelParams(model string) (map[string]string, error) {
	c, err := s.app.backend()
	if err != nil {
		return nil, err
	}
	if model == "" {
		model = c.Config().DefaultModel
	}
	return c.LLM.ParamSupport(model), nil
}
