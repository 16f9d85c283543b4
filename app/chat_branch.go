package app

import (
	"context"

	"playchat/backend/chat"
	"playchat/backend/core"
	"playchat/backend/event"
	"playchat/backend/store"
)

// RegenerateRequest asks for the last reply of a session's selected branch
// again; the earlier reply is kept as another version.
type RegenerateRequest struct {
	TurnID    string `json:"turnId"`
	SessionID string `json:"sessionId"`
	// Model writes the new reply (empty: the session's model, else
	// DEFAULT_MODEL); a different model becomes the session's model.
	Model string `json:"model"`
	// QuestionID names the question to answer again (Retry on an
	// unanswered question); 0 = the branch's last question.
	QuestionID int64 `json:"questionId"`
	// FitAttachments sends only the part of each of the question's
	// documents that fits the model (the chat.attachmentTooLong offer's
	// "send the part that fits"); without it such a regenerate is refused
	// and nothing changes.
	FitAttachments bool `json:"fitAttachments"`
}

// EditRequest sends a new version of one of the user's messages; the
// original is kept as another version.
type EditRequest struct {
	TurnID    string `json:"turnId"`
	SessionID string `json:"sessionId"`
	MessageID int64  `json:"messageId"`
	Text      string `json:"text"`
	Model     string `json:"model"` // as RegenerateRequest.Model
	// FitAttachments as RegenerateRequest's, for the original's documents.
	FitAttachments bool `json:"fitAttachments"`
}

// Regenerate starts a new reply to the last question of the selected branch,
// streamed like Send's ("chat:turn:<turnId>"; subscribe before calling).
// TurnStart.UserMessage is the question answered again. The returned error
// means nothing changed (chat.nothingToRegenerate, chat.branchArchived, …).
func (s *ChatService) Regenerate(req RegenerateRequest) (TurnStart, error) {
	c, err := s.app.backend()
	if err != nil {
		return TurnStart{}, err
	}
	t, err := c.Chat.Regenerate(context.Background(), chat.RegenerateRequest{
		TurnID: req.TurnID, SessionID: req.SessionID, Model: req.Model, QuestionID: req.QuestionID,
		FitAttachments: req.FitAttachments}, s.turnEmitter(req.TurnID))
	if err != nil {
		return TurnStart{}, err
	}
	return TurnStart{TurnID: t.ID, SessionID: t.SessionID, UserMessage: toMessage(t.UserMessage), Model: t.Model}, nil
}

// Edit stores the edited text as a new version of user message
// req.MessageID, selects it and streams the reply like Send. The returned
// error means nothing was stored (chat.notUserMessage, chat.branchArchived,
// the message rules of Send).
func (s *ChatService) Edit(req EditRequest) (TurnStart, error) {
	c, err := s.app.backend()
	if err != nil {
		return TurnStart{}, err
	}
	t, err := c.Chat.Edit(context.Background(), chat.EditRequest{TurnID: req.TurnID, SessionID: req.SessionID,
		MessageID: req.MessageID, Text: req.Text, Model: req.Model, FitAttachments: req.FitAttachments}, s.turnEmitter(req.TurnID))
	if err != nil {
		return TurnStart{}, err
	}
	return TurnStart{TurnID: t.ID, SessionID: t.SessionID, UserMessage: toMessage(t.UserMessage), Model: t.Model}, nil
}

// RemoveUnanswered removes an unanswered question (Message.Unanswered) and
// its failed or empty reply; later messages stay. It returns the session's
// selected branch as Messages does. Errors: chat.busy while a reply of the
// chat streams, chat.notUserMessage, chat.answered; nothing changes then.
func (s *ChatService) RemoveUnanswered(sessionID string, messageID int64) ([]Message, error) {
	c, err := s.app.backend()
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	if err := c.Chat.RemoveUnanswered(ctx, sessionID, messageID); err != nil {
		return nil, err
	}
	return branchMessages(ctx, c, sessionID)
}

// turnEmitter sends a turn's events to "chat:turn:<turnID>". Chunks are
// merged (at most one event per 30 ms) before they cross into the webview: a
// flood of one-character deltas must not become a flood of script
// evaluations there (issue #5). The idle memory trim of both processes
// (webview/idle_trim.go) waits until the turn's last event is 2 s old.
func (s *ChatService) turnEmitter(turnID string) event.Emitter {
	p := s.app.plat()
	name := event.TurnEventName(turnID)
	// Every event of the turn (at most one per 30 ms) puts the idle trim
	// off: it runs only once the window has been quiet for
	// webview.IdleTrimDelay, never while a reply is streaming.
	s.app.trim.Poke()
	return event.Coalesce(event.EmitterFunc(func(e event.Event) {
		p.Emit(name, e)
		s.app.trim.Poke()
	}), event.DefaultCoalesceInterval)
}

// SelectBranch switches the session to the version of the conversation
// through message messageID (one of a message's SiblingIDs): the branch
// continues to the newest message below it. It returns the messages of the
// newly selected branch, as Messages does.
func (s *SessionService) SelectBranch(sessionID string, messageID int64) ([]Message, error) {
	c, err := s.app.backend()
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	if _, err := c.DB.SelectBranch(ctx, sessionID, messageID); err != nil {
		return nil, err
	}
	return branchMessages(ctx, c, sessionID)
}

// branchMessages is the session's selected branch for the window, each
// message with its versions when it has several and its unanswered mark.
//
// A reply another process was writing when it ended (`playchat ask` killed
// while the window is open) still says streaming: it is marked interrupted
// here (store.RecoverInterrupted touches only rows whose process has
// ended), so the window shows it as such without a restart.
func branchMessages(ctx context.Context, c *core.Core, sessionID string) ([]Message, error) {
	db := c.DB
	ms, err := db.BranchMessages(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		if m.Status == store.StatusStreaming && m.StreamOwner != db.Owner() {
			if n, err := db.RecoverInterrupted(ctx); err == nil && n > 0 {
				if ms, err = db.BranchMessages(ctx, sessionID); err != nil {
					return nil, err
				}
			}
			break
		}
	}
	sibs, err := db.SiblingIDs(ctx, sessionID, ms)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	tags, err := db.MessageTags(ctx, ids)
	if err != nil {
		return nil, err
	}
	files, err := db.FilesOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	unanswered := chat.Unanswered(ms, c.Chat.Answering(sessionID))
	out := make([]Message, len(ms))
	for i, m := range ms {
		m.Files = files[m.ID]
		out[i] = toMessage(m)
		out[i].Unanswered = unanswered[m.ID]
		if ids := sibs[m.ID]; len(ids) > 1 {
			out[i].SiblingIDs = ids
		}
		if t := tags[m.ID]; len(t) > 0 {
			out[i].Tags = t
		}
	}
	return out, nil
}
