// Package memory turns old messages into long-term memories: when a
// session's active messages reach the threshold, the oldest half is
// summarised into one memories row and archived in the same transaction
// (never deleted); when the memories themselves outgrow their share of the
// context window, the oldest are summarised again.
package memory

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
	"playchat/backend/tokens"
)

// Completer is the LLM call a summary needs.
type Completer interface {
	Complete(ctx context.Context, req llm.Request) (string, error)
}

// Settings are read for every job, so GUI changes apply at once.
type Settings struct {
	// Threshold is MEMORY_SUMMARIZE_THRESHOLD: summarise when the session
	// has at least this many active messages (≥ 4).
	Threshold int
	// Model summarises; "" uses the model of the turn that triggered it.
	Model string
	// ContextWindowTokens is CONTEXT_WINDOW_TOKENS: when > 0 it overrides
	// the summariser model's window (tokens.ContextWindow), as for chat.
	ContextWindowTokens int
	// MaxOutputTokens is MAX_OUTPUT_TOKENS: the tokens reserved in the
	// window for the summary and sent as the request's max tokens.
	MaxOutputTokens int
}

// Summarizer runs summary jobs in the background, one at a time per session.
type Summarizer struct {
	db       *store.DB
	llm      Completer
	settings func() Settings
	log      *slog.Logger

	mu       sync.Mutex
	running  map[string]*job    // per session: the job running now
	failures map[string]failure // per session: consecutive failures
	loaded   map[string]bool    // sessions whose failures were read from the DB
	now      func() time.Time
	wg       sync.WaitGroup
	guard    *guard.Guard // recovers a panicking job; nil guards nothing
	// onArchive is told of every memory MaybeSummarize writes (SetOnArchive).
	onArchive func(ctx context.Context, a Archived)
}

// Archived is one memory MaybeSummarize wrote: the summary of MessageIDs
// (the summarised messages, oldest first) of SessionID.
type Archived struct {
	SessionID  string
	MemoryID   int64
	Summary    string
	MessageIDs []int64
}

// SetOnArchive makes fn be told of every memory written, after it is
// stored (the mirror into learned documents, issue 23). fn runs on the
// summary job's goroutine; what it does can never fail the summary: its
// panic is recovered and logged. Safe to call while jobs run.
func (s *Summarizer) SetOnArchive(fn func(ctx context.Context, a Archived)) {
	s.mu.Lock()
	s.onArchive = fn
	s.mu.Unlock()
}

func (s *Summarizer) archived(ctx context.Context, a Archived) {
	s.mu.Lock()
	fn := s.onArchive
	s.mu.Unlock()
	if fn == nil {
		return
	}
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("memory: the archive hook panicked (the summary is kept)", "panic", v)
		}
	}()
	fn(ctx, a)
}

// errJobCrashed is the failure recorded for a summary job that panicked
// (the guard logged the panic with its stack); the session backs off as
// after any failure.
var errJobCrashed = errors.New("memory: the summary job crashed (the stack is in the log)")

// SetGuard makes g recover panics of the background jobs (job name
// "memory.summarize"): a panicking job counts as a failed one. Call it
// before the first Request; nil (the default) guards nothing.
func (s *Summarizer) SetGuard(g *guard.Guard) { s.guard = g }

type job struct {
	model   string
	compact int  // token budget of layer 4 when compaction is asked; 0 = none
	again   bool // another request arrived while running
}

// New returns a Summarizer. settings is called at the start of every job.
func New(db *store.DB, c Completer, settings func() Settings, log *slog.Logger) *Summarizer {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Summarizer{db: db, llm: c, settings: settings, log: log, running: map[string]*job{},
		failures: map[string]failure{}, loaded: map[string]bool{}, now: time.Now}
}

