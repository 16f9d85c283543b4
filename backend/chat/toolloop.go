package chat

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"

	"playchat/backend/apperr"
	"playchat/backend/event"
	"playchat/backend/layer"
	"playchat/backend/llm"
	"playchat/backend/store"
	"playchat/backend/tokens"
	"playchat/backend/tools"
)

// ErrToolLimit means the model used up TOOL_MAX_ROUNDS without answering.
var ErrToolLimit = errors.New("the model reached the tool-call limit")

// toolLimit is the error of a turn that used up its rounds of tools.
func toolLimit(rounds int) error {
	return apperr.Wrap(apperr.ChatToolLimit, ErrToolLimit, map[string]any{"rounds": rounds})
}

// DefaultToolMaxRounds is TOOL_MAX_ROUNDS' default.
const DefaultToolMaxRounds = 3

// toolTimeout bounds one tool call.
const toolTimeout = 60 * time.Second

// activityResultRunes caps a tool result as shown in the activity list.
const activityResultRunes = 400

// MaxToolResultRunes caps what one tool call returns to the model (a note
// page may hold 1 MiB); the rest is cut with a visible marker.
const MaxToolResultRunes = 16000

// reply is what the rounds of one turn produced.
type reply struct {
	text                           strings.Builder
	promptTokens, completionTokens int
	activity                       []event.ToolActivity
	requests                       int
	// sources are the pages the turn's tools cited, in order, each URL once.
	sources []event.Source
	// finishReason is the last request's finish_reason.
	finishReason string
}

