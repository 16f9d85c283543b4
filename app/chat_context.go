package app

import (
	"context"

	"playchat/backend/attach"
	"playchat/backend/chat"
)

// StoredContextReport is the context report stored with one reply.
type StoredContextReport struct {
	// Found is false for a reply stored before the context meter existed, a
	// user message, or a turn that failed before its context was built.
	Found bool `json:"found"`
	// Report is the report (zero when not Found).
	Report chat.ContextReport `json:"report"`
}

// ContextPreview measures the context the next turn would send for the
// draft (the context meter under the input, called as the user types): the
// tokens each layer would use of the model's window and what would be left
// out or cut. attachmentIDs are the files waiting in the message box
// (StagedAttachment.ID), counted as they would be sent; one no longer
// waiting is left out. It calls no model and writes nothing.
func (s *ChatService) ContextPreview(req chat.PreviewRequest, attachmentIDs []string) (chat.ContextReport, error) {
	c, err := s.app.backend()
	if err != nil {
		return chat.ContextReport{}, err
	}
	var files []attach.Prepared
	for _, id := range attachmentIDs {
		if p, err := s.app.attachments.get([]string{id}); err == nil {
			files = append(files, p...)
		}
	}
	return c.Chat.Preview(context.Background(), req, files...)
}

// ContextReport returns the context report stored with reply messageID:
// what its request used, sent, left out and cut.
func (s *ChatService) ContextReport(messageID int64) (StoredContextReport, error) {
	c, err := s.app.backend()
	if err != nil {
		return StoredContextReport{}, err
	}
	r, ok, err := c.Chat.Report(context.Background(), messageID)
	if err != nil {
		return StoredContextReport{}, err
	}
	return StoredContextReport{Found: ok, Report: r}, nil
}
