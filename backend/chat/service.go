// Package chat runs chat turns (DESIGN.md §4): it stores the user's message
// before any network call, builds the context within a token budget (§5),
// streams the reply as events, stores the reply as complete, partial or
// error, and hands the session to the memory summariser after done.
package chat

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"playchat/backend/apperr"
	"playchat/backend/attach"
	"playchat/backend/event"
	"playchat/backend/layer"
	"playchat/backend/llm"
	"playchat/backend/memory"
	"playchat/backend/session"
	"playchat/backend/store"
	"playchat/backend/tokens"
	"playchat/backend/tools"
)

// Streamer is the LLM call a turn needs (backend/llm.Client implements it).
type Streamer interface {
	Stream(ctx context.Context, req llm.Request, onDelta func(string)) (llm.StreamResult, error)
}

// Pinner pins note pages to a session (backend/notes implements it).
type Pinner interface {
	SetPins(ctx context.Context, sessionID string, pageIDs []int64) error
}

// Settings are read at the start of every turn, so GUI changes apply at once.
type Settings struct {
	// DefaultModel is DEFAULT_MODEL, used when neither the request nor the
	// session names a model.
	DefaultModel string
	// ContextWindowTokens overrides the model table when > 0.
	ContextWindowTokens int
	// MaxOutputTokens is reserved for the reply.
	MaxOutputTokens int
	// ToolMaxRounds caps the tool rounds of a turn (TOOL_MAX_ROUNDS; 0 = 3).
	ToolMaxRounds int
	// ModelImages is MODEL_IMAGES (config.Config.ModelImages): model id →
	// "yes" or "no", consulted before the vision table. A model that does
	// not take images (set to "no", or text-only in the table and not set
	// to "yes") is sent no image parts: a new message with images is
	// refused (apperr.ChatImagesNotTaken) and the history's images go as a
	// text note (ImagesNotTakenText). May be nil.
	ModelImages map[string]string
}

// ErrNoModel means no model was chosen and DEFAULT_MODEL is empty.
var ErrNoModel error = apperr.New(apperr.ChatNoModel, nil)

// ErrEmptyMessage means the user's text was empty or blank.
var ErrEmptyMessage = session.ErrEmptyMessage

// MaxMessageBytes caps one user message (1 MiB; session.MaxMessageBytes, the
// same limit an imported session's messages meet).
const MaxMessageBytes = session.MaxMessageBytes

// Service runs turns. It is safe for concurrent use; turns of different
// sessions run in parallel.
type Service struct {
	db         *store.DB
	llm        Streamer
	summarizer *memory.Summarizer
	settings   func() Settings
	layers     []layer.Layer
	tools      *tools.Registry
	pinner     Pinner
	checkModel func(string) error
	log        *slog.Logger
	clock      func() time.Time
	afterDone  func(sessionID string, messageIDs []int64)
	// streamWriteEvery bounds how often a streaming reply is written
	// (streamWriteInterval; progress.go).
	streamWriteEvery time.Duration

	mu       sync.Mutex
	turns    map[string]*Turn
	toolless map[string]bool // models whose provider rejected tools
	// counts remembers the token counts of long messages (counts.go).
	counts *countCache
}

// Options configure a Service.
type Options struct {
	DB         *store.DB
	LLM        Streamer
	Summarizer *memory.Summarizer // nil: no summaries
	Settings   func() Settings
	// Layers are context layers 1–3 (knowledge, notes, local KB), in order;
	// layer 4 (memory) is added after them by the service.
	Layers []layer.Layer
	// Tools are offered to the model on every request (nil: none).
	Tools *tools.Registry
	// Pinner pins note pages to a session (TurnRequest.NotePageIDs).
	Pinner Pinner
	// CheckModel, when set, rejects a model string the LLM cannot use
	// (unknown provider, missing key) before anything is stored.
	CheckModel func(model string) error
	Logger     *slog.Logger
	// Clock is for tests; default time.Now.
	Clock func() time.Time
	// AfterDone, when set, is called after a turn's done (or error) event
	// with the ids of the turn's user message and stored reply (a reply
	// without text left out), like the summariser's request: the tagger
	// queues them (backend/tagging). It must not block.
	AfterDone func(sessionID string, messageIDs []int64)
}

