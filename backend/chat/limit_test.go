package chat_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"playchat/backend/apperr"
	"playchat/backend/chat"
	"playchat/backend/event"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
)

// A local model stuck in a loop streams for ever: the reply is stopped at
// the one-message limit, stored as partial with a coded reason, and the
// window is told why.
func TestAReplyThatNeverEndsIsStoppedAtTheMessageLimitAndStoredPartial(t *testing.T) {
	srv := llmtest.NewServer(t)
	// Three bytes a character, so the limit falls inside one.
	srv.Enqueue(llmtest.Response{Chunks: []string{strings.Repeat("同じことを繰り返します。", 40), "ループ。"}, Loop: true})
	c := newCore(t, srv)

	res, rec, sid := turn(t, c, "", "数えて")
	if apperr.CodeOf(res.Err) != apperr.ChatReplyTooLong {
		t.Fatalf("turn error %v, want %s", res.Err, apperr.ChatReplyTooLong)
	}
	ms, err := c.DB.ActiveMessages(context.Background(), sid)
	if err != nil || len(ms) != 2 {
		t.Fatalf("stored %d messages (%v)", len(ms), err)
	}
	reply := ms[1]
	if reply.Status != store.StatusPartial || reply.Role != store.RoleAssistant {
		t.Errorf("reply stored as %s %s", reply.Role, reply.Status)
	}
	if n := len(reply.Content); n > chat.MaxMessageBytes || n < chat.MaxMessageBytes-3 || !utf8.ValidString(reply.Content) {
		t.Errorf("stored reply of %d bytes (valid UTF-8: %v), want just under %d", n, utf8.ValidString(reply.Content), chat.MaxMessageBytes)
	}
	if !strings.HasPrefix(reply.Content, strings.Repeat("同じことを繰り返します。", 40)+"ループ。同じことを") {
		t.Errorf("stored reply starts %q", reply.Content[:60])
	}
	if rec.text() != reply.Content {
		t.Errorf("streamed %d bytes, stored %d: the window saw other text than was kept", len(rec.text()), len(reply.Content))
	}
	want := "the reply reached the 1 MiB limit of one message, so playchat stopped it there and kept what had arrived (the model may have been repeating itself)"
	if reply.Error != want {
		t.Errorf("stored error %q", reply.Error)
	}
	if in := apperr.ParseStored(reply.ErrorInfo); in.Code != apperr.ChatReplyTooLong || in.Params["maxMiB"] != float64(1) {
		t.Errorf("stored error info %q", reply.ErrorInfo)
	}
	if got := rec.types(); got != "session_id,chunk,error" {
		t.Errorf("events %s", got)
	}
	if ev, _ := rec.events[len(rec.events)-1].Value.(apperr.Info); ev.Code != apperr.ChatReplyTooLong || ev.Message != want {
		t.Errorf("error event %+v", ev)
	}
	// The request was cancelled for that reason, not by the user.
	c.FlushAPILogs()
	logs, _, err := c.DB.ListAPILogs(context.Background(), 10, 0)
	if err != nil || len(logs) != 1 || !strings.Contains(logs[0].Error, string(apperr.ChatReplyTooLong)) {
		t.Fatalf("api logs %d (%v): %+v", len(logs), err, logs)
	}
	// The session goes on: the next turn is answered.
	srv.Enqueue(llmtest.Text("はい", 1))
	if res, _, _ := turn(t, c, sid, "続けて"); res.Err != nil || res.Reply.Content != "はい" {
		t.Errorf("the next turn: %+v", res)
	}
}

func TestAReplyOfExactlyTheLimitIsKeptComplete(t *testing.T) {
	srv := llmtest.NewServer(t)
	text := strings.Repeat("0123456789abcdef", chat.MaxMessageBytes/16)
	srv.Enqueue(llmtest.Response{Chunks: llmtest.SplitEvery(text, 4096)})
	c := newCore(t, srv)
	res, _, _ := turn(t, c, "", "fill it")
	if res.Err != nil || res.Reply.Status != store.StatusComplete || res.Reply.Content != text {
		t.Errorf("a reply of exactly 1 MiB: err %v, status %s, %d bytes", res.Err, res.Reply.Status, len(res.Reply.Content))
	}
}

// The limit holds for the whole reply, across the rounds of a turn that ran
// a tool: the text before the call counts.
func TestTheLimitCountsTheTextOfEveryRound(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	var calls []string
	c.Tools.Register(lookupTool(&calls))
	first := toolCall("c1", "lookup", `{"query":"a"}`)
	first.Chunks = llmtest.SplitEvery(strings.Repeat("a", 700<<10), 8192)
	srv.Enqueue(first, llmtest.Response{Chunks: llmtest.SplitEvery(strings.Repeat("b", 700<<10), 8192)})
	res, rec, _ := turn(t, c, "", "look it up")
	if apperr.CodeOf(res.Err) != apperr.ChatReplyTooLong || len(calls) != 1 {
		t.Fatalf("err %v, tool calls %v", res.Err, calls)
	}
	got := res.Reply.Content
	if len(got) != chat.MaxMessageBytes || got != strings.Repeat("a", 700<<10)+strings.Repeat("b", chat.MaxMessageBytes-700<<10) {
		t.Errorf("reply of %d bytes", len(got))
	}
	if rec.text() != got {
		t.Errorf("streamed %d bytes, stored %d", len(rec.text()), len(got))
	}
	for _, e := range rec.events {
		if e.Type == event.Done {
			t.Error("a done event for a reply stopped at the limit")
		}
	}
}
