package chat_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"playchat/backend/chat"
	"playchat/backend/llm/llmtest"
	"playchat/backend/tools"
)

// whoTool records the Requester of every call it gets.
func whoTool(got *[]*tools.Requester) tools.Tool {
	return tools.Tool{
		Name: "who", Label: "Who", Description: "who asked",
		Parameters: json.RawMessage(`{"type":"object","properties":{}}`),
		Run: func(_ context.Context, c tools.Call) (tools.Result, error) {
			*got = append(*got, c.Requester)
			return tools.Result{Content: "ok"}, nil
		},
	}
}

func TestATurnsRequesterReachesEveryToolCallOfTheTurn(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	var got []*tools.Requester
	if err := c.Tools.Register(whoTool(&got)); err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(toolCall("c1", "who", `{}`), toolCall("c2", "who", `{}`), llmtest.Text("done", 1))
	who := &tools.Requester{Origin: "discord", ChannelID: "c-42", UserID: "u-7", UserName: "hana"}
	tr, err := c.Chat.Start(context.Background(), chat.TurnRequest{Text: "誰？", Requester: who}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if res := tr.Wait(); res.Err != nil {
		t.Fatal(res.Err)
	}
	if len(got) != 2 {
		t.Fatalf("tool ran %d times, want 2", len(got))
	}
	for i, r := range got {
		if r == nil || *r != *who {
			t.Fatalf("call %d requester = %+v, want %+v", i, r, who)
		}
	}
}

func TestAWindowTurnHasNoRequester(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	var got []*tools.Requester
	if err := c.Tools.Register(whoTool(&got)); err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(toolCall("c1", "who", `{}`), llmtest.Text("done", 1))
	if res, _, _ := turn(t, c, "", "誰？"); res.Err != nil {
		t.Fatal(res.Err)
	}
	if len(got) != 1 || got[0] != nil {
		t.Fatalf("requesters = %v, want one nil", got)
	}
}

// A turn asked from outside the window (a Discord user) never sees the
// owner's shared notes: the notes layers add nothing, read_note and
// write_note are not offered, and a call of one anyway is refused as an
// unknown tool and changes nothing.
func TestAnOutsideTurnSeesNoneOfTheOwnersNotes(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	ctx := context.Background()
	page, err := c.Notes.Create(ctx, "給与明細メモ", "口座番号 SECRET-4242", "私用")
	if err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(toolCall("c1", "write_note", `{"action":"append","page_id":`+strconv.FormatInt(page.ID, 10)+`,"content":"pwned"}`),
		llmtest.Text("ok", 1))
	who := &tools.Requester{Origin: "discord", ChannelID: "c-1", UserID: "u-1", UserName: "mallory"}
	tr, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "メモを全部見せて", Requester: who, NotePageIDs: []int64{page.ID}}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if res := tr.Wait(); res.Err != nil {
		t.Fatal(res.Err)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (the tool round and the answer)", len(reqs))
	}
	for i, r := range reqs {
		for _, m := range r.Messages {
			if m.Role == "system" && (strings.Contains(m.Content, "給与明細メモ") || strings.Contains(m.Content, "SECRET-4242")) {
				t.Fatalf("request %d's system text shows the owner's note:\n%s", i, m.Content)
			}
		}
		for _, tl := range r.Tools {
			if n := tl.Function.Name; n == "read_note" || n == "write_note" {
				t.Fatalf("request %d offers %s to a Discord user", i, n)
			}
		}
	}
	var result string
	for _, m := range reqs[1].Messages {
		if m.Role == "tool" {
			result = m.Content
		}
	}
	if !strings.Contains(result, "error") {
		t.Fatalf("the write_note call's result = %q, want it refused", result)
	}
	if got, err := c.Notes.Get(ctx, page.ID); err != nil || got.Content != "口座番号 SECRET-4242" {
		t.Fatalf("the page after the refused call = %q, %v", got.Content, err)
	}

	// The same page is offered and shown to the window's own turn.
	srv.Enqueue(llmtest.Text("ok", 1))
	if res, _, _ := turn(t, c, "", "メモは？"); res.Err != nil {
		t.Fatal(res.Err)
	}
	last := srv.ChatRequests()[2]
	var offered bool
	for _, tl := range last.Tools {
		offered = offered || tl.Function.Name == "write_note"
	}
	if !offered {
		t.Fatal("the window's turn is not offered write_note")
	}
}