// New returns a Service.
func New(o Options) *Service {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	layers := append(append([]layer.Layer{}, o.Layers...), memoryLayer{db: o.DB})
	s := &Service{db: o.DB, llm: o.LLM, summarizer: o.Summarizer, settings: o.Settings,
		layers: layers, tools: o.Tools, pinner: o.Pinner, checkModel: o.CheckModel, log: o.Logger, clock: o.Clock, turns: map[string]*Turn{}, toolless: map[string]bool{},
		streamWriteEvery: streamWriteInterval, counts: newCountCache()}
	s.afterDone = o.AfterDone
	return s
}

// TurnRequest starts a turn.
type TurnRequest struct {
	// TurnID names the turn's events; "" generates one.
	TurnID string
	// SessionID is the session to continue; "" creates a new session.
	SessionID string
	// Text is what the user typed.
	Text string
	// Model overrides the session's model ("provider/model"); when it
	// differs from the session's model the session keeps the new one.
	Model string
	// NotePageIDs, for a turn that creates its session, are pinned to the
	// new session before the context is built (the frontend has no session
	// id to pin them to yet).
	NotePageIDs []int64
	// Requester is who asked, when the turn comes from outside the window
	// (a Discord mention); it is passed into every tools.Call of the turn.
	// nil = the desktop window or the CLI.
	Requester *tools.Requester
	// ExtraSystem is extra system text for this turn only (e.g. tomorrow's
	// forecast for a Discord weather question): appended to the base system
	// prompt of every request of the turn, never stored, never cut.
	ExtraSystem []string
	// Purpose is recorded in api_logs for the turn's LLM calls (""
	// = llm.PurposeTurn); the OpenAI-compatible API marks its turns with
	// its own.
	Purpose string
	// KBDomain limits the knowledge-base layer to one top-level folder
	// (layer.Query.KBDomain); "" uses the whole knowledge base.
	KBDomain string
	// ChatSettings, for a turn that creates its session, are the new chat's
	// own settings (an assistant's copy, the CLI's --system and
	// --temperature), stored with the session before the context is built;
	// their Model is used when Model is "". nil: all defaults. A turn in an
	// existing session uses the settings stored with it (from its next
	// turn after a change).
	ChatSettings *store.ChatSettings
	// AssistantID and AssistantVersion, for a turn that creates its
	// session, record the assistant ChatSettings were copied from (0: none).
	AssistantID      int64
	AssistantVersion int
	// NoNotes leaves the shared notes out of the turn: their layers add
	// nothing and the notes tools are not offered (layer.Query.NoNotes).
	NoNotes bool
	// Attachments are files sent with the message (backend/attach,
	// prepared and checked one by one); they are stored with it, in the
	// same transaction, and go to the model as content parts
	// (attachments.go). With attachments the text may be empty.
	Attachments []attach.Prepared
	// FitAttachments sends only the part of each attached document that
	// fits the model when the whole does not: a PDF's first pages, another
	// document's first characters, in a block that says which part it is
	// (fit.go). Without it such a message is refused with
	// apperr.ChatAttachmentTooLong (the offer to send that part), and
	// nothing is cut. A message that fits whole is sent whole either way.
	FitAttachments bool
}

