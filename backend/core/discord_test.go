package core

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"playchat/backend/discord"
	"playchat/backend/discord/discordtest"
	"playchat/backend/reminders"
)

// The runner follows the settings: DISCORD_ENABLED with a token connects,
// switching it off disconnects, and a reminder set on Discord that fell due
// while the bot was off goes out — once, mentioning only its requester —
// when the bot is back.
func TestDiscordFollowsTheSettingsAndDeliversRemindersOnceConnected(t *testing.T) {
	fake := discordtest.NewServer(t)
	t.Setenv("PLAYCHAT_DISCORD_API", fake.URL)
	ctx := context.Background()
	c, err := Open(ctx, Options{DataDir: t.TempDir(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	d := c.NewDiscord(DiscordOptions{Version: "test"})
	defer d.Stop()
	states := make(chan discord.Status, 32)
	d.OnStatus(func(s discord.Status) { states <- s })
	waitState := func(want discord.State) discord.Status {
		t.Helper()
		deadline := time.After(60 * time.Second)
		for {
			select {
			case s := <-states:
				if s.State == want {
					return s
				}
			case <-deadline:
				t.Fatalf("never %s (now %+v)", want, d.Status())
			}
		}
	}
	if _, err := c.DB.Bun().ExecContext(ctx, `INSERT INTO reminders (channel_id, user_id, user_name, content, due_at, origin, zone, state)
		VALUES ('4000', '2000', 'alice', '水やり', ?, 'discord', 'UTC', 'pending')`, time.Now().UTC().Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := c.StartReminders(ctx, reminders.RouteNotifier{Desktop: reminders.NewRecordingNotifier(), Discord: d.Notifier()}); err != nil {
		t.Fatal(err)
	}
	defer c.StopReminders()

	cfg := c.Config()
	cfg.DiscordBotToken = fake.Token()
	d.Apply(ctx, cfg) // DISCORD_ENABLED is off by default
	if s := d.Status(); s.State != discord.StateOff {
		t.Fatalf("switched off: %+v", s)
	}
	if rs, _ := c.Reminders.List(ctx, reminders.ListOptions{}); len(rs) != 1 || rs[0].State != reminders.StatePending {
		t.Fatalf("the reminder did not wait for the bot: %+v", rs)
	}

	cfg.DiscordEnabled = true
	d.Apply(ctx, cfg)
	if s := waitState(discord.StateConnected); s.User != discordtest.DefaultBotName {
		t.Fatalf("connected as %q", s.User)
	}
	wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	call, err := fake.WaitCall(wctx, discordtest.MessagePost("4000"))
	if err != nil {
		t.Fatal("the overdue reminder was not posted once the bot connected:", err)
	}
	var body struct {
		Content string `json:"content"`
	}
	if err := call.Decode(&body); err != nil || !strings.Contains(body.Content, "水やり") || !strings.Contains(body.Content, "<@2000>") {
		t.Fatalf("reminder post = %q (%v)", body.Content, err)
	}
	if p := call.Pings(); len(p.Users) != 1 || p.Users[0] != "2000" || p.Everyone || len(p.Roles) > 0 {
		t.Fatalf("the reminder pings %+v, want only its requester", p)
	}

	cfg.DiscordEnabled = false
	d.Apply(ctx, cfg)
	waitState(discord.StateOff)
	if n := len(fake.Calls()); n == 0 {
		t.Fatal("no calls recorded")
	}
	posts := 0
	for _, c := range fake.Calls() {
		if discordtest.MessagePost("4000")(c) {
			posts++
		}
	}
	if posts != 1 {
		t.Fatalf("%d posts to the channel, want the reminder once", posts)
	}
}
