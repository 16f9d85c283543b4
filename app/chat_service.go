package app

import (
	"context"

	"playchat/backend/chat"
)

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
	t, err := c.Chat.Start(context.Background(), chat.TurnRequest{
		TurnID: req.TurnID, SessionID: req.SessionID, Text: req.Text, Model: req.Model, NotePageIDs: req.NotePageIDs,
	}, em)
	if err != nil {
		return TurnStart{}, err
	}
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
