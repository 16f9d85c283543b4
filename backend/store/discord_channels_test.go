package store

import (
	"context"
	"errors"
	"testing"
)

func TestDiscordChannelMapsToOneSessionAndGoesWithIt(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	if _, err := db.DiscordChannelByID(ctx, "42"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown channel: err = %v, want ErrNotFound", err)
	}
	s1, _ := db.CreateSession(ctx, "Discord #general", "")
	if err := db.SetDiscordChannel(ctx, DiscordChannel{ChannelID: "42", SessionID: s1.ID, GuildID: "7", Name: "general"}); err != nil {
		t.Fatal(err)
	}
	c, err := db.DiscordChannelByID(ctx, "42")
	if err != nil || c.SessionID != s1.ID || c.GuildID != "7" || c.Name != "general" || c.CreatedAt.IsZero() {
		t.Fatalf("mapping = %+v, %v", c, err)
	}
	// Re-mapping replaces the session.
	s2, _ := db.CreateSession(ctx, "Discord #general", "")
	if err := db.SetDiscordChannel(ctx, DiscordChannel{ChannelID: "42", SessionID: s2.ID, Name: "general"}); err != nil {
		t.Fatal(err)
	}
	if c, _ := db.DiscordChannelByID(ctx, "42"); c.SessionID != s2.ID {
		t.Fatalf("re-mapped session = %s, want %s", c.SessionID, s2.ID)
	}
	// Deleting the session removes the mapping.
	if err := db.DeleteSession(ctx, s2.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.DiscordChannelByID(ctx, "42"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after the session was deleted: err = %v, want ErrNotFound", err)
	}
}
