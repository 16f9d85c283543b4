// Package tagging gives messages and memories three short tags in the
// background (the seed's tagging.py). Tags are shown under each message,
// found by a search for "#tag" and choose the topic of the Discord tips
// (Tips), with a word pool of recent nouns (word_memory.py) built for each
// tip from the chats it may draw on only (issue 21: a global pool let a
// tip posted to Discord carry a private desktop chat's words).
//
// The chat service hands each finished turn's message ids to Enqueue
// (chat.Options.AfterDone) after its done event; one worker goroutine asks
// the model for the tags of one item at a time, so tagging never delays a
// turn and never sends two requests at once. A failed request is tried
// again after a backoff; an item that keeps failing is dropped and found
// again at the next start (the newest untagged messages and memories are
// queued then).
package tagging

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"playchat/backend/guard"
	"playchat/backend/llm"
	"playchat/backend/store"
)

// Completer is the LLM call tagging and tips need (llm.Client.Complete).
type Completer interface {
	Complete(ctx context.Context, req llm.Request) (string, error)
}

// Settings are read for every item, so GUI changes apply at once.
type Settings struct {
	// Enabled is AUTO_TAGS: false skips the model requests.
	Enabled bool
	// Model is SUMMARY_MODEL; "" uses the session's model.
	Model string
}

// Update says that an item got its tags (the window's "tags:updated"
// event). Exactly one of MessageID and MemoryID is set.
type Update struct {
	SessionID string   `json:"sessionId"`
	MessageID int64    `json:"messageId,omitempty"`
	MemoryID  int64    `json:"memoryId,omitempty"`
	Tags      []string `json:"tags"`
}

// Defaults of Options.
const (
	// DefaultBacklog is how many untagged messages (and memories) are
	// queued at start, newest first.
	DefaultBacklog = 20
	// DefaultRetryBase is the wait before the first retry of a failed
	// item; it doubles per failure up to DefaultRetryMax.
	DefaultRetryBase = 30 * time.Second
	// DefaultRetryMax caps the wait between retries.
	DefaultRetryMax = 30 * time.Minute
	// MaxAttempts is how often an item is tried before it is dropped until
	// the next start.
	MaxAttempts = 6
	// PauseAfter is how many tag requests in a row may fail (an error, or
	// an answer that is not tags) before tagging pauses: the queue is
	// dropped and nothing more is asked until the tagging model or
	// AUTO_TAGS changes, or the next start (issue 22: 91 background calls
	// in a 5-turn chat against a model that never answered with tags).
	PauseAfter = 3
	// maxTextRunes is how much of a message is sent to be tagged.
	maxTextRunes = 2000
	// memoriesPerTurn caps the untagged memories of a session queued
	// after a turn.
	memoriesPerTurn = 3
)

// Options configure a Service.
type Options struct {
	DB       *store.DB
	LLM      Completer
	Settings func() Settings
	Log      *slog.Logger
	// Guard recovers a panic while an item is tagged (job "tagging"): the
	// item counts as failed and the worker goes on. nil guards nothing.
	Guard *guard.Guard
	// Backlog overrides DefaultBacklog (< 0: queue nothing at start).
	Backlog int
	// RetryBase and RetryMax override DefaultRetryBase and DefaultRetryMax.
	RetryBase, RetryMax time.Duration
}

type kind int

const (
	kindMessage  kind = iota
	kindMemory        // tag one memory
	kindMemories      // queue the untagged memories of a session
)

type item struct {
	kind      kind
	id        int64
	sessionID string
	attempts  int
	notBefore time.Time
}

func (it item) key() string { return fmt.Sprintf("%d:%d:%s", it.kind, it.id, it.sessionID) }

// Service tags messages and memories in the background. Safe for
// concurrent use. Until Start, Enqueue only ignores its arguments (the CLI
// never starts it: its messages are found at the window's next start).
type Service struct {
	db       *store.DB
	llm      Completer
	settings func() Settings
	log      *slog.Logger
	guard    *guard.Guard
	backlog  int
	base     time.Duration
	maxWait  time.Duration
	now      func() time.Time

	mu      sync.Mutex
	queue   []item
	queued  map[string]bool
	started bool
	onTags  []func(Update)
	onPause []func(Pause)
	// failures counts the tag requests that failed in a row; paused is
	// set once it reaches PauseAfter.
	failures int
	paused   *Pause
	wake     chan struct{}
	cancel   context.CancelFunc
	done     chan struct{}
}