// Request asks for a summary check of the session after a turn, in the
// background. model is the turn's model. compactBudget > 0 also asks to
// re-summarise the oldest memories until they fit in compactBudget tokens
// (counted as the context builder counts layer 4, see Compact). Requests
// for a session that is being summarised are coalesced into one more run
// after the current one. While the session backs off after failed jobs
// (see State) the request is ignored: a failing summary is not tried again
// after every turn, and the CLI does not wait for it at exit.
func (s *Summarizer) Request(sessionID, model string, compactBudget int) {
	s.mu.Lock()
	if s.backingOff(sessionID) {
		s.mu.Unlock()
		return
	}
	if j, ok := s.running[sessionID]; ok {
		j.again = true
		j.model = model
		j.compact = max(j.compact, compactBudget)
		s.mu.Unlock()
		return
	}
	j := &job{model: model, compact: compactBudget}
	s.running[sessionID] = j
	s.wg.Add(1)
	s.mu.Unlock()

	go func() {
		defer s.wg.Done()
		for {
			s.mu.Lock()
			model, compact := j.model, j.compact
			j.again, j.compact = false, 0
			s.mu.Unlock()

			ctx := context.Background()
			var err error
			if s.guard.Do("memory.summarize", func() {
				_, err = s.MaybeSummarize(ctx, sessionID, model)
				if err != nil {
					s.log.Warn("summary failed; messages stay active and it is tried again after a backoff",
						"session", sessionID, "err", err)
				} else if compact > 0 {
					if err = s.Compact(ctx, sessionID, model, compact); err != nil {
						s.log.Warn("memory compaction failed", "session", sessionID, "err", err)
					}
				}
			}) {
				err = errJobCrashed
			}
			s.noteResult(sessionID, err)

			s.mu.Lock()
			if !j.again || s.backingOff(sessionID) {
				delete(s.running, sessionID)
				s.mu.Unlock()
				return
			}
			s.mu.Unlock()
		}
	}()
}

// Wait blocks until every requested job has finished (the CLI calls it
// before exiting; tests call it before asserting).
func (s *Summarizer) Wait() { s.wg.Wait() }

// MaybeSummarize summarises the oldest half of the session's active messages
// — extended to the end of a turn, so a user message is never archived
// without the reply to it — into one memory when there are at least
// Threshold of them. Every request fits the summariser model's context
// window: messages that do not fit one request are summarised in parts of
// whole turns and the parts merged; a single turn too long for the window
// is cut with CutMarker. It reports whether a memory was written. On any
// error nothing changes.
func (s *Summarizer) MaybeSummarize(ctx context.Context, sessionID, model string) (bool, error) {
	set := s.settings()
	if set.Threshold < 4 {
		set.Threshold = 20
	}
	// Counted first: every turn asks, and most find too few messages to
	// summarise; reading them all (thousands, in a long chat that cannot
	// be summarised) is for when there are enough.
	n, err := s.db.CountActiveMessages(ctx, sessionID)
	if err != nil || n < set.Threshold {
		return false, err
	}
	active, err := s.db.ActiveMessages(ctx, sessionID)
	if err != nil {
		return false, err
	}
	// A reply still streaming (another turn's, perhaps of another process)
	// is not summarised half-written, nor is anything after it.
	for i, m := range active {
		if m.Status == store.StatusStreaming {
			active = active[:i]
			break
		}
	}
	if len(active) < set.Threshold {
		return false, nil
	}
	part := active[:turnSplit(active, len(active)/2)]
	if len(part) == 0 {
		return false, nil
	}
	if set.Model != "" {
		model = set.Model
	}
	if model == "" {
		return false, errors.New("no model to summarise with")
	}
	summary, err := s.summariseMessages(ctx, sessionID, newPlan(model, set), part)
	if err != nil {
		return false, err
	}
	ids := make([]int64, len(part))
	for i, m := range part {
		ids[i] = m.ID
	}
	mem, err := s.db.ArchiveIntoMemory(ctx, sessionID, ids, summary)
	if err != nil {
		return false, err
	}
	s.log.Info("summarised messages into memory", "session", sessionID, "messages", len(ids), "memory", mem.ID)
	s.archived(ctx, Archived{SessionID: sessionID, MemoryID: mem.ID, Summary: summary, MessageIDs: ids})
	return true, nil
}

