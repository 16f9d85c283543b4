package core

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"playchat/backend/reminders"
)

func TestKickRemindersDeliversADiscordReminderOnceItsNotifierIsSet(t *testing.T) {
	ctx := context.Background()
	c, err := Open(ctx, Options{DataDir: t.TempDir(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.KickReminders() // before StartReminders: nothing to kick, no panic
	if _, err := c.DB.Bun().ExecContext(ctx, `INSERT INTO reminders (channel_id, user_id, user_name, content, due_at, origin, zone, state)
		VALUES ('chan-1', '111', 'hana', 'overdue', ?, 'discord', 'UTC', 'pending')`, time.Now().UTC().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	var bot reminders.NotifierSlot // the bot is not there yet
	if err := c.StartReminders(ctx, reminders.RouteNotifier{Desktop: reminders.NewRecordingNotifier(), Discord: &bot}); err != nil {
		t.Fatal(err)
	}
	defer c.StopReminders()
	if rs, _ := c.Reminders.List(ctx, reminders.ListOptions{}); len(rs) != 1 || rs[0].Attempts != 0 {
		t.Fatalf("while the bot is down: %+v", rs)
	}
	rec := reminders.NewRecordingNotifier()
	bot.Set(rec)
	c.KickReminders()
	select {
	case n := <-rec.C:
		if n.Reminder.Content != "overdue" || n.Reminder.ChannelID != "chan-1" {
			t.Errorf("delivered %+v", n)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Kick did not deliver the reminder")
	}
}
