package core

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"playchat/backend/chat"
	"playchat/backend/event"
	"playchat/backend/llm/llmtest"
	"playchat/backend/tagging"
)

// With the tagger started (the window does it), a turn's question and reply
// get their tags after done, with SUMMARY_MODEL; with AUTO_TAGS off
// nothing is asked.
func TestCoreTagsTurnsAfterDoneAndAutoTagsSwitchesItOff(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.NewServer(t)
	c, err := Open(ctx, Options{DataDir: t.TempDir(), Logger: slog.New(slog.DiscardHandler),
		Environ: []string{"OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=k", "DEFAULT_MODEL=openai/fake-chat",
			"SUMMARY_MODEL=openai/fake-summary"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got := make(chan tagging.Update, 10)
	c.Tags.OnTags(func(u tagging.Update) { got <- u })
	c.Tags.Start(ctx)
	turn, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "京都で紅葉を見たい"}, event.Discard)
	if err != nil {
		t.Fatal(err)
	}
	res := turn.Wait()
	for range 2 {
		select {
		case <-got:
		case <-time.After(60 * time.Second):
			t.Fatal("the turn's messages were not tagged")
		}
	}
	tags, _ := c.DB.MessageTags(ctx, []int64{turn.UserMessage.ID, res.Reply.ID})
	if len(tags[turn.UserMessage.ID]) != 3 || len(tags[res.Reply.ID]) != 3 {
		t.Fatalf("tags = %v, want 3 on the question and 3 on the reply", tags)
	}
	if r := srv.TagRequests(); len(r) != 2 || r[0].Model != "fake-summary" {
		t.Fatalf("tag requests = %d (model %q), want 2 with SUMMARY_MODEL", len(r), r[0].Model)
	}

	if err := c.SaveSettings(ctx, map[string]string{"AUTO_TAGS": "false"}, nil); err != nil {
		t.Fatal(err)
	}
	turn, err = c.Chat.Start(ctx, chat.TurnRequest{SessionID: turn.SessionID, Text: "大阪もいいね"}, event.Discard)
	if err != nil {
		t.Fatal(err)
	}
	turn.Wait()
	for deadline := time.Now().Add(60 * time.Second); c.Tags.Pending() > 0; time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the tagger did not take the second turn's messages")
		}
	}
	c.Tags.Stop() // waits for the item being handled
	if n := len(srv.TagRequests()); n != 2 {
		t.Fatalf("tag requests with AUTO_TAGS off = %d, want still 2", n)
	}
}
