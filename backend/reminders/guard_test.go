package reminders

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"playchat/backend/guard"
)

// panicOnce panics in its first Notify (a bug in a notifier), then records.
type panicOnce struct {
	mu    sync.Mutex
	calls int
	rec   *RecordingNotifier
}

func (p *panicOnce) Notify(ctx context.Context, n Notification) error {
	p.mu.Lock()
	p.calls++
	first := p.calls == 1
	p.mu.Unlock()
	if first {
		panic("notifier bug")
	}
	return p.rec.Notify(ctx, n)
}

func TestAPanickingDeliveryIsRecoveredReportedOnceAndTheReminderFiresLater(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	a, _ := svc.Create(ctx, NewReminder{Content: "a", Due: "2026-12-01T09:30"})
	b, _ := svc.Create(ctx, NewReminder{Content: "b", Due: "2026-12-01T09:40"})
	clock.Advance(2 * time.Hour) // both fell due while the app was closed
	var mu sync.Mutex
	var reported []string
	g := guard.New(slog.New(slog.NewTextHandler(io.Discard, nil)), func(job string, _ any) {
		mu.Lock()
		reported = append(reported, job)
		mu.Unlock()
	})
	n := &panicOnce{rec: NewRecordingNotifier()}
	s, err := NewScheduler(SchedulerOptions{Service: svc, Notifier: n, Guard: g,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	// Start delivers the overdue reminders: a's delivery panics, b's goes on.
	if err := s.Start(ctx); err != nil {
		t.Fatalf("Start after a panicking delivery: %v", err)
	}
	catchUp(t, s)
	if rb, _ := svc.Get(ctx, b.ID); rb.State != StateDelivered {
		t.Errorf("b after a's panic = %s, want delivered", rb.State)
	}
	// a stayed due, so the scheduler (still running) delivers it once armed.
	waitFor(t, "a delivered after the panic", func() bool {
		ra, _ := svc.Get(ctx, a.ID)
		return ra.State == StateDelivered
	})
	if err := s.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reported) != 1 || reported[0] != "reminders.fire" || g.Panics("reminders.fire") != 1 {
		t.Fatalf("reported %v (%d panics), want reminders.fire once", reported, g.Panics("reminders.fire"))
	}
}
