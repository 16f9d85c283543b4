package core

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"playchat/backend/reminders"
	"playchat/backend/tools"
)

func TestCoreOffersReminderToolsAndStartRemindersDeliversOverdueOnesLate(t *testing.T) {
	ctx := context.Background()
	c, err := Open(ctx, Options{DataDir: t.TempDir(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, name := range []string{reminders.CreateReminderTool, reminders.ListRemindersTool, reminders.CancelReminderTool} {
		if _, ok := c.Tools.Get(name); !ok {
			t.Errorf("tool %s is not registered", name)
		}
	}
	// A reminder that fell due an hour ago, while playchat was closed.
	if _, err := c.DB.Bun().ExecContext(ctx, `INSERT INTO reminders (channel_id, user_id, content, due_at, origin, zone, state)
		VALUES ('', '', 'overdue', ?, 'desktop', 'UTC', 'pending')`, time.Now().UTC().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	rec := reminders.NewRecordingNotifier()
	if err := c.StartReminders(ctx, rec); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.RemindersCaughtUp():
	case <-time.After(10 * time.Second):
		t.Fatal("the overdue reminder was not delivered")
	}
	c.StopReminders()
	got := rec.Got()
	if len(got) != 1 || got[0].Reminder.Content != "overdue" || !got[0].Late {
		t.Fatalf("delivered at start: %+v", got)
	}
	// The tool sees it delivered: nothing is pending.
	tl, _ := c.Tools.Get(reminders.ListRemindersTool)
	res, err := tl.Run(ctx, tools.Call{Args: []byte(`{}`)})
	if err != nil || res.Content != "No pending reminders." {
		t.Errorf("list_reminders = %q, %v", res.Content, err)
	}
}
