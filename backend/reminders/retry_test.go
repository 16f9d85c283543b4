package reminders

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"
)

// armedAt is when the scheduler's job for id fires, and whether one is armed.
func (s *Scheduler) armedAt(id int64) (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.armed[id]
	return a.at, ok
}

// gate returns ErrNotReady until open, then hands notifications to rec.
type gate struct {
	mu    sync.Mutex
	open  bool
	tries int
	rec   *RecordingNotifier
}

func (g *gate) Notify(ctx context.Context, n Notification) error {
	g.mu.Lock()
	g.tries++
	open := g.open
	g.mu.Unlock()
	if !open {
		return fmt.Errorf("bot: %w", ErrNotReady)
	}
	return g.rec.Notify(ctx, n)
}

func (g *gate) setOpen() { g.mu.Lock(); g.open = true; g.mu.Unlock() }
func (g *gate) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.tries
}

func newDiscordReminder(t *testing.T, svc *Service, due, repeat string) Reminder {
	t.Helper()
	r, err := svc.Create(context.Background(), NewReminder{Content: "会議", Due: due, Repeat: repeat, Origin: OriginDiscord,
		ChannelID: "chan-1", UserID: "111", UserName: "hana"})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestAFailingDiscordDeliveryIsTriedFiveTimesWithBackoffThenFailsWithTheReason(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	r := newDiscordReminder(t, svc, "2026-12-01T09:00:05", "")
	rec := NewRecordingNotifier()
	rec.Err = errors.New("discord: 404 Unknown Channel")
	s := startScheduler(t, svc, rec)
	waitFor(t, "the reminder to be armed", func() bool { _, ok := s.armedDue(r.ID); return ok })
	if err := clock.BlockUntilContext(ctx, 2); err != nil {
		t.Fatal(err)
	}
	clock.Advance(5 * time.Second)
	waitNotification(t, rec) // attempt 1 at its due time
	next := r.DueAt
	for attempt := 1; attempt < MaxAttempts; attempt++ {
		next = next.Add(RetryBackoff << (attempt - 1)) // 1, 2, 4, 8 minutes
		waitFor(t, fmt.Sprintf("retry %d to be armed at %s", attempt, next), func() bool {
			at, ok := s.armedAt(r.ID)
			got, _ := svc.Get(ctx, r.ID)
			return ok && at.Equal(next) && got.Attempts == attempt
		})
		got, _ := svc.Get(ctx, r.ID)
		if got.State != StatePending || got.Attempts != attempt || got.Error != "discord: 404 Unknown Channel" || !got.DueAt.Equal(r.DueAt) {
			t.Fatalf("after attempt %d: %+v", attempt, got)
		}
		// A second short of the retry time nothing fires, even when a stray
		// job or the missed-timer catch-up asks.
		clock.Advance(next.Sub(clock.Now()) - time.Second)
		s.fire(ctx, r.ID, r.DueAt, false)
		if n := len(rec.Got()); n != attempt {
			t.Fatalf("%d deliveries before retry %d was due, want %d", n, attempt, attempt)
		}
		clock.Advance(time.Second)
		waitNotification(t, rec)
	}
	waitFor(t, "the reminder to fail", func() bool {
		got, _ := svc.Get(ctx, r.ID)
		return got.State == StateFailed
	})
	got, _ := svc.Get(ctx, r.ID)
	if got.Error != "discord: 404 Unknown Channel" || got.Attempts != MaxAttempts {
		t.Errorf("failed reminder %+v", got)
	}
	waitFor(t, "its job to be dropped", func() bool { _, ok := s.armedDue(r.ID); return !ok })
	clock.Advance(time.Hour)
	s.Kick()
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if n := len(rec.Got()); n != MaxAttempts {
		t.Errorf("Notify called %d times, want %d", n, MaxAttempts)
	}
}

func TestTheAttemptCountSurvivesARestart(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	r := newDiscordReminder(t, svc, "2026-12-01T09:00:05", "")
	for i := 0; i < MaxAttempts-1; i++ { // four failures before the app was closed
		if _, err := svc.MarkRetry(ctx, r.ID, r.DueAt, errors.New("discord: 503")); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(time.Hour)
	rec := NewRecordingNotifier()
	rec.Err = errors.New("discord: 404 Unknown Channel")
	startScheduler(t, svc, rec) // Start tries it once more: the fifth attempt
	got, _ := svc.Get(ctx, r.ID)
	if len(rec.Got()) != 1 || got.State != StateFailed || got.Attempts != MaxAttempts || got.Error != "discord: 404 Unknown Channel" {
		t.Errorf("after restart: %d notifications, %+v", len(rec.Got()), got)
	}
}

func TestARepeatingDiscordReminderThatKeepsFailingMovesToItsNextOccurrence(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	r := newDiscordReminder(t, svc, "2026-12-01T09:00:05", "FREQ=DAILY")
	for i := 0; i < MaxAttempts-1; i++ {
		if _, err := svc.MarkRetry(ctx, r.ID, r.DueAt, errors.New("discord: 503")); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(time.Minute)
	rec := NewRecordingNotifier()
	rec.Err = errors.New("discord: 404 Unknown Channel")
	startScheduler(t, svc, rec)
	got, _ := svc.Get(ctx, r.ID)
	if got.State != StatePending || !got.DueAt.Equal(r.DueAt.Add(24*time.Hour)) || got.Attempts != 0 ||
		got.Error != "discord: 404 Unknown Channel" {
		t.Errorf("after the fifth failure: %+v", got)
	}
}

func TestAFailingDesktopDeliveryStillFailsAtOnce(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	r, _ := svc.Create(ctx, NewReminder{Content: "x", Due: "2026-12-01T09:00:05"})
	clock.Advance(time.Minute)
	rec := NewRecordingNotifier()
	rec.Err = errors.New("no window, no notification service")
	s := startScheduler(t, svc, RouteNotifier{Desktop: rec})
	got, _ := svc.Get(ctx, r.ID)
	if len(rec.Got()) != 1 || got.State != StateFailed || got.Error != "no window, no notification service" || got.Attempts != 1 {
		t.Errorf("desktop failure: %d notifications, %+v", len(rec.Got()), got)
	}
	if _, ok := s.armedDue(r.ID); ok {
		t.Error("a failed desktop reminder stays armed")
	}
}

func TestADiscordReminderDueWhileTheBotWasDownIsDeliveredOnceAfterKick(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	r := newDiscordReminder(t, svc, "2026-12-01T09:00:05", "")
	desk := NewRecordingNotifier()
	d, _ := svc.Create(ctx, NewReminder{Content: "desk", Due: "2026-12-01T09:00:06"})
	clock.Advance(time.Hour) // both fell due while the app was closed
	g := &gate{rec: NewRecordingNotifier()}
	var slot NotifierSlot
	s, err := NewScheduler(SchedulerOptions{Service: svc, Notifier: RouteNotifier{Desktop: desk, Discord: &slot},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	catchUp(t, s)
	// The desktop reminder is delivered as before; the Discord one waits.
	if got, _ := svc.Get(ctx, d.ID); got.State != StateDelivered || !got.Late || len(desk.Got()) != 1 {
		t.Errorf("desktop reminder %+v (%d notifications)", got, len(desk.Got()))
	}
	retry := clock.Now().Add(NotReadyRetry)
	waitFor(t, "the Discord reminder to be put off a minute", func() bool {
		at, ok := s.armedAt(r.ID)
		return ok && at.Equal(retry)
	})
	got, _ := svc.Get(ctx, r.ID)
	if got.State != StatePending || got.Attempts != 0 || got.Error != "" || got.NotifiedAt != nil {
		t.Fatalf("a not-ready delivery changed the reminder: %+v", got)
	}
	// Put off: asking again before the minute is up does not call the notifier.
	slot.Set(g)
	s.fire(ctx, r.ID, r.DueAt, false)
	clock.Advance(NotReadyRetry / 2)
	s.fire(ctx, r.ID, r.DueAt, false)
	if n := g.count(); n != 0 {
		t.Fatalf("the notifier was asked %d times while put off", n)
	}
	// The bot becomes ready: OnReady → Kick delivers it at once, once.
	g.setOpen()
	s.Kick()
	n := waitNotification(t, g.rec)
	if n.Reminder.ID != r.ID || !n.Late || n.Reminder.ChannelID != "chan-1" || n.Reminder.UserID != "111" {
		t.Errorf("delivered %+v", n)
	}
	waitFor(t, "the delivery to be stored", func() bool {
		got, _ := svc.Get(ctx, r.ID)
		return got.State == StateDelivered
	})
	s.Kick()
	clock.Advance(2 * NotReadyRetry)
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if n := len(g.rec.Got()); n != 1 {
		t.Errorf("delivered %d times, want once", n)
	}
	if got, _ := svc.Get(ctx, r.ID); got.Attempts != 0 || got.Error != "" {
		t.Errorf("delivered reminder %+v", got)
	}
}

func TestANotReadyReminderIsTriedAgainAfterAMinuteWithoutKick(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	r := newDiscordReminder(t, svc, "2026-12-01T09:00:05", "")
	clock.Advance(time.Hour)
	g := &gate{rec: NewRecordingNotifier()}
	s := startScheduler(t, svc, g)
	if n := g.count(); n != 1 {
		t.Fatalf("Start asked %d times, want 1", n)
	}
	retry := clock.Now().Add(NotReadyRetry)
	waitFor(t, "the retry to be armed", func() bool { at, ok := s.armedAt(r.ID); return ok && at.Equal(retry) })
	g.setOpen()
	clock.Advance(NotReadyRetry)
	waitNotification(t, g.rec)
	waitFor(t, "the delivery to be stored", func() bool {
		got, _ := svc.Get(ctx, r.ID)
		return got.State == StateDelivered
	})
	if n := g.count(); n != 2 {
		t.Errorf("notifier asked %d times, want 2", n)
	}
}

func TestRouteNotifierSendsEachOriginToItsNotifier(t *testing.T) {
	desk, disc := NewRecordingNotifier(), NewRecordingNotifier()
	rt := RouteNotifier{Desktop: desk, Discord: disc}
	ctx := context.Background()
	for _, o := range []string{OriginDesktop, OriginDiscord, ""} {
		if err := rt.Notify(ctx, Notification{Reminder: Reminder{Origin: o, Content: o}}); err != nil {
			t.Fatal(err)
		}
	}
	if len(desk.Got()) != 2 || len(disc.Got()) != 1 || disc.Got()[0].Reminder.Origin != OriginDiscord {
		t.Errorf("desktop got %v, discord got %v", desk.Got(), disc.Got())
	}
	if err := (RouteNotifier{Desktop: desk}).Notify(ctx, Notification{Reminder: Reminder{Origin: OriginDiscord}}); !errors.Is(err, ErrNotReady) {
		t.Errorf("no Discord notifier: %v", err)
	}
	if err := (RouteNotifier{Discord: disc}).Notify(ctx, Notification{Reminder: Reminder{Origin: OriginDesktop}}); !errors.Is(err, ErrNotReady) {
		t.Errorf("no desktop notifier: %v", err)
	}
	var slot NotifierSlot
	if err := slot.Notify(ctx, Notification{}); !errors.Is(err, ErrNotReady) {
		t.Errorf("empty slot: %v", err)
	}
	slot.Set(disc)
	if err := slot.Notify(ctx, Notification{Reminder: Reminder{Content: "via slot"}}); err != nil || len(disc.Got()) != 2 {
		t.Errorf("set slot: %v, %v", err, disc.Got())
	}
}

func TestDeliverySnoozeAndEditResetTheAttemptCount(t *testing.T) {
	svc, _ := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	fail := errors.New("discord: 503")
	a := newDiscordReminder(t, svc, "2026-12-01T09:00:05", "")
	svc.MarkRetry(ctx, a.ID, a.DueAt, fail)
	if got, _ := svc.MarkDelivered(ctx, a.ID, a.DueAt, false); got.Attempts != 0 || got.Error != "" {
		t.Errorf("delivered %+v", got)
	}
	b := newDiscordReminder(t, svc, "2026-12-01T09:00:05", "")
	svc.MarkRetry(ctx, b.ID, b.DueAt, fail)
	if got, _ := svc.Snooze(ctx, b.ID, time.Minute); got.Attempts != 0 {
		t.Errorf("snoozed %+v", got)
	}
	c := newDiscordReminder(t, svc, "2026-12-01T09:00:05", "")
	svc.MarkRetry(ctx, c.ID, c.DueAt, fail)
	if got, _ := svc.Edit(ctx, c.ID, EditReminder{Content: "y", Due: "2026-12-01T10:00"}); got.Attempts != 0 || got.Error != "" {
		t.Errorf("edited %+v", got)
	}
	if got, err := svc.MarkRetry(ctx, c.ID, a.DueAt, fail); err == nil {
		t.Errorf("MarkRetry of a rescheduled reminder = %+v", got)
	}
}
