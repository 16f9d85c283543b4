package apiserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/chat"
	"playchat/backend/event"
	"playchat/backend/kb"
	"playchat/backend/layer"
	"playchat/backend/llm"
	"playchat/backend/store"
)

// chatCompletions answers POST /v1/chat/completions.
func (s *Server) chatCompletions(w http.ResponseWriter, r *http.Request) {
	start := s.o.Clock()
	var req completionRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			err = apperr.New(apperr.APIBodyTooLarge, map[string]any{"maxMiB": MaxBodyBytes >> 20})
		} else {
			err = apperr.Wrap(apperr.APIBadJSON, err, map[string]any{"detail": err.Error()})
		}
		s.record(r.Context(), "", err, start)
		writeFailure(w, err)
		return
	}
	p := &replyWriter{w: w, rc: http.NewResponseController(w), stream: req.Stream, includeUsage: req.includeUsage(),
		id: "chatcmpl-" + randomID(), model: req.Model, created: start.Unix()}
	// The request's context ends when the client disconnects; the call
	// it cancels is logged as that (llm.clientGone), not as a user's Stop.
	ctx, cancel := context.WithCancelCause(context.WithoutCancel(r.Context()))
	defer cancel(nil)
	defer context.AfterFunc(r.Context(), func() { cancel(apperr.New(apperr.LLMClientGone, nil)) })()
	var err error
	if inner, ok := strings.CutPrefix(req.Model, AliasPrefix); ok {
		err = s.alias(ctx, &req, inner, p)
	} else {
		err = s.proxy(ctx, &req, p)
	}
	if err != nil {
		p.fail(err)
	}
}

// check refuses what no model can answer, before any call: no messages, n
// other than 1, an unknown model. Its errors are recorded in api_logs.
func (s *Server) check(ctx context.Context, req *completionRequest, model string, start time.Time) error {
	var err error
	switch {
	case len(req.Messages) == 0:
		err = apperr.New(apperr.APINoMessages, nil)
	case req.N != nil && *req.N != 1:
		err = apperr.New(apperr.APIOnlyOneChoice, map[string]any{"n": *req.N})
	default:
		if _, rerr := llm.ResolveModel(model, s.o.LLM.Providers()); rerr != nil {
			if errors.Is(rerr, llm.ErrUnknownProvider) || errors.Is(rerr, llm.ErrNoModel) {
				rerr = apperr.Wrap(apperr.APIModelNotFound, rerr, map[string]any{"model": req.Model})
			}
			err = rerr
		}
	}
	if err != nil {
		s.record(ctx, req.Model, err, start)
	}
	return err
}

// proxy passes a plain model's request on to its provider: the messages,
// tools and sampling parameters as sent, streamed from the provider
// whether or not the client streams. The call is recorded in api_logs
// (PurposeAPI) by the LLM client.
func (s *Server) proxy(ctx context.Context, req *completionRequest, p *replyWriter) error {
	if err := s.check(ctx, req, req.Model, s.o.Clock()); err != nil {
		return err
	}
	res, err := s.o.LLM.Stream(ctx, llm.Request{Model: req.Model, Messages: req.Messages, Tools: req.Tools,
		Purpose: llm.PurposeAPI, MaxTokens: req.maxTokens(), Adjust: req.adjust}, p.delta)
	if err != nil {
		return err
	}
	calls := append(append([]llm.ToolCall(nil), res.ToolCalls...), res.Truncated...)
	p.finish(outcome{finishReason: res.FinishReason, toolCalls: calls, promptTokens: res.PromptTokens, completionTokens: res.CompletionTokens})
	return nil
}

// alias runs a playchat/ model's request through playchat's turn pipeline:
// stored in the session x_playchat_session names ("new" starts one), or,
// without it, through chat.Service.Answer, which stores nothing.
func (s *Server) alias(ctx context.Context, req *completionRequest, model string, p *replyWriter) error {
	start := s.o.Clock()
	if err := s.check(ctx, req, model, start); err != nil {
		return err
	}
	var system []string
	var history []llm.Message
	for _, m := range req.Messages {
		switch text := messageText(m); m.Role {
		case "system", "developer":
			system = append(system, text)
		case "user", "assistant":
			if strings.TrimSpace(text) != "" || m.Role == "user" {
				history = append(history, llm.Message{Role: m.Role, Content: text})
			}
		}
	}
	if len(history) == 0 || history[len(history)-1].Role != "user" {
		err := apperr.New(apperr.APILastNotUser, nil)
		s.record(ctx, req.Model, err, start)
		return err
	}
	if err := s.checkDomain(ctx, req.KBDomain); err != nil {
		s.record(ctx, req.Model, err, start)
		return err
	}
	if req.Session != "" {
		return s.storedTurn(ctx, req, model, system, history[len(history)-1].Content, p)
	}
	ans, err := s.o.Chat.Answer(ctx, chat.AnswerRequest{Model: model, History: history, ExtraSystem: system,
		Purpose: llm.PurposeAPITurn, KBDomain: req.KBDomain, NoNotes: !s.shareNotes()}, p.delta)
	if err != nil {
		if errors.Is(err, chat.ErrNoQuestion) {
			s.record(ctx, req.Model, err, start)
		}
		return err
	}
	p.finish(outcome{finishReason: aliasFinish(ans.FinishReason), promptTokens: ans.PromptTokens,
		completionTokens: ans.CompletionTokens, sources: sourcesOf(ans.Context)})
	return nil
}

