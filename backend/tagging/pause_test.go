package tagging

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"playchat/backend/store"
)

// Issue 22: against a model that never answers with tags, a 5-turn chat made
// 91 calls (each message retried at 30 s, 1 min, 2 min …), and prose
// became tags ("#FAKE: こんにちは"). An answer that is not tags is stored as
// nothing and not retried; after PauseAfter failed requests in a row
// tagging pauses — the queue goes, nothing more is asked, the pause is
// reported once — until the settings change.
func TestAModelThatNeverAnswersWithTagsPausesTaggingAfterAFewRequests(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.srv.AnswerTagsWithProse("FAKE: こんにちは")
	var mu sync.Mutex
	model := "openai/fake-tagger"
	settings := func() Settings {
		mu.Lock()
		defer mu.Unlock()
		return Settings{Enabled: true, Model: model}
	}
	var pauses []Pause
	tagger := New(Options{DB: f.db, LLM: f.llm, Backlog: -1, RetryBase: time.Millisecond, Settings: settings})
	tagger.OnPause(func(p Pause) { mu.Lock(); pauses = append(pauses, p); mu.Unlock() })
	tagger.Start(ctx)
	defer tagger.Stop()

	sess, _ := f.db.CreateSession(ctx, "", "openai/fake-chat")
	var ids []int64
	for turn := range 5 { // five turns: a question and a reply each
		var turnIDs []int64
		for _, text := range []string{"質問です", "返事です"} {
			m := store.Message{SessionID: sess.ID, Role: store.RoleUser, Content: text + strings.Repeat("！", turn)}
			if err := f.db.InsertMessage(ctx, &m); err != nil {
				t.Fatal(err)
			}
			turnIDs = append(turnIDs, m.ID)
		}
		ids = append(ids, turnIDs...)
		tagger.Enqueue(sess.ID, turnIDs)
		eventually(t, "the queue to drain", func() bool { return tagger.Pending() == 0 })
	}
	time.Sleep(50 * time.Millisecond) // a retry would come now
	if n := len(f.srv.TagRequests()); n != PauseAfter {
		t.Fatalf("%d tag requests for 5 turns, want %d: then tagging pauses", n, PauseAfter)
	}
	for _, id := range ids {
		if got := f.tags(t, id); len(got) != 0 {
			t.Fatalf("message %d got tags %q from prose", id, got)
		}
	}
	mu.Lock()
	if len(pauses) != 1 || !pauses[0].NotTags || pauses[0].Model != "openai/fake-tagger" {
		t.Fatalf("pauses reported = %+v, want one, for answers that are not tags", pauses)
	}
	mu.Unlock()
	if _, paused := tagger.Paused(); !paused {
		t.Fatal("Paused() = false")
	}

	// Another tagging model: tagging resumes.
	mu.Lock()
	model = "openai/better-tagger"
	mu.Unlock()
	f.srv.AnswerTagsWithProse("")
	m := store.Message{SessionID: sess.ID, Role: store.RoleUser, Content: "富士山に登った"}
	if err := f.db.InsertMessage(ctx, &m); err != nil {
		t.Fatal(err)
	}
	tagger.Enqueue(sess.ID, []int64{m.ID})
	eventually(t, "the new message tagged", func() bool { return len(f.tags(t, m.ID)) == 3 })
	if _, paused := tagger.Paused(); paused {
		t.Fatal("still paused after the model changed")
	}
}

// A request that fails (the provider is down) is retried with backoff, and
// counts toward the pause like an answer that is not tags.
func TestFailingRequestsPauseTaggingToo(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.srv.FailTagRequests(1000)
	tagger := New(Options{DB: f.db, LLM: f.llm, Backlog: -1, RetryBase: time.Millisecond,
		Settings: func() Settings { return Settings{Enabled: true, Model: "openai/fake-tagger"} }})
	tagger.Start(ctx)
	defer tagger.Stop()
	sess, _ := f.db.CreateSession(ctx, "", "openai/fake-chat")
	var ids []int64
	for range 4 {
		m := store.Message{SessionID: sess.ID, Role: store.RoleUser, Content: "こんにちは"}
		_ = f.db.InsertMessage(ctx, &m)
		ids = append(ids, m.ID)
	}
	tagger.Enqueue(sess.ID, ids)
	eventually(t, "the pause", func() bool { _, p := tagger.Paused(); return p })
	time.Sleep(50 * time.Millisecond)
	if n := len(f.srv.TagRequests()); n != PauseAfter {
		t.Fatalf("%d tag requests, want %d", n, PauseAfter)
	}
}
