package chat_test

import (
	"context"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/chat"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
)

// Issue 21: after a 429 or a 500, the next message went out as
// "old question\n\nnew question" and failed with the old error. A question
// whose reply failed is unanswered: the next request never carries it.
func TestTheNextMessageAfterAFailureIsSentAlone(t *testing.T) {
	for _, status := range []int{429, 500, 400} {
		srv := echoServer(t)
		c := newCore(t, srv)
		for range 3 {
			srv.Enqueue(llmtest.Response{Status: status, ErrorBody: `{"error":{"message":"nope"}}`})
		}
		res, _, sid := turn(t, c, "", "the failing question")
		if res.Err == nil {
			t.Fatalf("%d: the first turn did not fail", status)
		}
		res, _, _ = turn(t, c, sid, "the next question")
		if res.Err != nil {
			t.Fatalf("%d: the next turn failed: %v", status, res.Err)
		}
		sent := lastRequestText(srv)
		if strings.Contains(sent, "the failing question") || !strings.Contains(sent, "user:the next question") {
			t.Fatalf("%d: the next request carried %q", status, sent)
		}
		ms, _ := c.DB.BranchMessages(context.Background(), sid)
		if un := chat.Unanswered(ms, false); len(un) != 1 || !un[ms[0].ID] {
			t.Fatalf("%d: unanswered = %v, want the failing question %d", status, un, ms[0].ID)
		}
	}
}

// A message that cannot fit the model's window even alone is refused before
// anything is stored (it stays in the composer), so it can never make later
// messages fail; the next, shorter message works.
func TestAMessageTooLongForTheModelIsNotStored(t *testing.T) {
	srv := echoServer(t)
	c := newCore(t, srv, "CONTEXT_WINDOW_TOKENS=2000", "MAX_OUTPUT_TOKENS=500")
	ctx := context.Background()
	_, _, sid := turn(t, c, "", "hello")
	before, _ := c.DB.SessionMessages(ctx, sid)
	huge := strings.Repeat("長い文章です。", 2000)
	_, err := c.Chat.Start(ctx, chat.TurnRequest{SessionID: sid, Text: huge}, &recorder{})
	if apperr.CodeOf(err) != apperr.ChatTooLongForModel {
		t.Fatalf("Start(huge) = %v, want %s", err, apperr.ChatTooLongForModel)
	}
	// Nor for a new chat, nor as an edit.
	if _, err := c.Chat.Start(ctx, chat.TurnRequest{Text: huge}, &recorder{}); apperr.CodeOf(err) != apperr.ChatTooLongForModel {
		t.Fatalf("Start(huge, new chat) = %v", err)
	}
	if _, err := c.Chat.Edit(ctx, chat.EditRequest{SessionID: sid, MessageID: before[0].ID, Text: huge}, &recorder{}); apperr.CodeOf(err) != apperr.ChatTooLongForModel {
		t.Fatalf("Edit(huge) = %v", err)
	}
	after, _ := c.DB.SessionMessages(ctx, sid)
	sessions, _ := c.DB.ListSessions(ctx)
	if len(after) != len(before) || len(sessions) != 1 {
		t.Fatalf("a refused message changed the store: %d → %d messages, %d sessions", len(before), len(after), len(sessions))
	}
	if res, _, _ := turn(t, c, sid, "short again"); res.Err != nil {
		t.Fatalf("the next message failed: %v", res.Err)
	}
}

