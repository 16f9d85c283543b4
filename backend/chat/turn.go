package chat

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/event"
	"playchat/backend/layer"
	"playchat/backend/store"
)

// run streams the reply of t and stores it. It always ends the turn with one
// done or error event and closes t.done.
func (s *Service) run(ctx context.Context, t *Turn, set Settings, em event.Emitter) {
	defer func() {
		// A bug must not take the window down or leave the turn streaming
		// for ever: the panic is logged with its stack and ends the turn
		// with an error (the user's message is already stored).
		if p := recover(); p != nil {
			s.log.Error("turn panicked", "turn", t.ID, "session", t.SessionID, "panic", p, "stack", string(debug.Stack()))
			s.fail(t, em, apperr.New(apperr.ChatInternal, map[string]any{"detail": fmt.Sprint(p)}), "")
		}
		t.writer.halt() // stopped already unless something above failed to store
		s.mu.Lock()
		delete(s.turns, t.ID)
		s.mu.Unlock()
		t.cancel(nil)
		close(t.done)
	}()
	started := s.clock()
	t.writer = s.newReplyWriter(t)

	// The chat's own settings, as stored now: a change applies from the
	// next turn.
	var err error
	if t.chat, err = s.db.SessionSettings(ctx, t.SessionID); err != nil {
		s.fail(t, em, err, "")
		return
	}
	q := layer.Query{SessionID: t.SessionID, LatestUser: t.UserMessage.Content, Model: t.Model, Outside: t.requester != nil,
		KBDomain: firstNonEmpty(t.kbDomain, t.chat.KBDomain), NoNotes: t.noNotes}
	// The layers are built while the history is read (prefetch.go).
	layers := prefetchLayers(ctx, s.layersFor(t.chat), q)
	set = applyChat(set, t.chat)
	counter := s.counts.wrap(counterFor(t.Model))
	budget := NewBudget(windowFor(t.Model, set.ContextWindowTokens), set.MaxOutputTokens)
	history, unread, err := s.historyWithin(ctx, t.SessionID, counter, budget.Input)
	if err != nil {
		s.fail(t, em, err, "")
		return
	}
	// The tools are chosen once per turn, so every request of it carries
	// the same ones and the budget counted them.
	tc := s.chooseTools(counter, budget, t.Model, t.requester != nil || t.noNotes)
	t.tools, t.toolsChosen = tc.defs, true
	built, err := buildContextWith(ctx, counter, budget, withExtra(BasePrompt(), t.extraSystem), t.chat.SystemPrompt,
		tc.tokens, layers, q, history)
	leftUnread(&built, unread)
	built.Report.ToolsSent, built.Report.ToolsLeftOut = len(tc.defs), tc.leftOut
	if built.Report.ToolsLeftOut == nil {
		built.Report.ToolsLeftOut = []layer.Omission{}
	}
	if len(tc.leftOut) > 0 {
		s.log.Info("tools left out of the request", "session", t.SessionID, "left_out", len(tc.leftOut), "sent", len(tc.defs))
	}
	if err != nil {
		s.fail(t, em, err, "")
		return
	}
	if built.Report.SystemCut {
		s.log.Warn("the chat's system prompt was cut to fit", "session", t.SessionID, "sent", built.Report.System, "full", built.Report.SystemFull)
	}
	if built.Dropped > 0 || len(built.Trimmed) > 0 {
		s.log.Info("context trimmed to the budget", "session", t.SessionID, "dropped_messages", built.Dropped,
			"trimmed_layers", built.Trimmed, "tokens", built.Tokens, "budget", budget.Input)
	}

	if noImages(t.Model, set) {
		// This model does not take images: none goes, not even the
		// history's (issue 25).
		built.Messages = withoutImages(built.Messages)
	}
	msgs, err := resolveImages(ctx, built.Messages, s.db.ReadAttachment)
	if err != nil {
		s.fail(t, em, err, "")
		return
	}
	r, err := s.streamReply(ctx, t, set, msgs, em)
	text := r.text.String()
	reply := store.Message{SessionID: t.SessionID, ParentID: t.parentID(), Role: store.RoleAssistant, Content: text, Model: t.Model,
		PromptTokens: r.promptTokens, CompletionTokens: r.completionTokens, Status: store.StatusComplete}
	reply.SetTools(r.activity)
	reply.SetSources(r.sources)
	if reply.PromptTokens == 0 {
		reply.PromptTokens = built.Tokens
	}
	if reply.CompletionTokens == 0 && text != "" {
		reply.CompletionTokens = counter.Count(text)
	}
	reply.ContextUsage = reportJSON(s.log, built.Report) // the context meter's record, stored with the reply
	stopped := errors.Is(ctx.Err(), context.Canceled)
	switch {
	case err == nil:
	case stopped:
		reply.Status = store.StatusPartial
		reply.Error = "stopped"
	default:
		reply.Status = store.StatusError
		if strings.TrimSpace(text) != "" {
			reply.Status = store.StatusPartial
		}
		reply.Error = userError(err)
		info := userInfo(err)
		reply.SetErrorValue(&info)
	}

	// Store the reply even when the turn's context was cancelled: the row
	// written while it streamed gets its end.
	saveCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if serr := s.saveReply(saveCtx, t, &reply); serr != nil {
		s.log.Error("store reply", "session", t.SessionID, "err", serr)
		s.fail(t, em, serr, "")
		return
	}
	t.result = Result{Reply: reply, Stopped: stopped, Context: built.Report, FinishReason: r.finishReason}
	s.log.Info("turn ended", "session", t.SessionID, "model", t.Model, "status", reply.Status,
		"ms", s.clock().Sub(started).Milliseconds())

	if err != nil && !stopped {
		t.result.Err = err
		em.Emit(event.Event{Type: event.Error, Value: userInfo(err)})
	} else {
		em.Emit(event.Event{Type: event.Done})
	}
	if s.afterDone != nil {
		ids := []int64{t.UserMessage.ID}
		if strings.TrimSpace(reply.Content) != "" {
			ids = append(ids, reply.ID)
		}
		s.afterDone(t.SessionID, ids)
	}
	if s.summarizer != nil {
		compact := 0
		for _, l := range built.OverShare {
			if l == "memory" {
				compact = int(float64(budget.Input) * budget.LayerShare)
			}
		}
		s.summarizer.Request(t.SessionID, t.Model, compact)
	}
}

// fail ends a turn that could not reach the model, or broke: the error is
// stored as the assistant message (status error, with the text streamed so
// far when partial is "") so the history shows what happened, and an error
// event is sent.
func (s *Service) fail(t *Turn, em event.Emitter, err error, partial string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if partial == "" && t.writer != nil {
		partial = t.writer.currentText()
	}
	reply := store.Message{SessionID: t.SessionID, ParentID: t.parentID(), Role: store.RoleAssistant, Content: partial,
		Status: store.StatusError, Error: userError(err), Model: t.Model}
	info := userInfo(err)
	reply.SetErrorValue(&info)
	if serr := s.saveReply(ctx, t, &reply); serr != nil {
		s.log.Error("store failed reply", "err", serr)
	}
	t.result = Result{Reply: reply, Err: err}
	em.Emit(event.Event{Type: event.Error, Value: userInfo(err)})
}

// withExtra appends a turn's extra system texts (TurnRequest.ExtraSystem) to
// the base prompt, each as its own paragraph; blank ones are skipped.
func withExtra(base string, extra []string) string {
	for _, x := range extra {
		if x = strings.TrimSpace(x); x != "" {
			base += "\n\n" + x
		}
	}
	return base
}
