package chat_test

import (
	"context"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/chat"
	"playchat/backend/core"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
)

// echoServer answers every streamed request with "<model>: reply to <the
// last user message>".
func echoServer(t *testing.T) *llmtest.Server {
	return llmtest.NewServer(t, llmtest.WithDefault(func(r llmtest.RecordedRequest) llmtest.Response {
		return llmtest.Text(r.Model+": reply to "+r.LastUserMessage(), 2)
	}))
}

// lastRequestText is every message of the newest chat request, joined.
func lastRequestText(srv *llmtest.Server) string {
	reqs := srv.ChatRequests()
	var b strings.Builder
	for _, m := range reqs[len(reqs)-1].Messages {
		b.WriteString(m.Role + ":" + m.Content + "\n")
	}
	return b.String()
}

func branchContents(t *testing.T, c interface {
	BranchMessages(context.Context, string) ([]store.Message, error)
}, sid string) []string {
	t.Helper()
	ms, err := c.BranchMessages(context.Background(), sid)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Content
	}
	return out
}

func TestRegenerateAddsASiblingReplyWithAnotherModelAndKeepsTheFirst(t *testing.T) {
	srv := echoServer(t)
	c := newCore(t, srv)
	ctx := context.Background()
	_, _, sid := turn(t, c, "", "q1")
	turn(t, c, sid, "q2")
	first, _ := c.DB.BranchMessages(ctx, sid)

	rec := &recorder{}
	tr, err := c.Chat.Regenerate(ctx, chat.RegenerateRequest{SessionID: sid, Model: "openai/other-model"}, rec)
	if err != nil {
		t.Fatal(err)
	}
	res := tr.Wait()
	if res.Err != nil || rec.types() != "session_id,chunk,done" {
		t.Fatalf("regenerate = %v, events %s", res.Err, rec.types())
	}
	if tr.UserMessage.ID != first[2].ID {
		t.Fatalf("regenerate answered message %d, want the last question %d", tr.UserMessage.ID, first[2].ID)
	}
	sent := lastRequestText(srv)
	if strings.Contains(sent, "fake-model: reply to q2") || !strings.Contains(sent, "user:q2") {
		t.Fatalf("the regenerate request carried the reply it replaces, or lost the question:\n%s", sent)
	}
	got := branchContents(t, c.DB, sid)
	want := []string{"q1", "fake-model: reply to q1", "q2", "other-model: reply to q2"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("branch after regenerate = %q, want %q", got, want)
	}
	all, _ := c.DB.SessionMessages(ctx, sid)
	if len(all) != 5 {
		t.Fatalf("the session has %d messages, want 5 (the first reply kept)", len(all))
	}
	branch, _ := c.DB.BranchMessages(ctx, sid)
	sibs, _ := c.DB.SiblingIDs(ctx, sid, branch)
	if s := sibs[branch[3].ID]; len(s) != 2 || s[0] != first[3].ID || s[1] != res.Reply.ID {
		t.Fatalf("siblings of the new reply = %v, want [%d %d]", s, first[3].ID, res.Reply.ID)
	}
	if res.Reply.Model != "openai/other-model" {
		t.Fatalf("new reply's model = %q", res.Reply.Model)
	}
	if sess, _ := c.DB.GetSession(ctx, sid); sess.Model != "openai/other-model" {
		t.Fatalf("session model = %q, want the model chosen for the regenerate", sess.Model)
	}
}

func TestEditAndResendMakesASecondBranchWhoseContextLeavesTheFirstOut(t *testing.T) {
	srv := echoServer(t)
	c := newCore(t, srv)
	ctx := context.Background()
	_, _, sid := turn(t, c, "", "q1")
	turn(t, c, sid, "秘密は青")
	branch1, _ := c.DB.BranchMessages(ctx, sid)
	q2 := branch1[2]

	rec := &recorder{}
	tr, err := c.Chat.Edit(ctx, chat.EditRequest{SessionID: sid, MessageID: q2.ID, Text: "秘密は赤"}, rec)
	if err != nil {
		t.Fatal(err)
	}
	if res := tr.Wait(); res.Err != nil {
		t.Fatal(res.Err)
	}
	if tr.UserMessage.ParentID == nil || *tr.UserMessage.ParentID != *q2.ParentID {
		t.Fatalf("edited question's parent = %v, want the original's %d", tr.UserMessage.ParentID, *q2.ParentID)
	}
	if got := branchContents(t, c.DB, sid); strings.Join(got, "|") != "q1|fake-model: reply to q1|秘密は赤|fake-model: reply to 秘密は赤" {
		t.Fatalf("branch 2 = %q", got)
	}
	// A turn on branch 2 sends nothing of branch 1.
	turn(t, c, sid, "秘密は？")
	sent := lastRequestText(srv)
	if strings.Contains(sent, "青") || !strings.Contains(sent, "秘密は赤") {
		t.Fatalf("turn on branch 2 sent:\n%s", sent)
	}

	// Back on branch 1 (its newest leaf), a turn sends nothing of branch 2.
	if _, err := c.DB.SelectBranch(ctx, sid, q2.ID); err != nil {
		t.Fatal(err)
	}
	turn(t, c, sid, "もう一度")
	sent = lastRequestText(srv)
	if strings.Contains(sent, "赤") || !strings.Contains(sent, "秘密は青") {
		t.Fatalf("turn on branch 1 sent:\n%s", sent)
	}
	if got := branchContents(t, c.DB, sid); len(got) != 6 || got[2] != "秘密は青" || got[4] != "もう一度" {
		t.Fatalf("branch 1 after its turn = %q", got)
	}
}

