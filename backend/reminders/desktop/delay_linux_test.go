//go:build linux

package desktop

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"playchat/backend/reminders"
	fakedbus "playchat/backend/reminders/desktop/desktoptest"
	"playchat/backend/store"
)

// BenchmarkFiringDelay measures, on the real clock, how long after its due
// time a reminder's Notify call reaches a notification server on a private
// bus (scheduler + D-Bus round trip). Each iteration waits for one reminder
// due 1–2 s ahead, so run it with a small -benchtime (e.g. 5x). Metrics:
// ms-late (mean) and ms-late-max.
func BenchmarkFiringDelay(b *testing.B) {
	bus, err := fakedbus.StartBus(wait)
	if err != nil {
		b.Skip(err)
	}
	defer bus.Close()
	srv, err := fakedbus.Serve(bus.Address, []string{"body", "actions"})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	svc := reminders.New(reminders.Options{DB: db, Zone: time.UTC})
	d := NewOnBus(Options{Service: svc, Log: quiet}, bus.Connect)
	defer d.Close()
	s, err := reminders.NewScheduler(reminders.SchedulerOptions{Service: svc, Notifier: d, Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		b.Fatal(err)
	}
	defer s.Stop()
	var total, worst time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		due := time.Now().UTC().Truncate(time.Second).Add(2 * time.Second)
		if _, err := svc.Create(ctx, reminders.NewReminder{Content: "bench", Due: due.Format("2006-01-02T15:04:05")}); err != nil {
			b.Fatal(err)
		}
		call, err := srv.WaitCall(ctx, wait)
		if err != nil {
			b.Fatal(err)
		}
		late := call.At.Sub(due)
		total += late
		worst = max(worst, late)
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-late")
	b.ReportMetric(float64(worst.Milliseconds()), "ms-late-max")
}
