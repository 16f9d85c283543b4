package chat_test

import (
	"context"
	"encoding/json"
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