// streamReply streams the reply with the tools attached and runs the tool
// loop (DESIGN.md §4 step 3): when the model streams tool calls they are run,
// their results appended, and the model is asked again — at most
// set.ToolMaxRounds rounds of tools; the request after the last round goes
// without tools so the model has to answer. A turn without tool calls is one
// request. Text deltas of every round are emitted as chunks.
//
// The reply's text never grows past MaxMessageBytes: the delta that reaches
// the limit is emitted up to it, the request is cancelled at once (a model
// that loops would otherwise stream for ever), and the turn ends with the
// text so far and a coded replyTooLong error (stored as partial).
func (s *Service) streamReply(ctx context.Context, t *Turn, set Settings, msgs []llm.Message, em event.Emitter) (*reply, error) {
	r := &reply{}
	maxRounds := set.ToolMaxRounds
	if maxRounds <= 0 {
		maxRounds = DefaultToolMaxRounds
	}
	toolsOn := !t.noTools && s.tools != nil && s.tools.Len() > 0 && !s.isToolless(t.Model)
	purpose := t.purpose
	if purpose == "" {
		purpose = llm.PurposeTurn
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	capped := &replyCap{left: MaxMessageBytes, stop: func() { cancel(replyTooLong()) }}
	onDelta := func(d string) {
		if d = capped.take(d); d != "" {
			em.Emit(event.Event{Type: event.Chunk, Value: d})
			t.writer.addText(d)
		}
	}
	for round := 0; ; round++ {
		req := llm.Request{Model: t.Model, Messages: msgs, SessionID: t.SessionID, MaxTokens: set.MaxOutputTokens,
			Purpose: purpose, Temperature: f32(t.chat.Temperature), TopP: f32(t.chat.TopP)}
		if toolsOn && round < maxRounds {
			defs := t.tools
			if !t.toolsChosen {
				defs = s.toolDefs(t.requester != nil || t.noNotes)
			}
			if len(defs) > 0 {
				req.Tools = defs
			}
		}
		res, err := s.llm.Stream(ctx, req, onDelta)
		r.requests++
		if err != nil && req.Tools != nil && !res.FirstByte && mayRejectTools(err) {
			// The provider may reject tools for this model (said plainly,
			// or as a bare 400/422 such as "unrecognized argument: tools"):
			// retry once without them. When that works the model is
			// remembered as tool-less for the life of the process.
			s.log.Info("request with tools refused; retrying without them", "model", t.Model, "err", err)
			req.Tools = nil
			res, err = s.llm.Stream(ctx, req, onDelta)
			r.requests++
			if err == nil {
				s.markToolless(t.Model)
				toolsOn = false
			}
		}
		r.text.WriteString(res.Text)
		r.finishReason = res.FinishReason
		r.promptTokens += res.PromptTokens
		r.completionTokens += res.CompletionTokens
		if capped.reached {
			// The client kept the whole last delta: keep what was emitted.
			text := r.text.String()
			r.text.Reset()
			r.text.WriteString(cutBytes(text, MaxMessageBytes))
			s.log.Warn("reply stopped at the message limit", "session", t.SessionID, "model", t.Model, "bytes", r.text.Len())
			return r, replyTooLong()
		}
		if err != nil {
			return r, err
		}
		if req.Tools == nil || len(res.ToolCalls)+len(res.Truncated) == 0 {
			if len(res.ToolCalls) > 0 {
				s.log.Warn("model called tools after the last tool round; ignored", "model", t.Model, "calls", len(res.ToolCalls))
				if strings.TrimSpace(r.text.String()) == "" {
					return r, toolLimit(maxRounds)
				}
			}
			return r, nil
		}
		msgs = s.runToolCalls(ctx, t, msgs, res, r, em)
		t.writer.setTools(r.activity, r.sources) // stored with the text so far
		if ctx.Err() != nil {
			return r, ctx.Err()
		}
	}
}

// f32 is a chat setting as the request carries it (nil stays nil).
func f32(v *float64) *float32 {
	if v == nil {
		return nil
	}
	f := float32(*v)
	return &f
}

// replyTooLong is the error of a turn whose reply was stopped at the limit
// (and the cause its request is cancelled with: the API log records it).
func replyTooLong() error {
	return apperr.New(apperr.ChatReplyTooLong, map[string]any{"maxMiB": MaxMessageBytes >> 20})
}

// replyCap counts down the bytes a reply may still take across the rounds
// of a turn.
type replyCap struct {
	left    int
	reached bool
	stop    func()
}

// take returns the part of delta d that still fits (cut at a character
// boundary); once the limit is reached it calls stop, once, and returns ""
// for every later delta.
func (c *replyCap) take(d string) string {
	if c.reached {
		return ""
	}
	if len(d) <= c.left {
		c.left -= len(d)
		return d
	}
	d = cutBytes(d, c.left)
	c.left = 0
	c.reached = true
	c.stop()
	return d
}

// cutBytes returns the longest beginning of s of at most n bytes that ends
// at a character boundary.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// runToolCalls appends the assistant's tool-call message and one tool
// message per call, running the complete calls and reporting truncated ones.
func (s *Service) runToolCalls(ctx context.Context, t *Turn, msgs []llm.Message, res llm.StreamResult, r *reply, em event.Emitter) (out []llm.Message) {
	defer func() { out = msgs }()
	calls := append([]llm.ToolCall(nil), res.ToolCalls...)
	for _, tc := range res.Truncated {
		tc.Function.Arguments = "{}" // keep the request valid; the call is not run
		calls = append(calls, tc)
	}
	msgs = append(msgs, llm.Message{Role: store.RoleAssistant, Content: res.Text, ToolCalls: calls})

	var images []openai.ChatMessagePart
	for _, call := range res.ToolCalls {
		content, imgs := s.runTool(ctx, t, call, r, em)
		msgs = append(msgs, llm.Message{Role: "tool", ToolCallID: call.ID, Name: call.Function.Name, Content: content})
		for _, im := range imgs {
			images = append(images, openai.ChatMessagePart{Type: openai.ChatMessagePartTypeImageURL,
				ImageURL: &openai.ChatMessageImageURL{URL: "data:" + im.MIMEType + ";base64," + base64.StdEncoding.EncodeToString(im.Data)}})
		}
	}
	defer func() {
		// Tool messages carry text only: the images the tools returned
		// follow them as one user message of image parts.
		if len(images) > 0 {
			parts := append([]openai.ChatMessagePart{{Type: openai.ChatMessagePartTypeText,
				Text: fmt.Sprintf("The %d image(s) returned by the tool calls above:", len(images))}}, images...)
			msgs = append(msgs, llm.Message{Role: store.RoleUser, MultiContent: parts})
		}
	}()
	for _, call := range res.Truncated {
		msg := fmt.Sprintf("error: the arguments of this %s call were cut off before they were complete "+
			"(finish_reason %q), so it was not run. Send the call again with shorter arguments.",
			call.Function.Name, res.FinishReason)
		why := apperr.InfoOf(apperr.New(apperr.ToolArgumentsTruncated, nil))
		act := event.ToolActivity{ID: call.ID, Name: call.Function.Name, Label: s.toolLabel(call.Function.Name),
			Detail: why.Message, Status: "error", Result: "truncated: not run", Error: &why}
		em.Emit(event.Event{Type: event.Tool, Value: act})
		r.activity = append(r.activity, act)
		msgs = append(msgs, llm.Message{Role: "tool", ToolCallID: call.ID, Name: call.Function.Name, Content: msg})
	}
	return msgs
}

// runTool runs one call and returns the content for the model. Errors and
// panics become an "error: …" result; they never abort the turn.
func (s *Service) runTool(ctx context.Context, t *Turn, call llm.ToolCall, r *reply, em event.Emitter) (string, []tools.Image) {
	name := call.Function.Name
	args := json.RawMessage(call.Function.Arguments)
	if len(strings.TrimSpace(call.Function.Arguments)) == 0 {
		args = json.RawMessage("{}")
	}
	tool, ok := s.tools.Get(name)
	if ok && tool.Private && t.requester != nil {
		ok = false // never offered to this turn: refused as unknown
	}
	act := event.ToolActivity{ID: call.ID, Name: name, Label: s.toolLabel(name), Status: "running"}
	if ok && tool.Server != "" {
		act.Server = tool.Server
	}
	if ok && tool.Detail != nil {
		act.Detail = tool.Detail(args)
	}
	em.Emit(event.Event{Type: event.Tool, Value: act})

	var res tools.Result
	var err error
	var extra []event.ToolActivity // items the tool reported, stored after its own
	switch {
	case !ok:
		err = apperr.New(apperr.ToolUnknown, map[string]any{"name": name})
	case !json.Valid(args):
		err = apperr.New(apperr.ToolBadArguments, nil)
	default:
		res, err = s.callTool(ctx, tool, tools.Call{ID: call.ID, SessionID: t.SessionID, Model: t.Model, Args: args, Requester: t.requester,
			Report: func(a event.ToolActivity) {
				em.Emit(event.Event{Type: event.Tool, Value: a})
				if a.ID == act.ID {
					// The call's own item waiting for the user's click, or
					// the click's answer: stored with the reply so far, so
					// a window that loads the chat meanwhile (a reload)
					// still shows the buttons; the answer is kept.
					waiting := act
					waiting.Approval, waiting.Decision = a.Approval, a.Decision
					act.Decision = a.Decision
					t.writer.setTools(append(slices.Clone(r.activity), waiting), r.sources)
					return
				}
				// An extra item a tool shows (save_knowledge): emitted as
				// it goes, stored once it has ended.
				if a.Status != "running" {
					extra = append(extra, a)
				}
			}})
	}
	content := res.Content
	act.Status = "done"
	if err == nil && res.IsError {
		// The tool answered, saying it failed: its text goes to the model
		// as it is, and the activity shows an error.
		act.Status = "error"
		why := apperr.InfoOf(apperr.New(apperr.ToolFailed, map[string]any{"detail": clipRunes(content, 200)}))
		act.Error = &why
	}
	if err != nil {
		act.Status = "error"
		content = "error: " + err.Error()
		s.log.Info("tool call failed", "tool", name, "err", err)
		if apperr.CodeOf(err) == "" {
			err = apperr.New(apperr.ToolFailed, map[string]any{"detail": err.Error()})
		}
		why := apperr.InfoOf(err)
		act.Error = &why
	}
	act.Result = clipRunes(content, activityResultRunes)
	if r := []rune(content); len(r) > MaxToolResultRunes {
		content = string(r[:MaxToolResultRunes]) + fmt.Sprintf("\n…(truncated: %d of %d characters shown)", MaxToolResultRunes, len(r))
	}
	em.Emit(event.Event{Type: event.Tool, Value: event.ToolActivity{ID: act.ID, Status: act.Status, Result: act.Result, Server: act.Server, Decision: act.Decision, Error: act.Error}})
	r.activity = append(r.activity, act)
	r.activity = append(r.activity, extra...)
	if err == nil && res.NotesUpdated {
		em.Emit(event.Event{Type: event.NotesUpdated})
	}
	if err == nil && len(res.Sources) > 0 {
		// The turn's whole list so far (a later search adds to it), stored
		// with the reply.
		r.addSources(res.Sources)
		em.Emit(event.Event{Type: event.Sources, Value: append([]event.Source(nil), r.sources...)})
	}
	if err != nil {
		return content, nil
	}
	return content, res.Images
}

// addSources appends the pages not cited yet (by URL).
func (r *reply) addSources(ss []event.Source) {
	for _, s := range ss {
		seen := false
		for _, have := range r.sources {
			if have.URL == s.URL {
				seen = true
				break
			}
		}
		if !seen && s.URL != "" {
			r.sources = append(r.sources, s)
		}
	}
}

func (s *Service) callTool(ctx context.Context, tool tools.Tool, call tools.Call) (res tools.Result, err error) {
	if tool.Server == "" {
		// A user's MCP server has its own timeout, which progress
		// notifications extend (backend/mcpclient).
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, toolTimeout)
		defer cancel()
	}
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("tool panicked", "tool", tool.Name, "panic", p, "stack", string(debug.Stack()))
			err = apperr.New(apperr.ToolPanicked, nil)
		}
	}()
	return tool.Run(ctx, call)
}

