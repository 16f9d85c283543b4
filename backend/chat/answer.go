package chat

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/google/uuid"

	"playchat/backend/apperr"
	"playchat/backend/event"
	"playchat/backend/layer"
	"playchat/backend/llm"
	"playchat/backend/session"
	"playchat/backend/store"
)

// AnswerRequest asks for one reply through the turn pipeline that stores
// nothing: the OpenAI-compatible API's requests to a playchat/ model without
// a session (issue 23). Front-ends send such requests in the background
// (titles, tags, follow-up questions); none of them may become a stored
// turn, a memory or a tag.
type AnswerRequest struct {
	// Model is "provider/model"; "" uses DEFAULT_MODEL.
	Model string
	// History is the conversation the caller sent, oldest first, ending
	// with the user message to answer. Only user and assistant messages
	// with text count (the caller's system messages go in ExtraSystem).
	History []llm.Message
	// ExtraSystem is the caller's system text: appended to playchat's base
	// prompt, never cut (as TurnRequest.ExtraSystem).
	ExtraSystem []string
	// Purpose is recorded in api_logs ("" = llm.PurposeTurn).
	Purpose string
	// KBDomain limits the knowledge-base layer to one top-level folder
	// (layer.Query.KBDomain); "" uses the whole knowledge base.
	KBDomain string
	// NoNotes leaves the shared notes out of the context (layer.Query.NoNotes).
	NoNotes bool
}

// Answer is what an Answer call produced.
type Answer struct {
	// Model is the "provider/model" that answered.
	Model string
	// Text is the reply (partial when the call failed or was cancelled).
	Text string
	// PromptTokens and CompletionTokens are the provider's usage summed
	// over the requests (the counted context and reply when it reported
	// none).
	PromptTokens, CompletionTokens int
	// FinishReason is the last request's finish_reason ("" when none came).
	FinishReason string
	// Context is what the context held (the API names its KB documents).
	Context ContextReport
}

// Answer runs one reply with playchat's context layers (learned knowledge,
// notes, the local knowledge base, the clock; there is no session, so no
// long-term memory) over the caller's own history, and stores nothing: no
// session, no message, no memory, no tag. Tools are not offered, since
// playchat's tools write (notes, reminders, learned knowledge). onDelta (may
// be nil) gets every text delta in order, from the calling goroutine.
//
// The call is counted in Running while it lasts and ends when ctx does
// (Shutdown cancels it too). Errors: ErrNoModel, the model check's errors,
// session.CheckUserMessage's for the last message, an error when the
// history does not end with a user message, apperr.ChatTooLongForModel, the
// provider's errors (with the partial Answer), and ctx.Err().
func (s *Service) Answer(ctx context.Context, req AnswerRequest, onDelta func(string)) (ans Answer, err error) {
	set := s.settings()
	model := firstNonEmpty(req.Model, set.DefaultModel)
	if model == "" {
		return ans, ErrNoModel
	}
	ans.Model = model
	if s.checkModel != nil {
		if err := s.checkModel(model); err != nil {
			return ans, err
		}
	}
	history := make([]store.Message, 0, len(req.History))
	for _, m := range req.History {
		if m.Role == store.RoleUser || m.Role == store.RoleAssistant {
			history = append(history, store.Message{Role: m.Role, Content: m.Content, Status: store.StatusComplete})
		}
	}
	if len(history) == 0 || history[len(history)-1].Role != store.RoleUser {
		return ans, ErrNoQuestion
	}
	latest := history[len(history)-1].Content
	if err := session.CheckUserMessage(latest); err != nil {
		return ans, err
	}

	tctx, cancel := context.WithCancelCause(ctx)
	t := &Turn{ID: uuid.NewString(), Model: model, UserMessage: history[len(history)-1], cancel: cancel,
		done: make(chan struct{}), purpose: req.Purpose, kbDomain: req.KBDomain, noTools: true}
	s.mu.Lock()
	s.turns[t.ID] = t
	s.mu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("answer panicked", "panic", p, "stack", string(debug.Stack()))
			err = apperr.New(apperr.ChatInternal, map[string]any{"detail": fmt.Sprint(p)})
		}
		s.mu.Lock()
		delete(s.turns, t.ID)
		s.mu.Unlock()
		cancel(nil)
		close(t.done)
	}()

	counter := s.counts.wrap(counterFor(model))
	budget := NewBudget(windowFor(model, set.ContextWindowTokens), set.MaxOutputTokens)
	q := layer.Query{LatestUser: latest, Model: model, KBDomain: req.KBDomain, NoNotes: req.NoNotes}
	built, err := buildContext(tctx, counter, budget, withExtra(BasePrompt(), req.ExtraSystem), 0, s.layers, q, history)
	ans.Context = built.Report
	if err != nil {
		return ans, err
	}
	em := event.EmitterFunc(func(e event.Event) {
		if d, ok := e.Value.(string); ok && e.Type == event.Chunk && onDelta != nil {
			onDelta(d)
		}
	})
	r, err := s.streamReply(tctx, t, set, built.Messages, em)
	ans.Text = r.text.String()
	ans.PromptTokens, ans.CompletionTokens, ans.FinishReason = r.promptTokens, r.completionTokens, r.finishReason
	if ans.PromptTokens == 0 {
		ans.PromptTokens = built.Tokens
	}
	if ans.CompletionTokens == 0 && ans.Text != "" {
		ans.CompletionTokens = counter.Count(ans.Text)
	}
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return ans, err
}

// ErrNoQuestion means an Answer's history does not end with a user message.
var ErrNoQuestion error = apperr.New(apperr.APILastNotUser, nil)
