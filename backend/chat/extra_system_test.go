package chat_test

import (
	"context"
	"strings"
	"testing"

	"playchat/backend/chat"
	"playchat/backend/llm/llmtest"
)

func TestExtraSystemReachesTheModelForThatTurnOnlyAndIsNotStored(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	ctx := context.Background()
	forecast := "明日の東京: 晴れ 最高 20℃"

	tr, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "明日は洗濯できる？", ExtraSystem: []string{forecast, "  "}}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if res := tr.Wait(); res.Err != nil {
		t.Fatal(res.Err)
	}
	first := srv.ChatRequests()[0].Messages
	if first[0].Role != "system" || !strings.HasSuffix(first[0].Content, "\n\n"+forecast) {
		t.Fatalf("first system message = %q, want it to end with the forecast", first[0].Content)
	}

	// The next turn of the same session does not carry it, and the store never had it.
	turn(t, c, tr.SessionID, "ありがとう")
	reqs := srv.ChatRequests()
	for _, m := range reqs[len(reqs)-1].Messages {
		if strings.Contains(m.Content, forecast) {
			t.Fatalf("the second turn still sends the forecast: %q", m.Content)
		}
	}
	msgs, _ := c.DB.SessionMessages(ctx, tr.SessionID)
	for _, m := range msgs {
		if strings.Contains(m.Content, forecast) {
			t.Fatalf("the forecast was stored: %+v", m)
		}
	}
}