func TestEditAndRegenerateRefuseWhatCannotBranch(t *testing.T) {
	srv := echoServer(t)
	c := newCore(t, srv)
	ctx := context.Background()

	empty, _ := c.DB.CreateSession(ctx, "", "")
	if _, err := c.Chat.Regenerate(ctx, chat.RegenerateRequest{SessionID: empty.ID}, &recorder{}); apperr.CodeOf(err) != apperr.ChatNothingToRegenerate {
		t.Fatalf("regenerate in an empty session: %v", err)
	}

	_, _, sid := turn(t, c, "", "q1")
	turn(t, c, sid, "q2")
	ms, _ := c.DB.BranchMessages(ctx, sid)
	if _, err := c.Chat.Edit(ctx, chat.EditRequest{SessionID: sid, MessageID: ms[1].ID, Text: "x"}, &recorder{}); apperr.CodeOf(err) != apperr.ChatNotUserMessage {
		t.Fatalf("editing a reply: %v", err)
	}
	if _, err := c.Chat.Edit(ctx, chat.EditRequest{SessionID: sid, MessageID: ms[2].ID, Text: "  "}, &recorder{}); apperr.CodeOf(err) != apperr.ChatEmptyMessage {
		t.Fatalf("editing to blank text: %v", err)
	}
	// The first exchange is summarised: it can no longer be edited.
	if _, err := c.DB.ArchiveIntoMemory(ctx, sid, []int64{ms[0].ID, ms[1].ID}, "summary"); err != nil {
		t.Fatal(err)
	}
	_, err := c.Chat.Edit(ctx, chat.EditRequest{SessionID: sid, MessageID: ms[0].ID, Text: "q1 again"}, &recorder{})
	if apperr.CodeOf(err) != apperr.ChatBranchArchived {
		t.Fatalf("editing a summarised message: %v", err)
	}
	if all, _ := c.DB.SessionMessages(ctx, sid); len(all) != 4 {
		t.Fatalf("refused edits stored something: %d messages", len(all))
	}
	// A later message still can be edited; its branch keeps the archived
	// start.
	tr, err := c.Chat.Edit(ctx, chat.EditRequest{SessionID: sid, MessageID: ms[2].ID, Text: "q2 again"}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	tr.Wait()
	if got := branchContents(t, c.DB, sid); len(got) != 4 || got[0] != "q1" || got[2] != "q2 again" {
		t.Fatalf("branch after editing below the summary = %q", got)
	}
	if active, _ := c.DB.ActiveMessages(ctx, sid); len(active) != 2 {
		t.Fatalf("active messages = %d, want the 2 after the summary", len(active))
	}
}

// Regenerate while the reply is still being written by another process
// (`playchat ask` beside the window) is refused with a coded error; once
// that process has ended, its reply is marked interrupted and Regenerate
// works.
func TestRegenerateWaitsForAReplyStillStreamingElsewhere(t *testing.T) {
	ctx := context.Background()
	srv := echoServer(t)
	dir := t.TempDir()
	env := []string{"OPENAI_BASE_URL=" + srv.URL, "DEFAULT_MODEL=openai/fake-model"}
	open := func() *core.Core {
		c, err := core.Open(ctx, core.Options{DataDir: dir, Environ: env, Logger: discard()})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	window, cli := open(), open()
	defer window.Close()
	s, err := cli.DB.CreateSession(ctx, "", "openai/fake-model")
	if err != nil {
		t.Fatal(err)
	}
	q := store.Message{SessionID: s.ID, Role: store.RoleUser, Content: "question"}
	r := store.Message{SessionID: s.ID, Role: store.RoleAssistant, Content: "half", Status: store.StatusStreaming}
	for _, m := range []*store.Message{&q, &r} {
		if err := cli.DB.InsertMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	_, err = window.Chat.Regenerate(ctx, chat.RegenerateRequest{SessionID: s.ID}, &recorder{})
	if apperr.CodeOf(err) != apperr.ChatReplyStreaming {
		t.Fatalf("regenerate during the other stream: %v, want %s", err, apperr.ChatReplyStreaming)
	}
	cli.Close() // the CLI ends (killed) with its reply unfinished

	tr, err := window.Chat.Regenerate(ctx, chat.RegenerateRequest{SessionID: s.ID}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if res := tr.Wait(); res.Err != nil {
		t.Fatal(res.Err)
	}
	m, err := window.DB.GetMessage(ctx, r.ID)
	if err != nil || m.Status != store.StatusPartial || apperr.ParseStored(m.ErrorInfo).Code != apperr.ChatReplyInterrupted {
		t.Fatalf("the other process's reply: %+v, %v", m, err)
	}
}