// Retry answers an unanswered question again, even when it is not the last;
// Remove takes it (and its failed reply) away and keeps what came after.
func TestRetryAndRemoveOfAnUnansweredQuestion(t *testing.T) {
	srv := echoServer(t)
	c := newCore(t, srv)
	ctx := context.Background()
	_, _, sid := turn(t, c, "", "q1")
	for range 3 {
		srv.Enqueue(llmtest.Response{Status: 500})
	}
	turn(t, c, sid, "q2 fails")
	turn(t, c, sid, "q3")
	ms, _ := c.DB.BranchMessages(ctx, sid)
	if got := strings.Join(branchContents(t, c.DB, sid), "|"); got != "q1|fake-model: reply to q1|q2 fails||q3|fake-model: reply to q3" {
		t.Fatalf("branch = %q", got)
	}
	failed := ms[2].ID

	// Remove refuses what is not an unanswered question, and changes nothing.
	if err := c.Chat.RemoveUnanswered(ctx, sid, ms[0].ID); apperr.CodeOf(err) != apperr.ChatAnswered {
		t.Fatalf("Remove(answered) = %v", err)
	}
	if err := c.Chat.RemoveUnanswered(ctx, sid, ms[1].ID); apperr.CodeOf(err) != apperr.ChatNotUserMessage {
		t.Fatalf("Remove(a reply) = %v", err)
	}

	// Retry of the older unanswered question: a new reply to it, selected.
	rec := &recorder{}
	tr, err := c.Chat.Regenerate(ctx, chat.RegenerateRequest{SessionID: sid, QuestionID: failed}, rec)
	if err != nil {
		t.Fatal(err)
	}
	if res := tr.Wait(); res.Err != nil || res.Reply.Content != "fake-model: reply to q2 fails" {
		t.Fatalf("retry = %+v", res)
	}
	if got := strings.Join(branchContents(t, c.DB, sid), "|"); got != "q1|fake-model: reply to q1|q2 fails|fake-model: reply to q2 fails" {
		t.Fatalf("branch after retry = %q", got)
	}
	// The version with q3 is still there.
	if _, err := c.DB.SelectBranch(ctx, sid, ms[3].ID); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(branchContents(t, c.DB, sid), "|"); !strings.HasSuffix(got, "|q3|fake-model: reply to q3") {
		t.Fatalf("the other version = %q", got)
	}

	// Remove on that branch: q2 and its failed reply go, q3 follows q1's reply.
	if err := c.Chat.RemoveUnanswered(ctx, sid, failed); apperr.CodeOf(err) != apperr.ChatAnswered {
		t.Fatalf("Remove(q2, answered on another version) = %v, want %s", err, apperr.ChatAnswered)
	}
}

func TestRemoveAnUnansweredQuestionKeepsTheLaterMessages(t *testing.T) {
	srv := echoServer(t)
	c := newCore(t, srv)
	ctx := context.Background()
	_, _, sid := turn(t, c, "", "q1")
	for range 3 {
		srv.Enqueue(llmtest.Response{Status: 429})
	}
	turn(t, c, sid, "q2 fails")
	turn(t, c, sid, "q3")
	ms, _ := c.DB.BranchMessages(ctx, sid)
	if err := c.Chat.RemoveUnanswered(ctx, sid, ms[2].ID); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(branchContents(t, c.DB, sid), "|"); got != "q1|fake-model: reply to q1|q3|fake-model: reply to q3" {
		t.Fatalf("branch after remove = %q", got)
	}
	all, _ := c.DB.SessionMessages(ctx, sid)
	if len(all) != 4 {
		t.Fatalf("%d messages stored, want 4", len(all))
	}
	// The last question, unanswered (its reply failed), can go too: the
	// branch ends at the reply before it, and the chat goes on from there.
	for range 3 {
		srv.Enqueue(llmtest.Response{Status: 500})
	}
	turn(t, c, sid, "q4 fails")
	ms, _ = c.DB.BranchMessages(ctx, sid)
	if err := c.Chat.RemoveUnanswered(ctx, sid, ms[len(ms)-2].ID); err != nil {
		t.Fatal(err)
	}
	turn(t, c, sid, "q5")
	if got := strings.Join(branchContents(t, c.DB, sid), "|"); got != "q1|fake-model: reply to q1|q3|fake-model: reply to q3|q5|fake-model: reply to q5" {
		t.Fatalf("branch = %q", got)
	}
	var m store.Message
	if m, _ = c.DB.GetMessage(ctx, ms[len(ms)-2].ID); m.ID != 0 {
		t.Fatalf("the removed question is still stored: %+v", m)
	}
}

// Issue 22: the meter did not count the tool definitions sent with every
// turn (about 1k tokens). The report counts them, the budget spends them,
// and a turn's stored report says the same as the preview.
func TestTheContextCountsTheToolDefinitions(t *testing.T) {
	srv := echoServer(t)
	c := newCore(t, srv)
	ctx := context.Background()
	rep, err := c.Chat.Preview(ctx, chat.PreviewRequest{Text: "こんにちは"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Tools < 300 || rep.Used < rep.Prompt+rep.Tools+rep.Message {
		t.Fatalf("preview: tools %d, used %d (prompt %d, message %d)", rep.Tools, rep.Used, rep.Prompt, rep.Message)
	}
	res, _, _ := turn(t, c, "", "こんにちは")
	stored, ok, err := c.Chat.Report(ctx, res.Reply.ID)
	if err != nil || !ok || stored.Tools != rep.Tools {
		t.Fatalf("stored report tools = %d (%v, %v), preview %d", stored.Tools, ok, err, rep.Tools)
	}
	if len(srv.ChatRequests()[0].Tools) == 0 {
		t.Fatal("the request carried no tools: the count stands for nothing")
	}
}