// New returns a Service; Start runs its worker.
func New(o Options) *Service {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Settings == nil {
		o.Settings = func() Settings { return Settings{Enabled: true} }
	}
	if o.Backlog == 0 {
		o.Backlog = DefaultBacklog
	}
	if o.RetryBase <= 0 {
		o.RetryBase = DefaultRetryBase
	}
	if o.RetryMax <= 0 {
		o.RetryMax = DefaultRetryMax
	}
	return &Service{db: o.DB, llm: o.LLM, settings: o.Settings, log: o.Log, guard: o.Guard,
		backlog: o.Backlog, base: o.RetryBase, maxWait: o.RetryMax, now: time.Now,
		queued: map[string]bool{}, wake: make(chan struct{}, 1)}
}

// OnTags adds fn to be called (on the worker goroutine) after an item's
// tags are stored. Call it before Start.
func (s *Service) OnTags(fn func(Update)) {
	s.mu.Lock()
	s.onTags = append(s.onTags, fn)
	s.mu.Unlock()
}

// Pause says why automatic tagging stopped asking the model (PauseAfter
// failed requests in a row). It lasts until Settings differ from
// Settings at the pause, or the next start.
type Pause struct {
	// Model is the model that failed ("" when there was none to ask).
	Model string `json:"model"`
	// Reason is the last failure, in English (for the log and a tooltip).
	Reason string `json:"reason"`
	// NotTags is true when the model answered but not with tags (as
	// opposed to a request that failed).
	NotTags  bool     `json:"notTags"`
	settings Settings // what was in force; a change resumes
}

// OnPause adds fn to be called (on the worker goroutine) once when tagging
// pauses. Call it before Start.
func (s *Service) OnPause(fn func(Pause)) {
	s.mu.Lock()
	s.onPause = append(s.onPause, fn)
	s.mu.Unlock()
}

// Paused returns the pause in force, if any.
func (s *Service) Paused() (Pause, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.paused == nil {
		return Pause{}, false
	}
	return *s.paused, true
}

// resumeIfChanged (s.mu held) ends a pause once the settings differ from
// those it was made under.
func (s *Service) resumeIfChangedLocked() {
	if s.paused != nil && s.paused.settings != s.settings() {
		s.log.Info("automatic tags resume: the settings changed")
		s.paused, s.failures = nil, 0
	}
}

// Start runs the worker until ctx ends or Stop: it first queues the newest
// untagged messages and memories (Options.Backlog), then tags what Enqueue
// hands it. A second Start does nothing.
func (s *Service) Start(ctx context.Context) {
	s.mu.Lock()
	if s.started {
		s.mu.Unlock()
		return
	}
	s.started = true
	ctx, s.cancel = context.WithCancel(ctx)
	s.done = make(chan struct{})
	s.mu.Unlock()
	go s.work(ctx)
}

// Stop ends the worker (a request in flight is cancelled; its item is
// tagged at a later start) and waits for it. Safe to call without Start.
func (s *Service) Stop() {
	s.mu.Lock()
	cancel, done := s.cancel, s.done
	s.mu.Unlock()
	if cancel == nil {
		return
	}
	cancel()
	<-done
}

// Enqueue queues the messages of a finished turn (and a look for the
// session's untagged memories, which the summariser writes after the
// turn) for tagging. It never blocks; before Start it does nothing.
func (s *Service) Enqueue(sessionID string, messageIDs []int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.started {
		return
	}
	s.resumeIfChangedLocked()
	if s.paused != nil {
		return
	}
	for _, id := range messageIDs {
		if id > 0 {
			s.pushLocked(item{kind: kindMessage, id: id, sessionID: sessionID})
		}
	}
	s.pushLocked(item{kind: kindMemories, sessionID: sessionID})
	s.signal()
}

// Pending returns how many items wait in the queue (the one being tagged
// not included).
func (s *Service) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

func (s *Service) pushLocked(it item) {
	if s.queued[it.key()] {
		return
	}
	s.queued[it.key()] = true
	s.queue = append(s.queue, it)
}

