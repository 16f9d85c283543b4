package memory

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"playchat/backend/guard"
	"playchat/backend/llm"
	"playchat/backend/store"
)

// panickingLLM panics in Complete, as a bug in a provider client would.
type panickingLLM struct{}

func (panickingLLM) Complete(context.Context, llm.Request) (string, error) {
	var p *llm.Request
	return p.Model, nil // nil dereference
}

func TestAPanickingSummaryJobIsRecoveredAndBacksOffLikeAFailure(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var mu sync.Mutex
	var reported []string
	g := guard.New(slog.New(slog.DiscardHandler), func(job string, _ any) {
		mu.Lock()
		reported = append(reported, job)
		mu.Unlock()
	})
	s := New(db, panickingLLM{}, func() Settings { return Settings{Threshold: 4} }, nil)
	s.SetGuard(g)
	sess, _ := db.CreateSession(ctx, "t", "openai/x")
	addMessages(t, db, sess.ID, 4)

	s.Request(sess.ID, "openai/x", 0)
	s.Wait() // returns: the job ended despite the panic
	st := s.State(sess.ID)
	if st.Status != StatusBackoff || st.Failures != 1 || !strings.Contains(st.LastError, "crashed") {
		t.Fatalf("state after a panicking job = %+v, want a backoff with the crash as its error", st)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reported) != 1 || reported[0] != "memory.summarize" {
		t.Fatalf("reported %v, want memory.summarize once", reported)
	}
	if mems, _ := db.ActiveMemories(ctx, sess.ID); len(mems) != 0 {
		t.Fatalf("a crashed job wrote %d memories", len(mems))
	}
}
