package chat

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"

	"playchat/backend/apperr"
	"playchat/backend/attach"
	"playchat/backend/event"
	"playchat/backend/session"
	"playchat/backend/store"
	"playchat/backend/tokens"
)

// Regenerating a reply and editing a sent question (issue 9). Both keep the
// earlier version: the new reply or question is a sibling of the old one in
// the session's message tree (store/tree.go), selected at once, and the
// reply streams through the same turn pipeline as Start's (launch, run).
//
// A message that was summarised into long-term memory (archived) cannot be
// edited or regenerated: its text is already folded into a memory that
// every branch below it reads, so a new version there would contradict the
// memory. The error is apperr.ChatBranchArchived; edit a later message.

// RegenerateRequest asks for the last reply of the selected branch again.
type RegenerateRequest struct {
	// TurnID names the turn's events; "" generates one.
	TurnID    string
	SessionID string
	// Model writes the new reply ("" = the session's model, else
	// DEFAULT_MODEL); a different model becomes the session's model, as
	// with Start.
	Model string
	// QuestionID, when not 0, names the user message of the selected branch
	// to answer again (Retry on an unanswered question, which need not be
	// the last one); 0 answers the branch's last question.
	QuestionID int64
	// FitAttachments, when the question's documents do not fit Model,
	// sends only the part of each that fits (as TurnRequest's) and records
	// it on the question; without it such a regenerate is refused with
	// apperr.ChatAttachmentTooLong, its offer, and nothing changes.
	FitAttachments bool
}

// EditRequest resends a user message with new text.
type EditRequest struct {
	// TurnID names the turn's events; "" generates one.
	TurnID    string
	SessionID string
	// MessageID is the user message to edit (any on the selected branch or
	// another one).
	MessageID int64
	// Text is the edited message (the rules of Start's Text).
	Text string
	// Model as RegenerateRequest.Model.
	Model string
	// FitAttachments as RegenerateRequest's: the new version carries the
	// part of each of the original's documents that fits Model.
	FitAttachments bool
}

// Regenerate answers the last question of the session's selected branch
// again: the new reply becomes a sibling of the reply it replaces (or the
// first reply, when the question has none), and the branch ending at it is
// selected. Events are Start's. Errors returned here mean nothing changed:
// apperr.ChatNothingToRegenerate when the branch has no question,
// apperr.ChatBranchArchived when the question was summarised,
// apperr.ChatReplyStreaming while its reply is still being written.
func (s *Service) Regenerate(ctx context.Context, req RegenerateRequest, em event.Emitter) (*Turn, error) {
	sess, err := s.db.GetSession(ctx, req.SessionID)
	if err != nil {
		return nil, err
	}
	branch, err := s.db.BranchMessages(ctx, sess.ID)
	if err != nil {
		return nil, err
	}
	if streamingAfter(branch, 0) >= 0 {
		// A reply left streaming by a process that has ended since this
		// one started is interrupted: mark it, then read the branch again.
		if _, err := s.db.RecoverInterrupted(ctx); err != nil {
			return nil, err
		}
		if branch, err = s.db.BranchMessages(ctx, sess.ID); err != nil {
			return nil, err
		}
	}
	qi := -1
	for i := len(branch) - 1; i >= 0; i-- {
		if branch[i].Role == store.RoleUser && (req.QuestionID == 0 || branch[i].ID == req.QuestionID) {
			qi = i
			break
		}
	}
	if qi < 0 && req.QuestionID != 0 {
		return nil, apperr.New(apperr.ChatNotUserMessage, map[string]any{"id": req.QuestionID})
	}
	if qi < 0 {
		return nil, apperr.New(apperr.ChatNothingToRegenerate, nil)
	}
	question := &branch[qi]
	if streamingAfter(branch, qi) >= 0 {
		// Its reply is still being written (another turn, or `playchat
		// ask` beside the window): a second one now would race it.
		return nil, apperr.New(apperr.ChatReplyStreaming, map[string]any{"id": question.ID})
	}
	if question.ArchivedAt != nil {
		return nil, apperr.New(apperr.ChatBranchArchived, map[string]any{"id": question.ID})
	}
	model, set, err := s.turnModel(sess, req.Model)
	if err != nil {
		return nil, err
	}
	// Its documents must fit the model that answers now (another, smaller
	// one may): refused with the offer, or sent in the part that fits.
	files, err := s.db.FilesOf(ctx, []int64{question.ID})
	if err != nil {
		return nil, err
	}
	if len(files[question.ID]) > 0 {
		place := fitPlace{system: store.DecodeChatSettings(sess.Settings).SystemPrompt, before: func() ([]store.Message, error) {
			var before []store.Message
			for _, m := range branch[:qi] {
				if m.ArchivedAt == nil {
					before = append(before, m)
				}
			}
			return before, s.db.LoadFiles(ctx, before)
		}}
		// The documents are fitted whole again: a model that takes all of
		// them gets all of them, whatever part an earlier reply got.
		fitted, err := s.checkFits(model, set, question.Content, nil, wholeFiles(files[question.ID]), req.FitAttachments, place)
		if err != nil {
			return nil, err
		}
		if sentPartsDiffer(files[question.ID], fitted) {
			// This reply gets another part of the documents than the
			// question's other replies did: it answers a new version of
			// the question that sends that part (as an edit would), so
			// each version's chip names what its replies got. Changing the
			// question's part in place made its earlier reply claim a part
			// it never got, and a later regenerate with a model that takes
			// the whole document sent the part (a new-user try).
			if err := s.adoptModel(ctx, sess, model); err != nil {
				return nil, err
			}
			user := store.Message{SessionID: sess.ID, Role: store.RoleUser, Content: question.Content, Model: model, Files: fitted}
			if err := s.db.InsertBranch(ctx, &user, question.ParentID); err != nil {
				return nil, err
			}
			return s.launch(turnID(req.TurnID), sess.ID, model, user, false, set, em)
		}
	}
	if err := s.adoptModel(ctx, sess, model); err != nil {
		return nil, err
	}
	// The question becomes the end of the selected branch; the new reply,
	// stored under it, extends the branch from there.
	if err := s.db.SelectMessage(ctx, sess.ID, question.ID); err != nil {
		return nil, err
	}
	return s.launch(turnID(req.TurnID), sess.ID, model, *question, false, set, em)
}