func (s *Service) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// next takes the first item that is due; otherwise it reports how long
// until one is (0 with ok false: the queue is empty).
func (s *Service) next() (it item, wait time.Duration, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for i, q := range s.queue {
		if !q.notBefore.After(now) {
			s.queue = append(s.queue[:i], s.queue[i+1:]...)
			delete(s.queued, q.key())
			return q, 0, true
		}
		if d := q.notBefore.Sub(now); wait == 0 || d < wait {
			wait = d
		}
	}
	return item{}, wait, false
}

func (s *Service) work(ctx context.Context) {
	defer close(s.done)
	s.guard.Do("tagging", func() { s.startup(ctx) })
	for {
		it, wait, ok := s.next()
		if !ok {
			var timer *time.Timer
			var fire <-chan time.Time
			if wait > 0 {
				timer = time.NewTimer(wait)
				fire = timer.C
			}
			select {
			case <-ctx.Done():
			case <-s.wake:
			case <-fire:
			}
			if timer != nil {
				timer.Stop()
			}
			if ctx.Err() != nil {
				return
			}
			continue
		}
		var err error
		asked := false
		if s.guard.Do("tagging", func() { asked, err = s.process(ctx, &it) }) {
			err = errors.New("tagging: the job crashed (the stack is in the log)")
		}
		if ctx.Err() != nil {
			return
		}
		if asked && s.countRequest(it, err) {
			continue // paused: the queue is gone
		}
		if errors.Is(err, errNotTags) {
			// Asking again gets the same kind of answer: not retried.
			s.log.Info("tagging: the model's answer holds no tags", "kind", it.kind, "id", it.id, "err", err)
			continue
		}
		if err != nil {
			it.attempts++
			if it.attempts >= MaxAttempts {
				s.log.Warn("tagging failed; giving up until the next start", "kind", it.kind, "id", it.id, "err", err)
				continue
			}
			wait := min(s.base<<(it.attempts-1), s.maxWait)
			s.log.Info("tagging failed; trying again later", "kind", it.kind, "id", it.id, "in", wait, "err", err)
			it.notBefore = s.now().Add(wait)
			s.mu.Lock()
			s.pushLocked(it)
			s.mu.Unlock()
		}
	}
}

// countRequest records the outcome of one tag request and pauses tagging
// once PauseAfter requests in a row have failed; it reports whether it
// paused.
func (s *Service) countRequest(it item, err error) bool {
	s.mu.Lock()
	if err == nil {
		s.failures = 0
		s.mu.Unlock()
		return false
	}
	s.failures++
	if s.failures < PauseAfter || s.paused != nil {
		s.mu.Unlock()
		return false
	}
	set := s.settings()
	p := Pause{Model: set.Model, Reason: err.Error(), NotTags: errors.Is(err, errNotTags), settings: set}
	var te *tagError
	if errors.As(err, &te) {
		p.Model = te.model
	}
	s.paused = &p
	s.queue, s.queued = nil, map[string]bool{}
	fns := append([]func(Pause){}, s.onPause...)
	s.mu.Unlock()
	s.log.Warn("automatic tags paused: the last tag requests failed; they resume when SUMMARY_MODEL or AUTO_TAGS changes, or at the next start",
		"model", p.Model, "failures", PauseAfter, "notTags", p.NotTags, "err", err)
	for _, fn := range fns {
		fn(p)
	}
	return true
}

// startup queues the backlog.
func (s *Service) startup(ctx context.Context) {
	if s.backlog < 0 {
		return
	}
	ms, err := s.db.UntaggedMessages(ctx, s.backlog)
	if err != nil {
		s.log.Warn("tagging: read untagged messages", "err", err)
	}
	mems, err := s.db.UntaggedMemories(ctx, "", s.backlog)
	if err != nil {
		s.log.Warn("tagging: read untagged memories", "err", err)
	}
	s.mu.Lock()
	for _, m := range ms {
		s.pushLocked(item{kind: kindMessage, id: m.ID, sessionID: m.SessionID})
	}
	for _, m := range mems {
		s.pushLocked(item{kind: kindMemory, id: m.ID, sessionID: m.SessionID})
	}
	s.mu.Unlock()
}

