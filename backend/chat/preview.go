package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"playchat/backend/apperr"
	"playchat/backend/attach"
	"playchat/backend/layer"
	"playchat/backend/store"
)

// PreviewRequest asks what the next turn's context would hold.
type PreviewRequest struct {
	// SessionID is the session the draft would continue; "" for a new chat
	// (no history, no pins, no memories).
	SessionID string `json:"sessionId"`
	// Text is the draft as typed (may be empty).
	Text string `json:"text"`
	// Model is the model picked for the turn; "" uses the session's model,
	// then DEFAULT_MODEL.
	Model string `json:"model"`
	// ChatSettings, for a new chat (SessionID ""), are the settings it
	// would start with (an assistant's); nil = defaults. A session's own
	// stored settings apply otherwise.
	ChatSettings *store.ChatSettings `json:"chatSettings,omitempty"`
}

// Preview builds the context the next turn would send for the draft and
// returns its report (Preview true), for the context meter as the user
// types. It calls no model, embeds nothing (layers see layer.Query.Preview)
// and writes nothing. A draft too long for the model gives a report with
// TooLong set, not an error. files are the files waiting in the message
// box, counted as the draft's (the report's Attachments). When its
// documents would not fit beside the conversation (checkFits' rule: sending
// makes the offer to send the part that fits), the report is the one of
// the draft with its images only, its documents then counted in full in
// Attachments and Used, with AttachmentsTooLong set: the meter shows that
// they do not fit without saying the draft itself is too long (Send stays
// possible and brings the offer).
func (s *Service) Preview(ctx context.Context, req PreviewRequest, files ...attach.Prepared) (ContextReport, error) {
	set := s.settings()
	var sess store.Session
	if req.SessionID != "" {
		var err error
		if sess, err = s.db.GetSession(ctx, req.SessionID); err != nil {
			return ContextReport{}, err
		}
	}
	cs := store.DecodeChatSettings(sess.Settings)
	if req.SessionID == "" && req.ChatSettings != nil {
		cs = *req.ChatSettings // a new chat from an assistant
	}
	model := firstNonEmpty(req.Model, sess.Model, cs.Model, set.DefaultModel)
	if model == "" {
		return ContextReport{}, ErrNoModel
	}
	var history []store.Message
	set = applyChat(set, cs)
	counter := s.counts.wrap(counterFor(model))
	budget := NewBudget(windowFor(model, set.ContextWindowTokens), set.MaxOutputTokens)
	unread := 0
	if req.SessionID != "" {
		var err error
		if history, unread, err = s.historyWithin(ctx, req.SessionID, counter, budget.Input); err != nil {
			return ContextReport{}, err
		}
	}
	draft := store.Message{SessionID: req.SessionID, Role: store.RoleUser, Content: req.Text, Files: filesOf(files)}
	// Documents that sending would refuse with the offer are measured
	// apart: the draft goes to the context with its images only.
	var offered []store.MessageFile
	if hasDocuments(draft.Files) {
		before := append([]store.Message(nil), history...)
		place := fitPlace{system: cs.SystemPrompt, before: func() ([]store.Message, error) { return before, nil }}
		if _, err := s.checkFits(model, set, req.Text, nil, draft.Files, false, place); apperr.CodeOf(err) == apperr.ChatAttachmentTooLong {
			var images []store.MessageFile
			for _, f := range draft.Files {
				if f.Kind == attach.KindImage {
					images = append(images, f)
				} else {
					offered = append(offered, f)
				}
			}
			draft.Files = images
		}
	}
	history = append(history, draft)
	q := layer.Query{SessionID: req.SessionID, LatestUser: req.Text, Model: model, Preview: true, KBDomain: cs.KBDomain}
	tc := s.chooseTools(counter, budget, model, false)
	built, err := buildContextWith(ctx, counter, budget, BasePrompt(), cs.SystemPrompt, tc.tokens, s.layersFor(cs), q, history)
	leftUnread(&built, unread)
	if len(offered) > 0 && err == nil {
		docs := filesTokens(counter, offered)
		built.Report.Attachments += docs
		built.Report.Used += docs
		built.Report.AttachmentsTooLong = true
	}
	built.Report.ToolsSent, built.Report.ToolsLeftOut = len(tc.defs), tc.leftOut
	if built.Report.ToolsLeftOut == nil {
		built.Report.ToolsLeftOut = []layer.Omission{}
	}
	if err != nil {
		if apperr.CodeOf(err) == apperr.ChatTooLongForModel {
			return built.Report, nil
		}
		return ContextReport{}, err
	}
	return built.Report, nil
}

// Report returns the context report stored with reply messageID, and false
// when none was stored (a reply from before the context meter, a user
// message, or a turn that failed before its context was built).
func (s *Service) Report(ctx context.Context, messageID int64) (ContextReport, bool, error) {
	raw, ok, err := s.db.GetContextUsage(ctx, messageID)
	if err != nil || !ok {
		return ContextReport{}, false, err
	}
	var r ContextReport
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		return ContextReport{}, false, fmt.Errorf("context report of message %d: %w", messageID, err)
	}
	return r, true, nil
}

// reportJSON is the report as stored with its reply (store.Message's
// ContextUsage, written in the reply's transaction); "" — nothing stored —
// if it cannot be encoded: the meter never fails a turn.
func reportJSON(log *slog.Logger, r ContextReport) string {
	b, err := json.Marshal(r)
	if err != nil {
		log.Warn("encode context report", "err", err)
		return ""
	}
	return string(b)
}
