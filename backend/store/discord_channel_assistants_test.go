package store

import (
	"context"
	"testing"
)

func TestAChannelsAssistantOutlivesItsChatAndGoesWithTheAssistant(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	a := Assistant{Name: "Teacher"}
	if err := db.InsertAssistant(ctx, &a); err != nil {
		t.Fatal(err)
	}
	if id, err := db.ChannelAssistant(ctx, "42"); err != nil || id != 0 {
		t.Fatalf("no choice yet: %d, %v", id, err)
	}
	s, _ := db.CreateSession(ctx, "Discord #general", "")
	if err := db.SetDiscordChannel(ctx, DiscordChannel{ChannelID: "42", SessionID: s.ID, GuildID: "7", Name: "general"}); err != nil {
		t.Fatal(err)
	}
	for _, ch := range []string{"42", "99"} { // 99: not answered yet
		if err := db.SetChannelAssistant(ctx, ch, a.ID); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.SetChannelAssistant(ctx, "5", 12345); err == nil {
		t.Fatal("an unknown assistant was accepted")
	}
	rows, err := db.DiscordChannelRows(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0] != (DiscordChannelRow{ChannelID: "42", Name: "general", GuildID: "7", SessionID: s.ID, AssistantID: a.ID}) ||
		rows[1] != (DiscordChannelRow{ChannelID: "99", AssistantID: a.ID}) {
		t.Fatalf("rows = %+v", rows)
	}
	// Deleting the chat keeps the choice; deleting the assistant ends it.
	if err := db.DeleteSession(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if id, _ := db.ChannelAssistant(ctx, "42"); id != a.ID {
		t.Fatalf("after the chat was deleted: %d", id)
	}
	if err := db.SetChannelAssistant(ctx, "99", 0); err != nil {
		t.Fatal(err)
	}
	if id, _ := db.ChannelAssistant(ctx, "99"); id != 0 {
		t.Fatalf("after removing the choice: %d", id)
	}
	if err := db.DeleteAssistant(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if rows, _ := db.DiscordChannelRows(ctx); len(rows) != 0 {
		t.Fatalf("after the assistant was deleted: %+v", rows)
	}
}
