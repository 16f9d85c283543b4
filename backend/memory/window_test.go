package memory_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"playchat/backend/core"
	"playchat/backend/llm"
	"playchat/backend/llm/llmtest"
	"playchat/backend/memory"
	"playchat/backend/store"
	"playchat/backend/tokens"
)

func openCore(t *testing.T, srv *llmtest.Server, env ...string) *core.Core {
	t.Helper()
	environ := append([]string{"OPENAI_BASE_URL=" + srv.URL, "DEFAULT_MODEL=openai/fake-model"}, env...)
	c, err := core.Open(context.Background(), core.Options{
		DataDir: t.TempDir(), Environ: environ, Logger: slog.New(slog.DiscardHandler),
		LLMOptions: []llm.Option{llm.WithSleep(func(ctx context.Context, d time.Duration) error { return nil })},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// requestTokens counts a recorded request as the summariser does (the fake
// model has no known tokenizer: tokens.Estimate).
func requestTokens(r llmtest.RecordedRequest) int {
	n := 3
	for _, m := range r.Messages {
		n += tokens.Estimate.Count(m.Content) + tokens.MessageOverhead
	}
	return n
}

// Issue 8, fault 1: with CONTEXT_WINDOW_TOKENS=4096 and ten 6,000-character
// messages every chat request fits, but the one summary request was about
// 6,600 tokens, so a real provider rejected it and no memory ever formed.
func TestEverySummaryRequestFitsTheSummaryModelsWindow(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithReply("- the user discussed the project plan"))
	c := openCore(t, srv, "CONTEXT_WINDOW_TOKENS=4096", "MEMORY_SUMMARIZE_THRESHOLD=10")
	ctx := context.Background()
	sess, err := c.DB.CreateSession(ctx, "long", "openai/fake-model")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		role := store.RoleUser
		if i%2 == 1 {
			role = store.RoleAssistant
		}
		text := string(rune('A'+i)) + strings.Repeat("The plan has many careful steps. ", 200)[:5999]
		if err := c.DB.InsertMessage(ctx, &store.Message{SessionID: sess.ID, Role: role, Content: text}); err != nil {
			t.Fatal(err)
		}
	}
	done, err := c.Summarizer.MaybeSummarize(ctx, sess.ID, "openai/fake-model")
	if err != nil || !done {
		t.Fatalf("summary: %v, %v", done, err)
	}
	reqs := srv.ChatRequests()
	if len(reqs) < 2 {
		t.Fatalf("%d requests: ten 6,000-character messages cannot fit one 4096-token request", len(reqs))
	}
	for i, r := range reqs {
		reply := max(r.MaxTokens, r.MaxCompletionTokens)
		if reply <= 0 {
			t.Fatalf("request %d reserves no room for the summary", i)
		}
		if n := requestTokens(r); n+reply > 4096 {
			t.Fatalf("request %d: %d tokens + %d for the summary > the 4096-token window", i, n, reply)
		}
		// A map request holds whole turns: it starts with a user message
		// and has one reply for each.
		if text := r.LastUserMessage(); strings.Contains(r.Messages[0].Content, "part of a conversation") {
			if !strings.HasPrefix(text, "user: ") || strings.Count(text, "user: ") != strings.Count(text, "assistant: ") {
				t.Fatalf("request %d splits a question from its reply:\n%.200s", i, text)
			}
		}
	}
	mems, _ := c.DB.ActiveMemories(ctx, sess.ID)
	if len(mems) != 1 || mems[0].MessageCount != 6 {
		t.Fatalf("memories = %+v, want one over the oldest three turns", mems)
	}
	if st := c.Summarizer.State(sess.ID); st.Status != memory.StatusIdle || st.Failures != 0 {
		t.Fatalf("state = %+v", st)
	}
}