// Turn is one running (or finished) turn.
type Turn struct {
	ID          string
	SessionID   string
	Model       string
	UserMessage store.Message
	// NewSession is true when the turn created its session.
	NewSession bool

	cancel context.CancelCauseFunc
	done   chan struct{}
	result Result
	// requester is TurnRequest.Requester (nil for the window and the CLI).
	requester *tools.Requester
	// extraSystem is TurnRequest.ExtraSystem (only for turns Start began).
	extraSystem []string
	// writer stores the reply while it streams (progress.go); set when the
	// turn starts running. nil for an Answer, which stores nothing.
	writer *replyWriter
	// purpose and kbDomain are TurnRequest.Purpose and KBDomain.
	purpose, kbDomain string
	// noNotes is TurnRequest.NoNotes.
	noNotes bool
	// noTools offers the turn no tools (an Answer: tools write).
	noTools bool
	// chat is the session's own settings, read when the turn starts
	// running (run).
	chat store.ChatSettings
	// tools are the definitions chosen for the turn's requests
	// (chooseTools), once toolsChosen.
	tools       []llm.Tool
	toolsChosen bool
}

// Result is how a turn ended.
type Result struct {
	// Reply is the stored assistant message (zero ID if none was stored).
	Reply store.Message
	// Err is the error the turn ended with; nil on success or Stop.
	Err error
	// Stopped is true when Stop ended the turn.
	Stopped bool
	// Context is what the context of the turn's first request held (zero
	// when the turn failed before it was built): the API names the
	// knowledge-base documents in it.
	Context ContextReport
	// FinishReason is the provider's finish_reason of the last request
	// ("stop", "length", …; "" when it sent none).
	FinishReason string
}

// Wait blocks until the turn has ended and returns its result.
func (t *Turn) Wait() Result { <-t.done; return t.result }

// Start validates the request, stores the user's message (creating the
// session if needed) and starts streaming the reply in the background. Events
// go to em: session_id first (always, so every client learns the id), then
// chunk… and done or error. Errors returned here mean nothing was stored.
func (s *Service) Start(ctx context.Context, req TurnRequest, em event.Emitter) (*Turn, error) {
	// The same rules as a user message in an imported session (a
	// message of attachments alone may have no text).
	if err := session.CheckUserMessage(req.Text); err != nil && !(len(req.Attachments) > 0 && errors.Is(err, session.ErrEmptyMessage)) {
		return nil, err
	}
	if err := attach.CheckMessage(req.Attachments); err != nil {
		return nil, err
	}
	files := filesOf(req.Attachments)
	text := strings.TrimSpace(req.Text)
	if req.TurnID == "" {
		req.TurnID = uuid.NewString()
	}
	set := s.settings()

	var sess store.Session
	newSession := false
	if req.SessionID != "" {
		var err error
		if sess, err = s.db.GetSession(ctx, req.SessionID); err != nil {
			return nil, err
		}
	}
	newChat := store.ChatSettings{}
	if req.SessionID == "" && req.ChatSettings != nil {
		newChat = *req.ChatSettings
		if why := newChat.Check(); why != "" {
			return nil, apperr.New(apperr.ChatSettingsInvalid, map[string]any{"detail": why})
		}
	}
	model := firstNonEmpty(req.Model, sess.Model, newChat.Model, set.DefaultModel)
	if model == "" {
		return nil, ErrNoModel
	}
	if s.checkModel != nil {
		if err := s.checkModel(model); err != nil {
			return nil, err
		}
	}
	// A message too long for the model even alone is refused before
	// anything is stored (a new session included).
	cs := chatOf(sess, newChat)
	place := fitPlace{system: cs.SystemPrompt}
	if sess.ID != "" {
		place.before = func() ([]store.Message, error) { return s.db.ActiveHistory(ctx, sess.ID) }
	}
	files, err := s.checkFits(model, applyChat(set, cs), req.Text, req.ExtraSystem, files, req.FitAttachments, place)
	if err != nil {
		return nil, err
	}
	if req.SessionID == "" {
		var err error
		if sess, err = s.db.CreateSession(ctx, "", model); err != nil {
			return nil, err
		}
		newSession = true
		if err := s.startChat(ctx, sess.ID, newChat, req.AssistantID, req.AssistantVersion); err != nil {
			_ = s.db.DeleteSession(context.WithoutCancel(ctx), sess.ID)
			return nil, err
		}
		if len(req.NotePageIDs) > 0 && s.pinner != nil {
			if err := s.pinner.SetPins(ctx, sess.ID, req.NotePageIDs); err != nil {
				_ = s.db.DeleteSession(context.WithoutCancel(ctx), sess.ID)
				return nil, err
			}
		}
	} else if model != sess.Model {
		if _, err := s.db.SetSessionModel(ctx, sess.ID, model); err != nil {
			return nil, err
		}
	}
	// The user's message is stored before any network call (DESIGN §4.1);
	// the text is kept exactly as typed.
	user := store.Message{SessionID: sess.ID, Role: store.RoleUser, Content: req.Text, Model: model, Files: files}
	if err := s.db.InsertMessage(ctx, &user); err != nil {
		if newSession {
			_ = s.db.DeleteSession(context.WithoutCancel(ctx), sess.ID)
		}
		return nil, err
	}
	for i := range user.Files {
		user.Files[i].Data = nil // stored; the turn reads them back when it needs them
	}
	if sess.Title == "" {
		if text == "" && len(req.Attachments) > 0 {
			text = req.Attachments[0].Name
		}
		if _, err := s.db.SetSessionTitleIfEmpty(ctx, sess.ID, AutoTitle(text)); err != nil {
			s.log.Warn("auto title", "err", err)
		}
	}

	return s.launch(req.TurnID, sess.ID, model, user, newSession, set, em,
		func(t *Turn) { t.requester = req.Requester },
		func(t *Turn) { t.extraSystem = req.ExtraSystem },
		func(t *Turn) { t.purpose, t.kbDomain, t.noNotes = req.Purpose, req.KBDomain, req.NoNotes })
}