// mayRejectTools reports whether err, before the first byte of a request
// with tools, could be the provider refusing the tools: an explicit "tools
// are not supported", or any 400/422 (many servers name the field only as
// an unknown argument).
func mayRejectTools(err error) bool {
	if errors.Is(err, llm.ErrToolsUnsupported) {
		return true
	}
	var ae *llm.APIError
	return errors.As(err, &ae) && (ae.StatusCode == 400 || ae.StatusCode == 422)
}

func (s *Service) toolLabel(name string) string {
	if s.tools != nil {
		if t, ok := s.tools.Get(name); ok {
			switch {
			case t.Label != "":
				return t.Label
			case t.RealName != "":
				return t.RealName
			}
		}
	}
	return name
}

// toolDefs are the tool definitions a turn offers (outside: a turn asked
// from outside the window, which never gets the owner's notes).
func (s *Service) toolDefs(outside bool) []llm.Tool {
	if s.tools == nil || s.tools.Len() == 0 {
		return nil
	}
	if outside {
		return s.tools.PublicDefinitions()
	}
	return s.tools.Definitions()
}

// MaxTools is the most tool definitions one request carries (OpenAI's
// limit is 128; others are lower or equal).
const MaxTools = 128

// ToolShare caps the optional tools (the user's MCP servers) at this
// fraction of the input budget; playchat's own tools are always sent.
const ToolShare = 0.25

