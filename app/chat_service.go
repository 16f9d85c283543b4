package app

import (
	"context"

	"playchat/backend/assistant"
	"playchat/backend/chat"
)

// mergeIDs is a followed by the ids of b it lacks.
func mergeIDs(a, b []int64) []int64 {
	seen := map[int64]bool{}
	out := []int64{}
	for _, id := range append(append([]int64{}, a...), b...) {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// ChatService runs chat turns for the window.
type ChatService struct{ app *App }

// Send stores the user's message and starts streaming the reply. Events go
// to "chat:turn:<turnId>" as {type, value}; the frontend subscribes before
// calling Send. The returned error means nothing was stored.
func (s *ChatService) Send(req SendRequest) (TurnStart, error) {
	c, err := s.app.backend()
	if err != nil {
		return TurnStart{}, err
	}
	em := s.turnEmitter(req.TurnID)
	tr := chat.TurnRequest{
		TurnID: req.TurnID, SessionID: req.SessionID, Text: req.Text, Model: req.Model, NotePageIDs: req.NotePageIDs,
		FitAttachments: req.FitAttachments,
	}
	if req.SessionID == "" && req.AssistantID > 0 {
		a, err := c.Assistants.Get(context.Background(), req.AssistantID)
		if err != nil {
			return TurnStart{}, err
		}
		cp := assistant.CopyOf(a)
		tr.ChatSettings, tr.AssistantID, tr.AssistantVersion = &cp.Settings, cp.AssistantID, cp.Version
		tr.NotePageIDs = mergeIDs(tr.NotePageIDs, cp.NotePageIDs)
	}
	if len(req.AttachmentIDs) > 0 {
		if tr.Attachments, err = s.app.attachments.get(req.AttachmentIDs); err != nil {
			return TurnStart{}, err
		}
	}
	t, err := c.Chat.Start(context.Background(), tr, em)
	if err != nil {
		return TurnStart{}, err
	}
	s.app.attachments.drop(req.AttachmentIDs)
	return TurnStart{TurnID: t.ID, SessionID: t.SessionID, UserMessage: toMessage(t.UserMessage), Model: t.Model}, nil
}

// Stop cancels a running turn; its partial reply is stored with status
// "partial" and the turn ends with done.
func (s *ChatService) Stop(turnID string) error {
	c, err := s.app.backend()
	if err != nil {
		return err
	}
	c.Chat.Stop(turnID)
	return nil
}