// chatOf is the chat settings a turn's message is checked with: the
// session's stored ones, or newChat's for a turn that creates its session.
func chatOf(sess store.Session, newChat store.ChatSettings) store.ChatSettings {
	if sess.ID == "" {
		return newChat
	}
	return store.DecodeChatSettings(sess.Settings)
}

// startChat stores a new chat's own settings and the assistant they came
// from (nothing to store for defaults without an assistant).
func (s *Service) startChat(ctx context.Context, sessionID string, cs store.ChatSettings, assistantID int64, version int) error {
	cs.Model = "" // the session's model is set already
	if !cs.IsZero() {
		if _, err := s.db.SetSessionSettings(ctx, sessionID, cs); err != nil {
			return err
		}
	}
	if assistantID > 0 {
		return s.db.SetSessionAssistant(ctx, sessionID, &assistantID, version)
	}
	return nil
}

// layersFor returns the service's layers without those the chat switched
// off (store.ChatSettings.LayersOff).
func (s *Service) layersFor(cs store.ChatSettings) []layer.Layer {
	if len(cs.LayersOff) == 0 {
		return s.layers
	}
	out := make([]layer.Layer, 0, len(s.layers))
	for _, l := range s.layers {
		if !cs.LayerOff(l.Name()) {
			out = append(out, l)
		}
	}
	return out
}

// applyChat fits the app's settings to a chat's own: its max output tokens.
func applyChat(set Settings, cs store.ChatSettings) Settings {
	if cs.MaxOutputTokens > 0 {
		set.MaxOutputTokens = cs.MaxOutputTokens
	}
	return set
}