// toolChoice is the tools one request carries and what was left out.
type toolChoice struct {
	defs    []llm.Tool
	tokens  int
	leftOut []layer.Omission
}

// chooseTools picks the tool definitions a turn with model sends: every
// tool of playchat's own, then the optional tools (the user's MCP
// servers) in name order while they fit ToolShare of the input budget and
// MaxTools — never a request the provider rejects for too many tools. The
// tokens are the definitions' JSON as sent, counted with counter; the
// context budget and the meter count them with the prompt.
func (s *Service) chooseTools(counter tokens.Counter, b Budget, model string, outside bool) toolChoice {
	var c toolChoice
	if s.tools == nil || s.tools.Len() == 0 || s.isToolless(model) {
		return c
	}
	all := s.tools.Offered(!outside)
	size := func(t tools.Tool) int {
		bs, err := json.Marshal(tools.Definition(t))
		if err != nil {
			return 0
		}
		return counter.Count(string(bs))
	}
	var fixed, optional []tools.Tool
	for _, t := range all {
		if t.Optional {
			optional = append(optional, t)
		} else {
			fixed = append(fixed, t)
		}
	}
	chosen := append([]tools.Tool(nil), fixed...)
	for _, t := range fixed {
		c.tokens += size(t)
	}
	room := int(float64(b.Input) * ToolShare)
	spent := 0
	for _, t := range optional {
		title := t.Server + " · " + t.RealName
		if t.RealName == "" {
			title = t.Server + " · " + t.Name
		}
		if len(chosen) >= MaxTools {
			c.leftOut = append(c.leftOut, layer.Omission{Kind: layer.KindTool, ID: t.Name, Title: title, Reason: layer.ReasonToolCount})
			continue
		}
		n := size(t)
		if spent+n > room {
			c.leftOut = append(c.leftOut, layer.Omission{Kind: layer.KindTool, ID: t.Name, Title: title, Reason: layer.ReasonBudget})
			continue
		}
		spent += n
		chosen = append(chosen, t)
	}
	c.tokens += spent
	sort.Slice(chosen, func(i, j int) bool { return chosen[i].Name < chosen[j].Name })
	for _, t := range chosen {
		c.defs = append(c.defs, tools.Definition(t))
	}
	return c
}

// toolTokens is what the chosen tool definitions cost (chooseTools).
func (s *Service) toolTokens(counter tokens.Counter, b Budget, model string, outside bool) int {
	return s.chooseTools(counter, b, model, outside).tokens
}

func (s *Service) isToolless(model string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.toolless[model]
}

func (s *Service) markToolless(model string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.toolless[model] = true
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
