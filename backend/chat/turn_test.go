package chat_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/chat"
	"playchat/backend/core"
	"playchat/backend/event"
	"playchat/backend/llm"
	"playchat/backend/llm/llmtest"
	"playchat/backend/memory"
	"playchat/backend/store"
)

// recorder is an event.Emitter that keeps every event.
type recorder struct {
	mu     sync.Mutex
	events []event.Event
}

func (r *recorder) Emit(e event.Event) { r.mu.Lock(); r.events = append(r.events, e); r.mu.Unlock() }

func (r *recorder) types() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ts []string
	for _, e := range r.events {
		if len(ts) > 0 && ts[len(ts)-1] == "chunk" && e.Type == event.Chunk {
			continue
		}
		ts = append(ts, string(e.Type))
	}
	return strings.Join(ts, ",")
}

func (r *recorder) text() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, e := range r.events {
		if e.Type == event.Chunk {
			b.WriteString(e.Value.(string))
		}
	}
	return b.String()
}

func noSleep(ctx context.Context, d time.Duration) error { return ctx.Err() }

func newCore(t *testing.T, srv *llmtest.Server, env ...string) *core.Core {
	t.Helper()
	environ := append([]string{"OPENAI_BASE_URL=" + srv.URL, "DEFAULT_MODEL=openai/fake-model"}, env...)
	c, err := core.Open(context.Background(), core.Options{
		DataDir: t.TempDir(), Environ: environ, Logger: slog.New(slog.DiscardHandler),
		LLMOptions: []llm.Option{llm.WithSleep(noSleep)},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func turn(t *testing.T, c *core.Core, sessionID, text string) (chat.Result, *recorder, string) {
	t.Helper()
	rec := &recorder{}
	tr, err := c.Chat.Start(context.Background(), chat.TurnRequest{SessionID: sessionID, Text: text}, rec)
	if err != nil {
		t.Fatal(err)
	}
	return tr.Wait(), rec, tr.SessionID
}

func TestATurnStreamsTheReplyAndStoresBothMessages(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Text("こんにちは！今日はどうしましたか？", 5))
	c := newCore(t, srv)

	res, rec, sid := turn(t, c, "", "こんにちは")
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if got := rec.types(); got != "session_id,chunk,done" {
		t.Fatalf("events = %s", got)
	}
	if rec.text() != "こんにちは！今日はどうしましたか？" {
		t.Fatalf("streamed %q", rec.text())
	}
	if n := srv.RequestCount(llmtest.PathChat); n != 1 {
		t.Fatalf("a plain turn made %d requests, want 1", n)
	}
	msgs, _ := c.DB.SessionMessages(context.Background(), sid)
	if len(msgs) != 2 || msgs[0].Content != "こんにちは" || msgs[1].Status != store.StatusComplete ||
		msgs[1].Content != rec.text() || msgs[1].Model != "openai/fake-model" {
		t.Fatalf("stored = %+v", msgs)
	}
	sess, _ := c.DB.GetSession(context.Background(), sid)
	if sess.Title != "こんにちは" {
		t.Fatalf("auto title = %q", sess.Title)
	}
	c.FlushAPILogs()
	logs, total, _ := c.DB.ListAPILogs(context.Background(), 10, 0)
	if total != 1 || logs[0].SessionID != sid || logs[0].Model != "openai/fake-model" {
		t.Fatalf("api logs = %+v", logs)
	}

	// The next turn of the session carries the first exchange as history.
	turn(t, c, sid, "二つ目")
	reqs := srv.ChatRequests()
	last := withoutClock(reqs[len(reqs)-1].Messages)
	var roles []string
	for _, m := range last {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "system,user,assistant,user" || last[1].Content != "こんにちは" || last[3].Content != "二つ目" {
		t.Fatalf("second request = %v", roles)
	}
}

func TestTenTurnsMakeOneMemoryAndTheEleventhCarriesIt(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithDefault(func(r llmtest.RecordedRequest) llmtest.Response {
		if !r.Stream {
			return llmtest.Text("- SUMMARY: the user counted to ten", 1)
		}
		return llmtest.Text("reply to "+r.LastUserMessage(), 2)
	}))
	c := newCore(t, srv)
	sid := ""
	for i := 1; i <= 10; i++ {
		_, _, sid = turn(t, c, sid, fmt.Sprintf("message %d", i))
		c.Summarizer.Wait()
	}
	ctx := context.Background()
	mems, _ := c.DB.ActiveMemories(ctx, sid)
	if len(mems) != 1 || !strings.Contains(mems[0].Summary, "SUMMARY") || mems[0].MessageCount != 10 {
		t.Fatalf("memories = %+v", mems)
	}
	all, _ := c.DB.SessionMessages(ctx, sid)
	archived := 0
	for i, m := range all {
		if m.ArchivedAt != nil {
			archived++
			if i >= 10 || m.MemoryID == nil || *m.MemoryID != mems[0].ID {
				t.Fatalf("message %d archived wrongly: %+v", i, m)
			}
		}
	}
	if len(all) != 20 || archived != 10 {
		t.Fatalf("messages = %d, archived = %d", len(all), archived)
	}

	turn(t, c, sid, "message 11")
	reqs := srv.ChatRequests()
	last := reqs[len(reqs)-1]
	if !last.Stream {
		t.Fatal("last request is not the turn")
	}
	var sawSummary bool
	for _, m := range last.Messages {
		if m.Role == "system" && strings.Contains(m.Content, "SUMMARY: the user counted to ten") {
			sawSummary = true
		}
		for i := 1; i <= 5; i++ {
			if m.Content == fmt.Sprintf("message %d", i) || m.Content == fmt.Sprintf("reply to message %d", i) {
				t.Fatalf("archived message %q was sent", m.Content)
			}
		}
	}
	if !sawSummary {
		t.Fatal("the 11th request does not carry the summary")
	}
	if n := len(withoutClock(last.Messages)); n != 1+1+10+1 {
		t.Fatalf("11th request has %d messages, want base + memory + 10 active + new", n)
	}
}

func TestAFailedSummaryLeavesMessagesActiveAndIsRetriedAfterABackoff(t *testing.T) {
	failSummary := true
	var mu sync.Mutex
	srv := llmtest.NewServer(t, llmtest.WithDefault(func(r llmtest.RecordedRequest) llmtest.Response {
		mu.Lock()
		defer mu.Unlock()
		if !r.Stream {
			if failSummary {
				return llmtest.Response{Status: 400, ErrorBody: `{"error":{"message":"bad summary"}}`}
			}
			return llmtest.Text("- summary", 1)
		}
		return llmtest.Text("ok", 1)
	}))
	c := newCore(t, srv, "MEMORY_SUMMARIZE_THRESHOLD=4")
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	c.Summarizer.SetClock(func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
	_, _, sid := turn(t, c, "", "a")
	turn(t, c, sid, "b")
	c.Summarizer.Wait()
	ctx := context.Background()
	if n, _ := c.DB.CountActiveMessages(ctx, sid); n != 4 {
		t.Fatalf("after failed summary active = %d, want 4", n)
	}
	summaries := func() int { return countNonStream(srv) }
	failed := summaries()
	// The next turn comes during the backoff: no new summary request.
	mu.Lock()
	failSummary = false
	mu.Unlock()
	turn(t, c, sid, "c")
	c.Summarizer.Wait()
	if got := summaries(); got != failed {
		t.Fatalf("%d summary requests during the backoff", got-failed)
	}
	// After it the summary is tried again and works.
	mu.Lock()
	now = now.Add(memory.BackoffBase + time.Second)
	mu.Unlock()
	turn(t, c, sid, "d")
	c.Summarizer.Wait()
	mems, _ := c.DB.ActiveMemories(ctx, sid)
	if len(mems) != 1 {
		t.Fatalf("retry did not summarise: %+v", mems)
	}
	if n, _ := c.DB.CountActiveMessages(ctx, sid); n != 4 {
		t.Fatalf("active after retry = %d, want 4 (8 − 4)", n)
	}
}

// countNonStream counts the chat requests that were not streamed (summaries).
func countNonStream(srv *llmtest.Server) int {
	n := 0
	for _, r := range srv.ChatRequests() {
		if !r.Stream {
			n++
		}
	}
	return n
}

func TestServerErrorsAndCutStreamsKeepTheUsersMessage(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	ctx := context.Background()

	// 500 on every attempt.
	for i := 0; i < 3; i++ {
		srv.Enqueue(llmtest.Response{Status: 500})
	}
	res, rec, sid := turn(t, c, "", "壊れたサーバー")
	if res.Err == nil || rec.types() != "session_id,error" {
		t.Fatalf("500: err = %v, events = %s", res.Err, rec.types())
	}
	msgs, _ := c.DB.SessionMessages(ctx, sid)
	if len(msgs) != 2 || msgs[0].Content != "壊れたサーバー" || msgs[1].Status != store.StatusError || msgs[1].Error == "" {
		t.Fatalf("after 500 stored = %+v", msgs)
	}

	// Cut after two chunks.
	srv.Enqueue(llmtest.Response{Chunks: []string{"途中", "まで", "届かない"}, CutAfter: 2})
	res, rec, _ = turn(t, c, sid, "切れる")
	if res.Err == nil || !strings.HasSuffix(rec.types(), "chunk,error") {
		t.Fatalf("cut: err = %v, events = %s", res.Err, rec.types())
	}
	if res.Reply.Status != store.StatusPartial || res.Reply.Content != rec.text() || rec.text() == "" {
		t.Fatalf("cut: reply = %+v, streamed %q", res.Reply, rec.text())
	}

	// The next turn works. The question whose reply failed with no text is
	// unanswered: it is left out with its reply, never glued onto the next
	// question (issue 21); the partial exchange is sent as shown.
	srv.Enqueue(llmtest.Text("直った", 2))
	res, _, _ = turn(t, c, sid, "次")
	if res.Err != nil || res.Reply.Content != "直った" {
		t.Fatalf("next turn: %+v", res)
	}
	reqs := srv.ChatRequests()
	var contents []string
	for _, m := range withoutClock(reqs[len(reqs)-1].Messages)[1:] {
		contents = append(contents, m.Content)
	}
	if got := strings.Join(contents, "|"); got != "切れる|"+rec.text()+"|次" {
		t.Fatalf("history after failures = %q", got)
	}
}

func TestStopKeepsThePartialReply(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Response{Chunks: llmtest.SplitText(strings.Repeat("長い返事。", 40), 40), ChunkDelay: 20 * time.Millisecond})
	c := newCore(t, srv)
	rec := &recorder{}
	got := make(chan struct{})
	em := event.EmitterFunc(func(e event.Event) {
		rec.Emit(e)
		if e.Type == event.Chunk && len(rec.text()) > 10 {
			select {
			case got <- struct{}{}:
			default:
			}
		}
	})
	tr, err := c.Chat.Start(context.Background(), chat.TurnRequest{Text: "話して"}, em)
	if err != nil {
		t.Fatal(err)
	}
	<-got
	c.Chat.Stop(tr.ID)
	res := tr.Wait()
	if !res.Stopped || res.Err != nil || res.Reply.Status != store.StatusPartial {
		t.Fatalf("stop: %+v", res)
	}
	if !strings.HasSuffix(rec.types(), "done") || res.Reply.Content != rec.text() {
		t.Fatalf("events %s, stored %q vs streamed %q", rec.types(), res.Reply.Content, rec.text())
	}
	if c.Chat.Running() != 0 {
		t.Fatal("turn still registered")
	}
}

func TestBadRequestsStoreNothing(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv, "DEFAULT_MODEL=")
	ctx := context.Background()
	for _, req := range []chat.TurnRequest{
		{Text: "   "},
		{Text: "hi"}, // no model anywhere
		{Text: "hi", SessionID: "no-such-session", Model: "openai/x"},
		{Text: "hi", Model: "bogus/model"},              // unknown provider
		{Text: "hi", Model: "anthropic/claude-3-haiku"}, // no ANTHROPIC_API_KEY
	} {
		if _, err := c.Chat.Start(ctx, req, event.Discard); err == nil {
			t.Fatalf("%+v accepted", req)
		}
	}
	if ss, _ := c.DB.ListSessions(ctx); len(ss) != 0 {
		t.Fatalf("sessions created: %+v", ss)
	}
	if srv.RequestCount(llmtest.PathChat) != 0 {
		t.Fatal("a bad request reached the model")
	}
}

func TestAnUnreachableServerIsReportedPlainly(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv, "OPENAI_BASE_URL=http://127.0.0.1:9/v1")
	res, rec, _ := turn(t, c, "", "hi")
	want := "cannot reach the model server at http://127.0.0.1:9 (connect: connection refused)"
	ev, _ := rec.events[len(rec.events)-1].Value.(apperr.Info)
	if res.Err == nil || res.Reply.Error != want || ev.Message != want {
		t.Fatalf("error = %q / %v", res.Reply.Error, rec.events[len(rec.events)-1].Value)
	}
	// The window words it from the code and params.
	if ev.Code != apperr.ChatUnreachable || ev.Params["host"] != "http://127.0.0.1:9" || ev.Params["kind"] != "refused" {
		t.Errorf("error event %+v", ev)
	}
}