// launch registers the turn answering user (a stored user message, the end
// of the session's selected branch) and streams its reply in the
// background: the one turn pipeline Start, Regenerate and Edit share.
// Each setup function fills the turn's per-request fields before it runs.
func (s *Service) launch(turnID, sessionID, model string, user store.Message, newSession bool, set Settings, em event.Emitter, setup ...func(*Turn)) (*Turn, error) {
	tctx, cancel := context.WithCancelCause(context.Background())
	t := &Turn{ID: turnID, SessionID: sessionID, Model: model, UserMessage: user,
		NewSession: newSession, cancel: cancel, done: make(chan struct{})}
	for _, fn := range setup {
		fn(t)
	}
	s.mu.Lock()
	if _, dup := s.turns[t.ID]; dup {
		s.mu.Unlock()
		cancel(nil)
		return nil, fmt.Errorf("turn %s is already running", t.ID)
	}
	s.turns[t.ID] = t
	s.mu.Unlock()

	em.Emit(event.Event{Type: event.SessionID, Value: sessionID})
	go s.run(tctx, t, set, em)
	return t, nil
}

// Stop cancels a running turn; its partial reply is stored with status
// partial. Stopping a finished or unknown turn is not an error.
func (s *Service) Stop(turnID string) { s.StopBecause(turnID, nil) }

// StopBecause is Stop for a reason other than the user's Stop button:
// cause (an apperr error, e.g. llm.clientGone when the API client that
// started the turn disconnected) is what the cancelled model call's API
// log says instead of "stopped by the user". A nil cause is Stop.
func (s *Service) StopBecause(turnID string, cause error) {
	s.mu.Lock()
	t := s.turns[turnID]
	s.mu.Unlock()
	if t != nil {
		t.cancel(cause)
	}
}

// StopSession cancels the session's running turns and waits until they
// have stored their partial replies (or ctx ends), so the session can be
// deleted without a turn writing into it afterwards.
func (s *Service) StopSession(ctx context.Context, sessionID string) {
	s.stopWhere(ctx, func(t *Turn) bool { return t.SessionID == sessionID })
}

// StopWait bounds how long DeleteSessions waits for the sessions' running
// turns to store their partial replies before it deletes anyway.
const StopWait = 10 * time.Second

// DeleteSessions deletes sessions with their messages, memories and
// attachment links: the turns running in them are stopped first (waiting
// up to StopWait for their partial replies), so no turn writes into a
// deleted session. It returns how many were deleted; an unknown id deletes
// nothing (store.DB.DeleteSessions checks every id first).
func (s *Service) DeleteSessions(ctx context.Context, ids []string) (int, error) {
	stop, cancel := context.WithTimeout(ctx, StopWait)
	defer cancel()
	for _, id := range ids {
		s.StopSession(stop, id)
	}
	return s.db.DeleteSessions(ctx, ids)
}

// Running reports the number of turns in flight.
func (s *Service) Running() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.turns)
}

// Shutdown stops every running turn and waits for them to store their
// replies, at most until ctx ends.
func (s *Service) Shutdown(ctx context.Context) {
	s.stopWhere(ctx, func(*Turn) bool { return true })
}

// stopWhere cancels the running turns that match and waits for them to end
// (or ctx to end).
func (s *Service) stopWhere(ctx context.Context, match func(*Turn) bool) {
	s.mu.Lock()
	var ts []*Turn
	for _, t := range s.turns {
		if match(t) {
			ts = append(ts, t)
			t.cancel(nil)
		}
	}
	s.mu.Unlock()
	for _, t := range ts {
		select {
		case <-t.done:
		case <-ctx.Done():
			return
		}
	}
}

// AutoTitle derives a session title from the first user message: its first
// non-empty line, cleaned as every title is (session.TitleText: no control
// characters, single spaces), at most 40 characters. It makes no LLM call, so
// a plain turn stays one request.
func AutoTitle(text string) string {
	line := ""
	for _, l := range strings.Split(text, "\n") {
		if l = session.TitleText(l); l != "" {
			line = l
			break
		}
	}
	r := []rune(line)
	if len(r) > 40 {
		return strings.TrimSpace(string(r[:40])) + "…"
	}
	return line
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

// counterFor and windowFor are indirections for tests.
var (
	counterFor = tokens.ForModel
	windowFor  = tokens.ContextWindow
)
