package reminders

import (
	"context"
	"path/filepath"
	"testing"

	"playchat/backend/store"
)

func TestMigrationKeepsSeedRemindersAsDiscordOnesWithTheirState(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := store.OpenUnmigrated(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.MigrateTo(ctx, store.MigrationSummaryBackoff); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`INSERT INTO reminders (channel_id, user_id, user_name, content, due_at) VALUES ('c', 'u', 'n', 'waiting', '2026-12-01 00:00:00+00:00')`,
		`INSERT INTO reminders (channel_id, user_id, content, due_at, notified_at) VALUES ('c', 'u', 'sent', '2026-11-01 00:00:00+00:00', '2026-11-01 00:00:01+00:00')`,
		`INSERT INTO reminders (channel_id, user_id, content, due_at, cancelled_at) VALUES ('c', 'u', 'dropped', '2026-11-02 00:00:00+00:00', '2026-11-01 00:00:00+00:00')`,
	} {
		if _, err := db.Bun().ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := New(Options{DB: db})
	rs, err := svc.List(ctx, ListOptions{All: true})
	if err != nil || len(rs) != 3 {
		t.Fatalf("list = %v, %v", rs, err)
	}
	want := map[string]State{"waiting": StatePending, "sent": StateDelivered, "dropped": StateCancelled}
	for _, r := range rs {
		if r.State != want[r.Content] || r.Origin != OriginDiscord || r.ChannelID != "c" || r.RRule != "" {
			t.Errorf("migrated %q: %+v", r.Content, r)
		}
	}
}