// Edit stores text as a new version of user message req.MessageID (a
// sibling under the same parent, selected at once) and streams the reply to
// it. Errors returned here mean nothing was stored: Start's message rules,
// apperr.ChatNotUserMessage when the message is not a user message of the
// session, apperr.ChatBranchArchived when it was summarised.
func (s *Service) Edit(ctx context.Context, req EditRequest, em event.Emitter) (*Turn, error) {
	if err := session.CheckUserMessage(req.Text); err != nil {
		return nil, err
	}
	sess, err := s.db.GetSession(ctx, req.SessionID)
	if err != nil {
		return nil, err
	}
	orig, err := s.db.GetMessage(ctx, req.MessageID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && (orig.SessionID != sess.ID || orig.Role != store.RoleUser)) {
		return nil, apperr.New(apperr.ChatNotUserMessage, map[string]any{"id": req.MessageID})
	}
	if err != nil {
		return nil, err
	}
	if orig.ArchivedAt != nil {
		return nil, apperr.New(apperr.ChatBranchArchived, map[string]any{"id": orig.ID})
	}
	model, set, err := s.turnModel(sess, req.Model)
	if err != nil {
		return nil, err
	}
	// The new version keeps the original's attachments (links to the
	// files already stored).
	kept, err := s.db.FilesOf(ctx, []int64{orig.ID})
	if err != nil {
		return nil, err
	}
	place := fitPlace{system: store.DecodeChatSettings(sess.Settings).SystemPrompt, before: func() ([]store.Message, error) {
		return s.db.HistoryBefore(ctx, orig.ID)
	}}
	files, err := s.checkFits(model, set, req.Text, nil, kept[orig.ID], req.FitAttachments, place)
	if err != nil {
		return nil, err
	}
	if err := s.adoptModel(ctx, sess, model); err != nil {
		return nil, err
	}
	user := store.Message{SessionID: sess.ID, Role: store.RoleUser, Content: req.Text, Model: model, Files: files}
	if err := s.db.InsertBranch(ctx, &user, orig.ParentID); err != nil {
		return nil, err
	}
	return s.launch(turnID(req.TurnID), sess.ID, model, user, false, set, em)
}

// RemoveUnanswered removes an unanswered question (Unanswered) of the
// session and its replies without text; messages sent after it stay, one
// branch (store.DB.DeleteUnanswered). Errors: apperr.ChatBusy while a turn
// of the session runs, apperr.ChatNotUserMessage when id is not a user
// message of the session, apperr.ChatAnswered when it has a reply with text
// or was summarised. Nothing changes on an error.
func (s *Service) RemoveUnanswered(ctx context.Context, sessionID string, id int64) error {
	if s.sessionBusy(sessionID) {
		return apperr.New(apperr.ChatBusy, nil)
	}
	err := s.db.DeleteUnanswered(ctx, sessionID, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return apperr.New(apperr.ChatNotUserMessage, map[string]any{"id": id})
	case errors.Is(err, store.ErrAnswered):
		return apperr.New(apperr.ChatAnswered, map[string]any{"id": id})
	}
	return err
}