// Compact re-summarises the oldest active memories of the session, two or
// more at a time, until layer 4 fits in budget tokens or only one memory is
// left. The layer is counted as the context builder counts it: LayerText
// with the counter of model (the turn's model, tokens.ForModel) plus the
// per-message overhead. Each merge request fits the summariser model's
// window. Merged memories are kept in the DB.
func (s *Summarizer) Compact(ctx context.Context, sessionID, model string, budget int) error {
	counter := tokens.ForModel(model)
	set := s.settings()
	if set.Model != "" {
		model = set.Model
	}
	if model == "" {
		return errors.New("no model to summarise with")
	}
	p := newPlan(model, set)
	room := p.room(memoriesPrompt)
	for i := 0; i < 8; i++ { // bounded: each round merges at least two
		mems, err := s.db.ActiveMemories(ctx, sessionID)
		if err != nil {
			return err
		}
		if counter.Count(LayerText(mems))+tokens.MessageOverhead <= budget || len(mems) < 2 {
			return nil
		}
		// The oldest half (at least two), fewer when they would not fit one
		// request; two that do not fit are cut to half the room each.
		n := max(2, len(mems)/2)
		text := renderMemories(p.counter, mems[:n], 0)
		for n > 2 && p.counter.Count(text) > room {
			n--
			text = renderMemories(p.counter, mems[:n], 0)
		}
		if p.counter.Count(text) > room {
			text = renderMemories(p.counter, mems[:n], room/2-8)
		}
		ids := make([]int64, n)
		for i, m := range mems[:n] {
			ids[i] = m.ID
		}
		summary, err := s.summarise(ctx, sessionID, p, memoriesPrompt, text)
		if err != nil {
			return err
		}
		if _, err := s.db.MergeMemories(ctx, sessionID, ids, summary); err != nil {
			return err
		}
	}
	return nil
}

// renderMemories renders memories as dated sections for a merge request;
// each summary is cut to limit tokens when limit > 0.
func renderMemories(c tokens.Counter, mems []store.Memory, limit int) string {
	var b strings.Builder
	for _, m := range mems {
		text := m.Summary
		if limit > 0 {
			text = tokens.Truncate(c, text, limit, CutMarker)
		}
		fmt.Fprintf(&b, "### %s\n%s\n\n", m.CreatedAt.Format("2006-01-02 15:04"), text)
	}
	return b.String()
}

// LayerHeader opens the long-term memory system message (context layer 4).
const LayerHeader = "## Long-term memory\nSummaries of earlier parts of this conversation, oldest first. They are background: prefer the recent messages when they disagree."

// LayerText is context layer 4's text for the session's active memories
// (oldest first): LayerHeader, then each summary under its local date and
// time. "" for no memories. The chat context builder sends it and Compact
// measures it, so both count the same text.
func LayerText(mems []store.Memory) string {
	if len(mems) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(LayerHeader)
	for _, m := range mems {
		b.WriteString("\n\n### ")
		b.WriteString(m.CreatedAt.Local().Format("2006-01-02 15:04"))
		b.WriteString("\n")
		b.WriteString(strings.TrimSpace(m.Summary))
	}
	return b.String()
}

// summarise sends one summary request (instruction as the system message,
// text as the user message, the plan's output reservation as max tokens).
func (s *Summarizer) summarise(ctx context.Context, sessionID string, p plan, instruction, text string) (string, error) {
	out, err := s.llm.Complete(ctx, llm.Request{
		Model:     p.model,
		SessionID: sessionID,
		Purpose:   llm.PurposeSummary,
		MaxTokens: p.output,
		Messages: []llm.Message{
			{Role: store.RoleSystem, Content: instruction},
			{Role: store.RoleUser, Content: text},
		},
	})
	if err != nil {
		return "", err
	}
	out = strings.TrimSpace(out)
	if out == "" {
		return "", errors.New("the model returned an empty summary")
	}
	return out, nil
}

const conversationPrompt = "Summarise the following part of a conversation between a user and an assistant " +
	"so it can serve as long-term memory. Keep facts about the user, decisions, names, numbers, " +
	"open questions and promises. Write in the language of the conversation, as concise bullet points, " +
	"without preamble."

const memoriesPrompt = "The following are summaries of earlier parts of one conversation, oldest first. " +
	"Merge them into one shorter summary that keeps every fact about the user, decisions, names, numbers " +
	"and open questions. Write in their language, as concise bullet points, without preamble."
