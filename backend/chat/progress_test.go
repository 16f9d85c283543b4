package chat_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/chat"
	"playchat/backend/core"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
)

// waitUntil polls cond until it holds (the test fails after 10 s): for
// effects of another goroutine that no event announces, such as a row the
// reply writer stores.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// assistantRows returns the assistant messages of the session.
func assistantRows(t *testing.T, db *store.DB, sessionID string) []store.Message {
	t.Helper()
	ms, err := db.SessionMessages(context.Background(), sessionID)
	if err != nil {
		t.Fatal(err)
	}
	var out []store.Message
	for _, m := range ms {
		if m.Role == store.RoleAssistant {
			out = append(out, m)
		}
	}
	return out
}

// Issue 21: the reply is in the database while it streams, so a process
// killed mid-reply keeps what had arrived. The stream is held after two of
// its chunks; the database is read then.
func TestTheReplyIsStoredWhileItStreams(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	hold := make(chan struct{})
	srv.Enqueue(llmtest.Response{Chunks: []string{"Hello ", "from the ", "middle ", "of a reply"}, Hold: hold, HoldAfter: 2})
	rec := &recorder{}
	tr, err := c.Chat.Start(context.Background(), chat.TurnRequest{Text: "stream please"}, rec)
	if err != nil {
		t.Fatal(err)
	}
	var mid store.Message
	waitUntil(t, "the streaming reply in the database", func() bool {
		rows := assistantRows(t, c.DB, tr.SessionID)
		if len(rows) == 1 && rows[0].Content == "Hello from the " {
			mid = rows[0]
			return true
		}
		return false
	})
	if mid.Status != store.StatusStreaming || mid.StreamOwner != c.DB.Owner() || mid.ParentID == nil || *mid.ParentID != tr.UserMessage.ID {
		t.Fatalf("mid-stream row: status %q owner %q parent %v", mid.Status, mid.StreamOwner, mid.ParentID)
	}
	if leaf, _ := c.DB.ActiveLeaf(context.Background(), tr.SessionID); leaf != mid.ID {
		t.Errorf("the streaming reply is not the end of the selected branch (leaf %d, reply %d)", leaf, mid.ID)
	}
	close(hold)
	res := tr.Wait()
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	rows := assistantRows(t, c.DB, tr.SessionID)
	if len(rows) != 1 || rows[0].ID != mid.ID || rows[0].Status != store.StatusComplete ||
		rows[0].Content != "Hello from the middle of a reply" || rows[0].StreamOwner != "" {
		t.Fatalf("after the end: %+v", rows)
	}
	if res.Reply.ID != mid.ID || res.Reply.CreatedAt.IsZero() {
		t.Errorf("the result names reply %d (created %v), want %d", res.Reply.ID, res.Reply.CreatedAt, mid.ID)
	}
	if _, ok, err := c.DB.GetContextUsage(context.Background(), mid.ID); err != nil || !ok {
		t.Errorf("no context report for the reply (%v)", err)
	}
}

// Stop after the row exists: the same row becomes the partial reply.
func TestStoppingAStoredStreamKeepsItsRowAsPartial(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	hold := make(chan struct{})
	defer close(hold)
	srv.Enqueue(llmtest.Response{Chunks: []string{"Half ", "a reply", " never sent"}, Hold: hold, HoldAfter: 2})
	tr, err := c.Chat.Start(context.Background(), chat.TurnRequest{Text: "stop me"}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the streaming reply", func() bool {
		rows := assistantRows(t, c.DB, tr.SessionID)
		return len(rows) == 1 && rows[0].Content == "Half a reply"
	})
	c.Chat.Stop(tr.ID)
	res := tr.Wait()
	rows := assistantRows(t, c.DB, tr.SessionID)
	if !res.Stopped || len(rows) != 1 || rows[0].Status != store.StatusPartial || rows[0].Error != "stopped" ||
		rows[0].Content != "Half a reply" {
		t.Fatalf("after Stop: stopped %v, rows %+v", res.Stopped, rows)
	}
}

// A round of tool calls is stored with the text so far, before the next
// request answers.
func TestAToolRoundIsStoredWhileTheReplyStreams(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	var calls []string
	c.Tools.Register(lookupTool(&calls))
	hold := make(chan struct{})
	srv.Enqueue(toolCall("c1", "lookup", `{"query":"weather"}`),
		llmtest.Response{Chunks: []string{"It is ", "sunny"}, Hold: hold, HoldAfter: 0})
	tr, err := c.Chat.Start(context.Background(), chat.TurnRequest{Text: "weather?"}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the tool round in the database", func() bool {
		rows := assistantRows(t, c.DB, tr.SessionID)
		return len(rows) == 1 && strings.Contains(rows[0].ToolActivity, `"lookup"`)
	})
	rows := assistantRows(t, c.DB, tr.SessionID)
	if rows[0].Status != store.StatusStreaming || rows[0].Content != "" {
		t.Errorf("after the tool round: status %q, content %q", rows[0].Status, rows[0].Content)
	}
	close(hold)
	if res := tr.Wait(); res.Err != nil || res.Reply.Content != "It is sunny" {
		t.Fatalf("turn: %+v", res)
	}
	rows = assistantRows(t, c.DB, tr.SessionID)
	if len(rows) != 1 || rows[0].Status != store.StatusComplete || !strings.Contains(rows[0].ToolActivity, `"lookup"`) {
		t.Fatalf("after the end: %+v", rows)
	}
}

