package memory

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/llm"
	"playchat/backend/store"
	"playchat/backend/tokens"
)

// fakeLLM answers Complete with a fixed summary, or fails.
type fakeLLM struct {
	mu    sync.Mutex
	calls []llm.Request
	fail  bool
	// failWith, when set, is the error of a failing call (else "provider down").
	failWith error
}

func (f *fakeLLM) Complete(ctx context.Context, req llm.Request) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, req)
	if f.fail {
		if f.failWith != nil {
			return "", f.failWith
		}
		return "", errors.New("provider down")
	}
	return fmt.Sprintf("- summary %d", len(f.calls)), nil
}

func setup(t *testing.T, threshold int) (*store.DB, *fakeLLM, *Summarizer, string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f := &fakeLLM{}
	s := New(db, f, func() Settings { return Settings{Threshold: threshold} }, nil)
	sess, _ := db.CreateSession(ctx, "t", "openai/x")
	return db, f, s, sess.ID
}

func addMessages(t *testing.T, db *store.DB, sid string, n int) {
	for i := 0; i < n; i++ {
		role := store.RoleUser
		if i%2 == 1 {
			role = store.RoleAssistant
		}
		if err := db.InsertMessage(context.Background(), &store.Message{SessionID: sid, Role: role, Content: fmt.Sprint("m", i)}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSummarisesTheOlderHalfToTheEndOfATurnAtTheThreshold(t *testing.T) {
	db, f, s, sid := setup(t, 6)
	ctx := context.Background()
	addMessages(t, db, sid, 5)
	if done, err := s.MaybeSummarize(ctx, sid, "openai/x"); done || err != nil || len(f.calls) != 0 {
		t.Fatalf("below the threshold: %v %v, %d calls", done, err, len(f.calls))
	}
	addMessages(t, db, sid, 1)
	if done, err := s.MaybeSummarize(ctx, sid, "openai/x"); !done || err != nil {
		t.Fatalf("at the threshold: %v %v", done, err)
	}
	prompt := f.calls[0].Messages[1].Content
	// Half of six is three, but m3 is the reply to m2: a question is never
	// archived without its answer, so the oldest two turns go.
	if !strings.Contains(prompt, "user: m0") || !strings.Contains(prompt, "user: m2") ||
		!strings.Contains(prompt, "assistant: m3") || strings.Contains(prompt, "m4") {
		t.Fatalf("summarised text = %q, want the oldest 4 messages (two whole turns)", prompt)
	}
	if n, _ := db.CountActiveMessages(ctx, sid); n != 2 {
		t.Fatalf("active = %d, want 2", n)
	}
}

func TestAFailedSummaryChangesNothing(t *testing.T) {
	db, f, s, sid := setup(t, 4)
	f.fail = true
	addMessages(t, db, sid, 4)
	if _, err := s.MaybeSummarize(context.Background(), sid, "openai/x"); err == nil {
		t.Fatal("no error")
	}
	if n, _ := db.CountActiveMessages(context.Background(), sid); n != 4 {
		t.Fatalf("active = %d after a failed summary", n)
	}
}

func TestCompactMergesTheOldestMemoriesUntilTheyFit(t *testing.T) {
	db, f, s, sid := setup(t, 100)
	ctx := context.Background()
	for i := 0; i < 6; i++ {
		m := &store.Message{SessionID: sid, Role: store.RoleUser, Content: "x"}
		db.InsertMessage(ctx, m)
		if _, err := db.ArchiveIntoMemory(ctx, sid, []int64{m.ID}, strings.Repeat("長い要約。", 40)); err != nil {
			t.Fatal(err)
		}
	}
	// Six memories of ~100 estimated tokens each; a 250-token budget.
	if err := s.Compact(ctx, sid, "openai/x", 250); err != nil {
		t.Fatal(err)
	}
	active, _ := db.ActiveMemories(ctx, sid)
	all, _ := db.SessionMemories(ctx, sid)
	if len(active) >= 6 || len(all) <= 6 {
		t.Fatalf("active %d, all %d: nothing merged", len(active), len(all))
	}
	if active[0].Level < 1 || !strings.HasPrefix(active[0].Summary, "- summary") {
		t.Fatalf("oldest active memory = %+v, want a merged one", active[0])
	}
	if !strings.Contains(f.calls[0].Messages[0].Content, "summaries of earlier parts") {
		t.Fatal("memories were not merged with the memories prompt")
	}
	// Measured as the context builder measures layer 4.
	total := tokens.Estimate.Count(LayerText(active)) + tokens.MessageOverhead
	if total > 250 && len(active) > 1 {
		t.Fatalf("still %d estimated tokens in %d memories", total, len(active))
	}
}

func TestRequestsForOneSessionRunOneAtATime(t *testing.T) {
	db, f, s, sid := setup(t, 4)
	addMessages(t, db, sid, 8)
	for i := 0; i < 10; i++ {
		s.Request(sid, "openai/x", 0)
	}
	s.Wait()
	// Ten requests coalesce into one run (two when some arrive while the
	// first runs: 8 → 4 active, then 4 → 2). Concurrent jobs would each
	// have summarised, and all but one would have failed to archive.
	mems, _ := db.ActiveMemories(context.Background(), sid)
	n, _ := db.CountActiveMessages(context.Background(), sid)
	if len(f.calls) < 1 || len(f.calls) > 2 || len(mems) != len(f.calls) || mems[0].MessageCount != 4 || n != 8-4-2*(len(mems)-1) {
		t.Fatalf("memories %+v, active %d, calls %d", mems, n, len(f.calls))
	}
}

func TestAFailingSummaryBacksOffExponentiallyPerSession(t *testing.T) {
	db, f, s, sid := setup(t, 4)
	other, _ := db.CreateSession(context.Background(), "u", "openai/x")
	addMessages(t, db, sid, 4)
	addMessages(t, db, other.ID, 4)
	t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	now := t0
	s.SetClock(func() time.Time { return now })
	f.fail = true

	s.Request(sid, "openai/x", 0)
	s.Wait()
	st := s.State(sid)
	if len(f.calls) != 1 || st.Status != StatusBackoff || st.Failures != 1 ||
		!st.NextAttempt.Equal(t0.Add(BackoffBase)) || !strings.Contains(st.LastError, "provider down") {
		t.Fatalf("after one failure: %d calls, state %+v", len(f.calls), st)
	}
	// Turns during the backoff do not try again.
	for i := 0; i < 5; i++ {
		s.Request(sid, "openai/x", 0)
	}
	s.Wait()
	if len(f.calls) != 1 {
		t.Fatalf("%d calls during the backoff, want none after the first", len(f.calls))
	}
	// Another session is not held back.
	s.Request(other.ID, "openai/x", 0)
	s.Wait()
	if len(f.calls) != 2 || s.State(other.ID).Failures != 1 {
		t.Fatalf("the other session was not tried: %d calls", len(f.calls))
	}
	// After the backoff: one more try, and the next wait doubles.
	now = t0.Add(BackoffBase + time.Second)
	s.Request(sid, "openai/x", 0)
	s.Wait()
	if st := s.State(sid); len(f.calls) != 3 || st.Failures != 2 || !st.NextAttempt.Equal(now.Add(2*BackoffBase)) {
		t.Fatalf("second failure: %d calls, state %+v", len(f.calls), st)
	}
	// A success clears the state.
	f.fail = false
	now = now.Add(3 * BackoffBase)
	s.Request(sid, "openai/x", 0)
	s.Wait()
	if st := s.State(sid); st.Status != StatusIdle || st.Failures != 0 || st.LastError != "" {
		t.Fatalf("after a success: %+v", st)
	}
	if mems, _ := db.ActiveMemories(context.Background(), sid); len(mems) != 1 {
		t.Fatalf("memories = %d", len(mems))
	}
}

func TestBackoffDelayDoublesUpToTheCap(t *testing.T) {
	if backoffDelay(1) != BackoffBase || backoffDelay(3) != 4*BackoffBase || backoffDelay(100) != BackoffMax {
		t.Fatalf("delays %v %v %v", backoffDelay(1), backoffDelay(3), backoffDelay(100))
	}
}

func TestTurnSplitNeverSeparatesAQuestionFromItsReply(t *testing.T) {
	ms := func(roles string) []store.Message {
		var out []store.Message
		for _, r := range roles {
			role := store.RoleUser
			if r == 'a' {
				role = store.RoleAssistant
			}
			out = append(out, store.Message{Role: role, Content: "x"})
		}
		return out
	}
	for _, tt := range []struct {
		roles string
		want  int
		split int
	}{
		{"uaua", 2, 2},
		{"uauaua", 3, 4}, // index 3 is a reply: extend to the next question
		{"uaaaua", 2, 4}, // several replies (tool rounds, retries) stay with their question
		{"uaaaaa", 3, 0}, // no later question: nothing can be split off
		{"uuua", 1, 1},
	} {
		if got := turnSplit(ms(tt.roles), tt.want); got != tt.split {
			t.Errorf("turnSplit(%s, %d) = %d, want %d", tt.roles, tt.want, got, tt.split)
		}
	}
}

// Each CLI `ask` is a new process: the backoff is read from the DB, so a
// failing summary is not retried (and waited for at exit) on every run.
func TestTheBackoffHoldsForTheNextProcess(t *testing.T) {
	db, f, s, sid := setup(t, 4)
	addMessages(t, db, sid, 4)
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	s.SetClock(func() time.Time { return now })
	f.fail = true
	s.Request(sid, "openai/x", 0)
	s.Wait()

	next := New(db, f, func() Settings { return Settings{Threshold: 4} }, nil)
	next.SetClock(func() time.Time { return now.Add(30 * time.Second) })
	next.Request(sid, "openai/x", 0)
	next.Wait()
	if len(f.calls) != 1 {
		t.Fatalf("%d calls: the next process tried again during the backoff", len(f.calls))
	}
	if st := next.State(sid); st.Status != StatusBackoff || st.Failures != 1 || st.LastError == "" {
		t.Fatalf("state in the next process = %+v", st)
	}
	// A success there clears the stored state for good.
	f.fail = false
	next.SetClock(func() time.Time { return now.Add(2 * BackoffBase) })
	next.Request(sid, "openai/x", 0)
	next.Wait()
	third := New(db, f, func() Settings { return Settings{Threshold: 4} }, nil)
	if st := third.State(sid); st.Failures != 0 || st.Status != StatusIdle {
		t.Fatalf("state after a success = %+v", st)
	}
}

func TestAFailedSummaryKeepsItsErrorCodeForThePanel(t *testing.T) {
	db, f, s, sid := setup(t, 4)
	addMessages(t, db, sid, 4)
	f.fail = true
	f.failWith = apperr.New(apperr.LLMProviderStatus, map[string]any{"status": 500, "detail": "overloaded"})
	s.Request(sid, "openai/x", 0)
	s.Wait()
	info := apperr.ParseStored(s.State(sid).LastError)
	if info.Code != apperr.LLMProviderStatus || info.Message == "" {
		t.Fatalf("stored last error %q reads back as %+v, want code %s", s.State(sid).LastError, info, apperr.LLMProviderStatus)
	}
}

// A reply still streaming (another turn's, maybe of another process) is
// never summarised half-written, and nothing after it is archived.
func TestAReplyStillStreamingIsNotSummarised(t *testing.T) {
	db, f, s, sid := setup(t, 6)
	ctx := context.Background()
	addMessages(t, db, sid, 3)
	streaming := &store.Message{SessionID: sid, Role: store.RoleAssistant, Content: "half", Status: store.StatusStreaming}
	if err := db.InsertMessage(ctx, streaming); err != nil {
		t.Fatal(err)
	}
	addMessages(t, db, sid, 4) // 8 active messages: over the threshold
	if done, err := s.MaybeSummarize(ctx, sid, "openai/x"); done || err != nil || len(f.calls) != 0 {
		t.Fatalf("summarised across a streaming reply: %v %v, %d calls", done, err, len(f.calls))
	}
	m, err := db.GetMessage(ctx, streaming.ID)
	if err != nil || m.ArchivedAt != nil {
		t.Fatalf("the streaming reply was archived: %+v, %v", m, err)
	}
}