// process handles one item; an error means try again later (errNotTags:
// do not). asked is true when it sent a tag request (what PauseAfter
// counts).
func (s *Service) process(ctx context.Context, it *item) (asked bool, err error) {
	set := s.settings()
	switch it.kind {
	case kindMemories:
		if !set.Enabled {
			return false, nil
		}
		mems, err := s.db.UntaggedMemories(ctx, it.sessionID, memoriesPerTurn)
		if err != nil {
			return false, err
		}
		s.mu.Lock()
		for _, m := range mems {
			s.pushLocked(item{kind: kindMemory, id: m.ID, sessionID: m.SessionID})
		}
		s.mu.Unlock()
		return false, nil
	case kindMemory:
		if !set.Enabled {
			return false, nil
		}
		mems, err := s.db.SessionMemories(ctx, it.sessionID)
		if err != nil {
			return false, err
		}
		for _, m := range mems {
			if m.ID != it.id {
				continue
			}
			have, err := s.db.MemoryTags(ctx, []int64{m.ID})
			if err != nil || len(have[m.ID]) > 0 {
				return false, err
			}
			tags, err := s.ask(ctx, set, m.SessionID, "", m.Summary)
			if err != nil {
				return true, err
			}
			if err := s.db.AddMemoryTags(ctx, m.ID, tags); err != nil {
				return true, err
			}
			s.notify(Update{SessionID: m.SessionID, MemoryID: m.ID, Tags: tags})
			return true, nil
		}
		return false, nil // deleted since: nothing to tag
	}
	m, err := s.db.GetMessage(ctx, it.id)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil // deleted since
	} else if err != nil {
		return false, err
	}
	if !set.Enabled || strings.TrimSpace(m.Content) == "" {
		return false, nil
	}
	have, err := s.db.MessageTags(ctx, []int64{m.ID})
	if err != nil || len(have[m.ID]) > 0 {
		return false, err // already tagged (a regenerated turn's question)
	}
	tags, err := s.ask(ctx, set, m.SessionID, m.Model, m.Content)
	if err != nil {
		return true, err
	}
	if err := s.db.AddMessageTags(ctx, m.ID, tags); err != nil {
		return true, err
	}
	s.notify(Update{SessionID: m.SessionID, MessageID: m.ID, Tags: tags})
	return true, nil
}

// ErrNoModel means no model is set to tag with (SUMMARY_MODEL empty and
// the session has none).
var ErrNoModel = errors.New("tagging: no model to tag with")

// ask sends one tagging request: SUMMARY_MODEL, else the session's model,
// else the message's own.
func (s *Service) ask(ctx context.Context, set Settings, sessionID, msgModel, text string) ([]string, error) {
	model := set.Model
	if model == "" {
		if sess, err := s.db.GetSession(ctx, sessionID); err == nil {
			model = sess.Model
		}
	}
	if model == "" {
		model = msgModel
	}
	if model == "" {
		return nil, &tagError{err: ErrNoModel}
	}
	if r := []rune(text); len(r) > maxTextRunes {
		text = string(r[:maxTextRunes])
	}
	out, err := s.llm.Complete(ctx, llm.Request{
		Model:     model,
		SessionID: sessionID,
		Purpose:   llm.PurposeTags,
		MaxTokens: 100,
		Messages: []llm.Message{
			{Role: store.RoleSystem, Content: tagPrompt},
			{Role: store.RoleUser, Content: text},
		},
	})
	if err != nil {
		return nil, &tagError{model: model, err: err}
	}
	tags := Parse(out)
	if len(tags) == 0 {
		return nil, &tagError{model: model, err: fmt.Errorf("%w: %q", errNotTags, truncate(out, 200))}
	}
	return tags, nil
}

// errNotTags: the model answered, but not with tags (Parse read none).
var errNotTags = errors.New("tagging: no tags in the model's answer")

// tagError is a failed tag request and the model it asked.
type tagError struct {
	model string
	err   error
}

func (e *tagError) Error() string { return e.err.Error() }
func (e *tagError) Unwrap() error { return e.err }

func (s *Service) notify(u Update) {
	s.mu.Lock()
	fns := append([]func(Update){}, s.onTags...)
	s.mu.Unlock()
	for _, fn := range fns {
		fn(u)
	}
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// Marker is the fixed text in the tagging prompt by which the fake model
// (llmtest.TagMarker) recognises a tagging request.
const Marker = "playchat:tags"

// tagPrompt is the system message of a tagging request.
const tagPrompt = "[" + Marker + "] You label chat messages for search. Give exactly 3 short tags " +
	"(a topic word or short phrase each, at most 20 characters, no '#') for the message below, " +
	"in the language of the message (Japanese tags for Japanese text). " +
	`Answer with JSON only, nothing else: {"tags":["…","…","…"]}`
