package reminders

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"
)

// waitFor waits (in real time, generously) until cond holds; the fake clock
// decides when things are due, this only waits for goroutines to catch up.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func startScheduler(t *testing.T, svc *Service, n Notifier) *Scheduler {
	t.Helper()
	s, err := NewScheduler(SchedulerOptions{Service: svc, Notifier: n, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Stop() })
	catchUp(t, s)
	return s
}

// catchUp waits until s has delivered the reminders overdue at Start.
func catchUp(t *testing.T, s *Scheduler) {
	t.Helper()
	select {
	case <-s.CaughtUp():
	case <-time.After(10 * time.Second):
		t.Fatal("the scheduler did not catch up with the overdue reminders")
	}
}

func (s *Scheduler) armedDue(id int64) (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.armed[id]
	return a.due, ok
}

func TestSchedulerFiresTheDueReminderOnceAtItsTime(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:59:50Z") // 09:59:50 JST
	ctx := context.Background()
	r, err := svc.Create(ctx, NewReminder{Content: "燃えるゴミ", Due: "2026-12-01T10:00:00"})
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecordingNotifier()
	s := startScheduler(t, svc, rec)
	waitFor(t, "the reminder to be armed", func() bool { _, ok := s.armedDue(r.ID); return ok })
	// Two timers: the rescan job and the reminder's one-time job.
	if err := clock.BlockUntilContext(ctx, 2); err != nil {
		t.Fatal(err)
	}
	clock.Advance(9 * time.Second)
	if len(rec.Got()) != 0 {
		t.Fatalf("fired 1 s early: %v", rec.Got())
	}
	clock.Advance(time.Second)
	select {
	case n := <-rec.C:
		if n.Reminder.ID != r.ID || n.Late || n.Reminder.Content != "燃えるゴミ" {
			t.Errorf("notification %+v", n)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the due reminder did not fire")
	}
	waitFor(t, "the delivery to be stored", func() bool {
		got, _ := svc.Get(ctx, r.ID)
		return got.State == StateDelivered
	})
	// Later rescans (and any missed-timer catch-up) do not fire it again.
	for i := 0; i < 3; i++ {
		clock.Advance(DefaultRescanEvery)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if got := rec.Got(); len(got) != 1 {
		t.Errorf("fired %d times, want once: %v", len(got), got)
	}
}

func TestSchedulerRearmsARepeatingReminderAtItsNextLocalTime(t *testing.T) {
	// 20:59:59 CEST on the day before the October change; daily 21:00.
	svc, clock := newTestService(t, "Europe/Berlin", "2026-10-24T18:59:59Z")
	ctx := context.Background()
	r, err := svc.Create(ctx, NewReminder{Content: "x", Due: "2026-10-24T21:00", Repeat: "FREQ=DAILY"})
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecordingNotifier()
	s := startScheduler(t, svc, rec)
	waitFor(t, "the reminder to be armed", func() bool { _, ok := s.armedDue(r.ID); return ok })
	if err := clock.BlockUntilContext(ctx, 2); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	waitNotification(t, rec)
	// After the change 21:00 CET is 20:00Z.
	next := utc("2026-10-25T20:00:00Z")
	waitFor(t, "the next occurrence to be armed", func() bool { d, ok := s.armedDue(r.ID); return ok && d.Equal(next) })
	got, _ := svc.Get(ctx, r.ID)
	if got.State != StatePending || !got.DueAt.Equal(next) {
		t.Errorf("after the first firing %+v", got)
	}
}

func TestSchedulerArmsAReminderAddedByAnotherProcessOnRescan(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	rec := NewRecordingNotifier()
	s := startScheduler(t, svc, rec)
	if err := clock.BlockUntilContext(ctx, 1); err != nil { // the rescan job
		t.Fatal(err)
	}
	// Another process (the CLI): same database, its own service, no OnChange.
	other := New(Options{DB: svc.db, Clock: clock, Zone: svc.zone})
	r, err := other.Create(ctx, NewReminder{Content: "from the CLI", Due: "2026-12-01T09:00:10"})
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(DefaultRescanEvery)
	waitFor(t, "the rescan to arm it", func() bool { _, ok := s.armedDue(r.ID); return ok })
	// It is cancelled by the other process: the next rescan drops its job.
	if _, err := other.Cancel(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	clock.Advance(DefaultRescanEvery)
	waitFor(t, "the rescan to drop it", func() bool { _, ok := s.armedDue(r.ID); return !ok })
	clock.Advance(10 * time.Second)
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if got := rec.Got(); len(got) != 0 {
		t.Errorf("a cancelled reminder fired: %v", got)
	}
}

func TestStartDeliversRemindersThatFellDueWhileClosedMarkedLate(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	a, _ := svc.Create(ctx, NewReminder{Content: "a", Due: "2026-12-01T09:30"})
	b, _ := svc.Create(ctx, NewReminder{Content: "b", Due: "2026-12-01T09:40"})
	clock.Advance(2 * time.Hour) // the app was closed
	rec := NewRecordingNotifier()
	rec.Err = errors.New("no notification service")
	s, err := NewScheduler(SchedulerOptions{Service: svc, Notifier: &firstOK{rec: rec}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	catchUp(t, s)
	got := rec.Got()
	if len(got) != 2 || !got[0].Late || !got[1].Late || got[0].Reminder.ID != a.ID {
		t.Fatalf("at start got %+v", got)
	}
	ra, _ := svc.Get(ctx, a.ID)
	rb, _ := svc.Get(ctx, b.ID)
	if ra.State != StateDelivered || !ra.Late {
		t.Errorf("a = %+v", ra)
	}
	if rb.State != StateFailed || rb.Error != "no notification service" {
		t.Errorf("b = %+v", rb)
	}
}

// firstOK delivers the first notification and fails the others with rec.Err.
type firstOK struct {
	rec *RecordingNotifier
	n   int
}

func (f *firstOK) Notify(ctx context.Context, n Notification) error {
	err := f.rec.Notify(ctx, n)
	f.n++
	if f.n == 1 {
		return nil
	}
	return err
}

func TestARescanFiresAReminderWhoseTimerMissedAClockJump(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	r, err := svc.Create(ctx, NewReminder{Content: "x", Due: "2026-12-01T09:00:10"})
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecordingNotifier()
	s, err := NewScheduler(SchedulerOptions{Service: svc, Notifier: rec, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	// Armed, but its timer never ran (the machine slept; the wall clock
	// moved on without the monotonic one).
	s.armed[r.ID] = armedJob{due: r.DueAt}
	clock.Advance(10*time.Second + missedAfter)
	s.fireMissed(ctx, clock.Now())
	if len(rec.Got()) != 0 {
		t.Fatalf("fired only %v past due: %v", missedAfter, rec.Got())
	}
	clock.Advance(time.Second)
	s.fireMissed(ctx, clock.Now())
	if got := rec.Got(); len(got) != 1 || got[0].Late {
		t.Fatalf("after the jump got %+v", got)
	}
	if got, _ := svc.Get(ctx, r.ID); got.State != StateDelivered {
		t.Errorf("state = %s", got.State)
	}
}

func TestAFiredReminderLeavesNoJobBehind(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	r, _ := svc.Create(ctx, NewReminder{Content: "x", Due: "2026-12-01T09:00:01"})
	rec := NewRecordingNotifier()
	s := startScheduler(t, svc, rec)
	waitFor(t, "the reminder to be armed", func() bool { _, ok := s.armedDue(r.ID); return ok })
	if err := clock.BlockUntilContext(ctx, 2); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	waitNotification(t, rec)
	waitFor(t, "the job to be dropped", func() bool {
		_, armed := s.armedDue(r.ID)
		return !armed && len(s.cron.Jobs()) == 1 // only the rescan job
	})
}

// waitNotification waits (in real time, generously) for the next notification.
func waitNotification(t *testing.T, rec *RecordingNotifier) Notification {
	t.Helper()
	select {
	case n := <-rec.C:
		return n
	case <-time.After(30 * time.Second):
		t.Fatal("no notification")
		return Notification{}
	}
}

// blockingNotifier blocks every Notify until release is closed, like a
// window that is still starting up.
type blockingNotifier struct {
	entered chan struct{}
	release chan struct{}
}

func (b *blockingNotifier) Notify(ctx context.Context, _ Notification) error {
	select {
	case b.entered <- struct{}{}:
	default:
	}
	select {
	case <-b.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Issue 21: a start with an overdue reminder froze the app, because Start
// delivered it synchronously through a notifier that waited on the window
// being started. Start must return while the notifier still blocks, and
// the reminder is delivered once the notifier answers.
func TestStartNeverWaitsOnTheNotifierForOverdueReminders(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	once, _ := svc.Create(ctx, NewReminder{Content: "once", Due: "2026-12-01T09:30"})
	daily, _ := svc.Create(ctx, NewReminder{Content: "daily", Due: "2026-12-01T09:40", Repeat: "FREQ=DAILY"})
	clock.Advance(2 * time.Hour) // the app was closed
	n := &blockingNotifier{entered: make(chan struct{}, 1), release: make(chan struct{})}
	s, err := NewScheduler(SchedulerOptions{Service: svc, Notifier: n, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	returned := make(chan error, 1)
	go func() { returned <- s.Start(ctx) }()
	select {
	case err := <-returned:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		close(n.release)
		t.Fatal("Start waited on a notifier that blocks")
	}
	defer s.Stop()
	select {
	case <-n.entered: // the overdue delivery is under way, in the background
	case <-time.After(10 * time.Second):
		t.Fatal("the overdue reminder was never offered to the notifier")
	}
	close(n.release)
	catchUp(t, s)
	if r, _ := svc.Get(ctx, once.ID); r.State != StateDelivered || !r.Late {
		t.Errorf("one-time reminder after start = %+v, want delivered late", r)
	}
	r, _ := svc.Get(ctx, daily.ID)
	if r.State != StatePending || !r.DueAt.After(clock.Now()) {
		t.Errorf("daily reminder after start = %+v, want pending at its next occurrence", r)
	}
}

// Stop while an overdue delivery still blocks ends it (its context is
// cancelled) instead of hanging the shutdown.
func TestStopEndsABlockedOverdueDelivery(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	if _, err := svc.Create(ctx, NewReminder{Content: "once", Due: "2026-12-01T09:30"}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(2 * time.Hour)
	n := &blockingNotifier{entered: make(chan struct{}, 1), release: make(chan struct{})}
	s, err := NewScheduler(SchedulerOptions{Service: svc, Notifier: n, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	<-n.entered
	stopped := make(chan struct{})
	go func() { _ = s.Stop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("Stop hung on a blocked delivery")
	}
}

// Issue 22: a reminder added from the terminal did not show in an open
// Reminders panel or the tray menu until they were reopened. The periodic
// rescan that finds another process's change tells the service's
// listeners, as a change in this process does.
func TestAReminderAddedByAnotherProcessReachesTheListeners(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	// Another process: its own service on the same database.
	other := New(Options{DB: svc.db, Clock: clock, Zone: svc.zone})
	changes := make(chan struct{}, 16)
	s := startScheduler(t, svc, NewRecordingNotifier())
	svc.OnChange(func() { changes <- struct{}{} })
	if _, err := other.Create(ctx, NewReminder{Content: "from the CLI", Due: "2026-12-01T12:00"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changes:
		t.Fatal("told of a change before any rescan")
	default:
	}
	deadline := time.After(30 * time.Second)
	for {
		clock.Advance(DefaultRescanEvery)
		select {
		case <-changes:
			if _, ok := s.armedDue(1); !ok {
				t.Fatal("told of the change, but the reminder is not armed")
			}
			return
		case <-deadline:
			t.Fatal("the listeners never heard of the other process's reminder")
		case <-time.After(50 * time.Millisecond):
		}
	}
}
