package core

import (
	"context"
	"log/slog"
	"regexp"
	"strings"
	"testing"

	"playchat/backend/chat"
	"playchat/backend/event"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
)

// A request states "now" once — in the clock layer's block, last of the
// system text — and the base prompt before it carries no time, so the first
// system message is the same on every turn (a prefix a provider's prompt
// cache can reuse). Also for a chat that switched every other layer off.
func TestARequestStatesTheTimeOnceAndItsBasePromptNever(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.NewServer(t)
	c, err := Open(ctx, Options{DataDir: t.TempDir(), Logger: slog.New(slog.DiscardHandler),
		Environ: []string{"OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=k", "DEFAULT_MODEL=openai/fake-chat"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	turn, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "明日の9時に何がある?"}, event.Discard)
	if err != nil {
		t.Fatal(err)
	}
	turn.Wait()
	turn2, err := c.Chat.Start(ctx, chat.TurnRequest{SessionID: turn.SessionID, Text: "30分後は?"}, event.Discard)
	if err != nil {
		t.Fatal(err)
	}
	turn2.Wait()
	clean, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "今何時?", ChatSettings: &store.ChatSettings{
		LayersOff: []string{store.LayerKnowledge, store.LayerNotes, store.LayerKB, store.LayerMemory}}}, event.Discard)
	if err != nil {
		t.Fatal(err)
	}
	clean.Wait()

	reqs := srv.ChatRequests()
	if len(reqs) != 3 {
		t.Fatalf("chat requests = %d, want 3", len(reqs))
	}
	clock := regexp.MustCompile(`\d{4}-\d{2}-\d{2} \d{2}:\d{2}`)
	for i, r := range reqs {
		var stated []string
		for _, m := range r.Messages {
			if m.Role == "system" && clock.MatchString(m.Content) {
				stated = append(stated, m.Content)
			}
		}
		if len(stated) != 1 || !strings.Contains(stated[0], "It is now") {
			t.Fatalf("request %d states the time in %d system messages, want once (the clock layer): %q", i, len(stated), stated)
		}
		if first := r.Messages[0]; first.Role != "system" || !strings.HasPrefix(first.Content, chat.BasePrompt()) {
			t.Fatalf("request %d begins with %q, want the base prompt", i, first.Content)
		}
		if clock.MatchString(r.Messages[0].Content) && !strings.Contains(r.Messages[0].Content, "It is now") {
			t.Fatalf("request %d: the base prompt carries a time: %q", i, r.Messages[0].Content)
		}
	}
	if reqs[0].Messages[0].Content != reqs[1].Messages[0].Content {
		t.Fatalf("the first system message changed between turns:\n%q\n%q", reqs[0].Messages[0].Content, reqs[1].Messages[0].Content)
	}
}
