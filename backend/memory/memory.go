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

	"playchat/backend/llm"
	"playchat/backend/store"
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
}

// Summarizer runs summary jobs in the background, one at a time per session.
type Summarizer struct {
	db       *store.DB
	llm      Completer
	settings func() Settings
	log      *slog.Logger

	mu      sync.Mutex
	running map[string]*job // per session: the job running now
	wg      sync.WaitGroup
}

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
	return &Summarizer{db: db, llm: c, settings: settings, log: log, running: map[string]*job{}}
}

// Request asks for a summary check of the session after a turn, in the
// background. model is the turn's model. compactBudget > 0 also asks to
// re-summarise the oldest memories until they fit in compactBudget tokens
// (estimated as runes/2, see Compact). Requests for a session that is being
// summarised are coalesced into one more run after the current one.
func (s *Summarizer) Request(sessionID, model string, compactBudget int) {
	s.mu.Lock()
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
			if _, err := s.MaybeSummarize(ctx, sessionID, model); err != nil {
				s.log.Warn("summary failed; messages stay active and it is tried again after the next turn",
					"session", sessionID, "err", err)
			}
			if compact > 0 {
				if err := s.Compact(ctx, sessionID, model, compact); err != nil {
					s.log.Warn("memory compaction failed", "session", sessionID, "err", err)
				}
			}

			s.mu.Lock()
			if !j.again {
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
// into one memory when there are at least Threshold of them. It reports
// whether a memory was written. On any error nothing changes.
func (s *Summarizer) MaybeSummarize(ctx context.Context, sessionID, model string) (bool, error) {
	set := s.settings()
	if set.Threshold < 4 {
		set.Threshold = 20
	}
	active, err := s.db.ActiveMessages(ctx, sessionID)
	if err != nil {
		return false, err
	}
	if len(active) < set.Threshold {
		return false, nil
	}
	part := active[:len(active)/2]
	if set.Model != "" {
		model = set.Model
	}
	summary, err := s.summarise(ctx, sessionID, model, conversationPrompt, renderMessages(part))
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
	return true, nil
}

// Compact re-summarises the oldest active memories of the session, two or
// more at a time, until the layer fits in budget tokens (estimated at one
// token per 2 runes, which over-counts English and matches Japanese) or only
// one memory is left. Merged memories are kept in the DB.
func (s *Summarizer) Compact(ctx context.Context, sessionID, model string, budget int) error {
	if set := s.settings(); set.Model != "" {
		model = set.Model
	}
	for i := 0; i < 8; i++ { // bounded: each round merges at least two
		mems, err := s.db.ActiveMemories(ctx, sessionID)
		if err != nil {
			return err
		}
		total := 0
		for _, m := range mems {
			total += len([]rune(m.Summary))/2 + 8
		}
		if total <= budget || len(mems) < 2 {
			return nil
		}
		n := max(2, len(mems)/2)
		olds := mems[:n]
		var b strings.Builder
		ids := make([]int64, n)
		for i, m := range olds {
			ids[i] = m.ID
			fmt.Fprintf(&b, "### %s\n%s\n\n", m.CreatedAt.Format("2006-01-02 15:04"), m.Summary)
		}
		summary, err := s.summarise(ctx, sessionID, model, memoriesPrompt, b.String())
		if err != nil {
			return err
		}
		if _, err := s.db.MergeMemories(ctx, sessionID, ids, summary); err != nil {
			return err
		}
	}
	return nil
}

func (s *Summarizer) summarise(ctx context.Context, sessionID, model, instruction, text string) (string, error) {
	if model == "" {
		return "", errors.New("no model to summarise with")
	}
	out, err := s.llm.Complete(ctx, llm.Request{
		Model:     model,
		SessionID: sessionID,
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

func renderMessages(ms []store.Message) string {
	var b strings.Builder
	for _, m := range ms {
		if strings.TrimSpace(m.Content) == "" {
			continue
		}
		fmt.Fprintf(&b, "%s: %s\n\n", m.Role, m.Content)
	}
	return b.String()
}