// A reply another live process is still writing is not sent as history:
// a turn must not hand the model half of someone else's reply. After its
// owner ends and a start marks it interrupted, it goes as it was shown.
func TestAReplyStillStreamingElsewhereIsNotSentAsHistory(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.NewServer(t)
	dir := t.TempDir()
	env := []string{"OPENAI_BASE_URL=" + srv.URL, "DEFAULT_MODEL=openai/fake-model"}
	open := func() *core.Core {
		c, err := core.Open(ctx, core.Options{DataDir: dir, Environ: env, Logger: discard()})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	window := open()
	defer window.Close()
	hold := make(chan struct{})
	srv.Enqueue(llmtest.Response{Chunks: []string{"HALF-WRITTEN ", "rest"}, Hold: hold, HoldAfter: 1})
	tr, err := window.Chat.Start(ctx, chat.TurnRequest{Text: "first question"}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the window's streaming reply", func() bool {
		rows := assistantRows(t, window.DB, tr.SessionID)
		return len(rows) == 1 && rows[0].Content == "HALF-WRITTEN "
	})

	cli := open() // `playchat ask --session` beside the window
	res, _, _ := turn(t, cli, tr.SessionID, "second question")
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	last := srv.ChatRequests()[len(srv.ChatRequests())-1]
	for _, m := range last.Messages {
		if strings.Contains(m.Content, "HALF-WRITTEN") {
			t.Fatalf("the other process's half-written reply went to the model: %+v", last.Messages)
		}
	}
	// Its question is being answered elsewhere: it is not glued onto the
	// next one either (issue 21).
	if got := lastUser(last); got != "second question" {
		t.Errorf("the next question should go alone, got %q", got)
	}
	for _, m := range last.Messages {
		if strings.Contains(m.Content, "first question") {
			t.Errorf("the question still being answered elsewhere went as history: %+v", last.Messages)
		}
	}
	cli.Close()
	close(hold)
	tr.Wait()
}

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

// lastUser is the content of the last user message of a request.
func lastUser(r llmtest.RecordedRequest) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// A start after an unclean end (a reply left streaming, its process gone)
// marks the reply interrupted; the next turn sends it as history, as the
// window shows it.
func TestAnInterruptedReplyIsMarkedAtStartAndGoesAsHistory(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.NewServer(t)
	dir := t.TempDir()
	env := []string{"OPENAI_BASE_URL=" + srv.URL, "DEFAULT_MODEL=openai/fake-model"}
	c, err := core.Open(ctx, core.Options{DataDir: dir, Environ: env, Logger: discard()})
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.DB.CreateSession(ctx, "", "openai/fake-model")
	if err != nil {
		t.Fatal(err)
	}
	q := store.Message{SessionID: s.ID, Role: store.RoleUser, Content: "tell me a story"}
	if err := c.DB.InsertMessage(ctx, &q); err != nil {
		t.Fatal(err)
	}
	r := store.Message{SessionID: s.ID, Role: store.RoleAssistant, Content: "Once upon a time", Status: store.StatusStreaming}
	if err := c.DB.InsertMessage(ctx, &r); err != nil {
		t.Fatal(err)
	}
	// As a killed process leaves it: the row still streaming, its owner's
	// lock file gone with the process (Close removes it; the row stays).
	c.Close()

	c, err = core.Open(ctx, core.Options{DataDir: dir, Environ: env, Logger: discard()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	m, err := c.DB.GetMessage(ctx, r.ID)
	if err != nil || m.Status != store.StatusPartial || apperr.ParseStored(m.ErrorInfo).Code != apperr.ChatReplyInterrupted {
		t.Fatalf("after the restart: %+v, %v", m, err)
	}
	if res, _, _ := turn(t, c, s.ID, "go on"); res.Err != nil {
		t.Fatal(res.Err)
	}
	last := srv.ChatRequests()[len(srv.ChatRequests())-1]
	found := false
	for _, msg := range last.Messages {
		found = found || (msg.Role == "assistant" && msg.Content == "Once upon a time")
	}
	if !found {
		t.Errorf("the interrupted reply did not go as history: %+v", last.Messages)
	}
}