// storedTurn runs the request as a turn of a playchat session (the
// session's own history is the conversation; the request's last user
// message is the new one) and stores it like a turn of the window. A
// client that goes away stops the turn, which stores what it has.
func (s *Server) storedTurn(ctx context.Context, req *completionRequest, model string, system []string, text string, p *replyWriter) error {
	sessionID := req.Session
	if sessionID == "new" {
		sessionID = ""
	}
	em := event.EmitterFunc(func(e event.Event) {
		if d, ok := e.Value.(string); ok && e.Type == event.Chunk {
			p.delta(d)
		}
	})
	turn, err := s.o.Chat.Start(ctx, chat.TurnRequest{SessionID: sessionID, Text: text, Model: model, ExtraSystem: system,
		Purpose: llm.PurposeAPITurn, KBDomain: req.KBDomain, NoNotes: !s.shareNotes()}, em)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) && sessionID != "" {
			err = apperr.Wrap(apperr.APISessionNotFound, err, map[string]any{"id": sessionID})
		}
		s.record(ctx, req.Model, err, s.o.Clock())
		return err
	}
	stop := context.AfterFunc(ctx, func() { s.o.Chat.StopBecause(turn.ID, context.Cause(ctx)) })
	defer stop()
	res := turn.Wait()
	if res.Stopped {
		return ctx.Err()
	}
	if res.Err != nil {
		return res.Err
	}
	p.finish(outcome{finishReason: aliasFinish(res.FinishReason), promptTokens: res.Reply.PromptTokens,
		completionTokens: res.Reply.CompletionTokens, sources: sourcesOf(res.Context), session: turn.SessionID})
	return nil
}

// checkDomain refuses an x_playchat_kb_domain that is not a top-level
// folder of the knowledge base ("" passes).
func (s *Server) checkDomain(ctx context.Context, domain string) error {
	if domain == "" {
		return nil
	}
	bad := apperr.New(apperr.APIBadKBDomain, map[string]any{"domain": domain})
	if !kb.ValidDomainName(domain) || s.o.KBDomains == nil {
		return bad
	}
	ds, err := s.o.KBDomains(ctx)
	if err != nil {
		return err
	}
	if !slices.Contains(ds, domain) {
		return bad
	}
	return nil
}

// aliasFinish is the finish_reason of a playchat/ model's reply: the last
// request's, "stop" when the provider sent none or the turn ended after its
// tool rounds.
func aliasFinish(reason string) string {
	if reason == "" || reason == "tool_calls" || reason == "function_call" {
		return "stop"
	}
	return reason
}

// sourcesOf lists the knowledge-base documents a turn's context held.
func sourcesOf(rep chat.ContextReport) []Source {
	var out []Source
	for _, u := range rep.Layers {
		if u.Layer != kb.LayerName {
			continue
		}
		for _, it := range u.Included {
			if it.Kind != layer.KindKBDoc {
				continue
			}
			out = append(out, Source{Domain: domainOfPath(it.ID), Path: it.ID, Title: it.Title})
		}
	}
	return out
}

// domainOfPath is the domain of a knowledge-base path: its first folder,
// or for a learned document (_learned/<domain>/…) its second.
func domainOfPath(p string) string {
	first, rest, ok := strings.Cut(p, "/")
	if !ok {
		return ""
	}
	if first == kb.LearnedFolder {
		if d, _, ok := strings.Cut(rest, "/"); ok {
			return d
		}
		return ""
	}
	return first
}

// record stores a request that failed before any LLM call in api_logs
// (PurposeAPI), so the Logs panel shows it.
func (s *Server) record(ctx context.Context, model string, err error, start time.Time) {
	if s.o.Log == nil {
		return
	}
	l := llm.APILog{Model: model, Purpose: llm.PurposeAPI, Error: apperr.Stored(err),
		LatencyMS: s.o.Clock().Sub(start).Milliseconds(), CreatedAt: start.UTC()}
	if rerr := s.o.Log.RecordAPILog(context.WithoutCancel(ctx), l); rerr != nil {
		s.o.Logger.Warn("api: recording a refused request failed", "err", rerr)
	}
}

// randomID is 24 hex digits for a completion id.
func randomID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// shareNotes is Options.ShareNotes (false when unset).
func (s *Server) shareNotes() bool { return s.o.ShareNotes != nil && s.o.ShareNotes() }