func TestDeletingASessionStopsItsTurnFirst(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Response{Chunks: llmtest.SplitText(strings.Repeat("長い。", 50), 50), ChunkDelay: 20 * time.Millisecond})
	c := newCore(t, srv)
	ctx := context.Background()
	started := make(chan struct{}, 1)
	tr, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "話して"}, event.EmitterFunc(func(e event.Event) {
		if e.Type == event.Chunk {
			select {
			case started <- struct{}{}:
			default:
			}
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	<-started
	if n, err := c.Chat.DeleteSessions(ctx, []string{tr.SessionID}); err != nil || n != 1 {
		t.Fatalf("DeleteSessions = %d, %v", n, err)
	}
	if c.Chat.Running() != 0 {
		t.Fatal("DeleteSessions returned while the turn still runs")
	}
	if r := tr.Wait(); !r.Stopped {
		t.Fatalf("turn result = %+v", r)
	}
	// The stopped turn wrote nothing after the delete.
	var left int
	if err := c.DB.Bun().NewRaw("SELECT count(*) FROM messages WHERE session_id = ?", tr.SessionID).Scan(ctx, &left); err != nil || left != 0 {
		t.Fatalf("messages left in the deleted session: %d (%v)", left, err)
	}
	// An unknown id deletes nothing, the others included.
	keep, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "残して"}, event.Discard)
	if err != nil {
		t.Fatal(err)
	}
	keep.Wait()
	if _, err := c.Chat.DeleteSessions(ctx, []string{keep.SessionID, "no-such-session"}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("DeleteSessions with an unknown id = %v, want ErrNotFound", err)
	}
	if _, err := c.DB.GetSession(ctx, keep.SessionID); err != nil {
		t.Fatalf("the known session went with the refused delete: %v", err)
	}
}