// Answering reports whether a turn of the session is running (its last
// question is being answered).
func (s *Service) Answering(sessionID string) bool { return s.sessionBusy(sessionID) }

// sessionBusy reports whether a turn of the session is running.
func (s *Service) sessionBusy(sessionID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.turns {
		if t.SessionID == sessionID {
			return true
		}
	}
	return false
}

// checkFits refuses a message with images for a model set not to take
// them (checkImagesTaken, apperr.ChatImagesNotTaken), and one that cannot
// be sent to model even alone: the
// base prompt (with extra, a turn's extra system texts) and the message
// must fit the input budget, which the history and the layers then share.
// The error is apperr.ChatTooLongForModel, checked before anything is
// stored, so the text stays in the composer and nothing fails later
// (issue 21) — or apperr.ChatAttachmentTooLong when the message would fit
// without its documents' text (fit.go): then, with fit, the files come
// back with the part of each document that fits set, unless some document
// cannot send even its first page or character. Without an error the files
// come back as given (fit or not: they fit whole).
//
// Documents must also leave room for what the turn sends before any layer
// and for the smallest layers (conversationReserve, read from place only
// when the message has documents): a document, or the part of one, that
// took all of the room pushed the conversation and the current time out of
// the request (issue 25). Images and the message's text alone are held to
// the input budget only, as before.
func (s *Service) checkFits(model string, set Settings, text string, extra []string, files []store.MessageFile, fit bool, place fitPlace) ([]store.MessageFile, error) {
	if err := checkImagesTaken(model, set, files); err != nil {
		return nil, err
	}
	counter := counterFor(model)
	budget := NewBudget(windowFor(model, set.ContextWindowTokens), set.MaxOutputTokens)
	fixed := counter.Count(withExtra(BasePrompt(), extra)) + counter.Count(text) + 2*tokens.MessageOverhead +
		s.toolTokens(counter, budget, model, false)
	used := fixed + filesTokens(counter, files)
	if !hasDocuments(files) {
		if used <= budget.Input {
			return files, nil
		}
		return nil, tooLongError(used, budget.Input, fitResult{first: -1}, false)
	}
	reserve, err := place.reserve(counter, budget)
	if err != nil {
		return nil, err
	}
	if used+reserve <= budget.Input {
		return files, nil
	}
	fixed += reserve
	used += reserve
	images := 0
	for _, f := range files {
		if f.Kind == attach.KindImage {
			images += ImageTokens(f.Width, f.Height)
		}
	}
	room := budget.Input - fixed - images
	docsOnly := room > 0 && len(files) > 0
	var res fitResult
	if docsOnly {
		res = fitDocuments(counter, room, files)
		if fit && res.complete && res.first >= 0 {
			return res.files, nil
		}
	}
	return nil, tooLongError(used, budget.Input, res, docsOnly)
}

// turnModel resolves the model of a turn in an existing session as Start
// does (the request's, the session's, DEFAULT_MODEL) and checks it. The
// session keeps its model until the turn is sure to run (adoptModel).
func (s *Service) turnModel(sess store.Session, requested string) (string, Settings, error) {
	set := s.settings()
	model := firstNonEmpty(requested, sess.Model, set.DefaultModel)
	if model == "" {
		return "", set, ErrNoModel
	}
	if s.checkModel != nil {
		if err := s.checkModel(model); err != nil {
			return "", set, err
		}
	}
	return model, set, nil
}

// adoptModel makes model the session's model when it is another one (a
// regenerate or an edit with another model, once nothing refuses it).
func (s *Service) adoptModel(ctx context.Context, sess store.Session, model string) error {
	if model == strings.TrimSpace(sess.Model) {
		return nil
	}
	_, err := s.db.SetSessionModel(ctx, sess.ID, model)
	return err
}

// streamingAfter is the index of the first message of ms from index from
// on that is still streaming, or -1.
func streamingAfter(ms []store.Message, from int) int {
	for i := from; i < len(ms); i++ {
		if ms[i].Status == store.StatusStreaming {
			return i
		}
	}
	return -1
}

func turnID(id string) string {
	if id == "" {
		return uuid.NewString()
	}
	return id
}

// parentID is where the turn's reply goes in the message tree: under the
// question it answers (nil for a turn without a stored question).
func (t *Turn) parentID() *int64 {
	if t.UserMessage.ID == 0 {
		return nil
	}
	id := t.UserMessage.ID
	return &id
}
