package reminders

import (
	"context"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

func TestPauseLastsItsDurationAndResumeEndsItEarly(t *testing.T) {
	clock := clockwork.NewFakeClockAt(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	p := &Pause{Clock: clock}
	changes := 0
	p.OnChange(func() { changes++ })
	var _ Pauser = p
	if p.Paused() {
		t.Fatal("a new Pause is paused")
	}
	until := p.For(time.Hour)
	if !until.Equal(clock.Now().Add(time.Hour)) || !p.Paused() {
		t.Fatalf("For(1h) = %v, paused %v", until, p.Paused())
	}
	clock.Advance(59 * time.Minute)
	if !p.Paused() {
		t.Error("not paused 59 minutes into a 1-hour pause")
	}
	clock.Advance(time.Minute)
	if p.Paused() {
		t.Error("still paused when the hour is over")
	}
	p.For(time.Hour)
	p.Resume()
	if _, ok := p.Until(); ok || p.Paused() {
		t.Error("still paused after Resume")
	}
	if changes != 3 {
		t.Errorf("OnChange ran %d times, want 3 (For, For, Resume)", changes)
	}
}

func TestUnlessPausedDropsNotificationsOnlyWhilePaused(t *testing.T) {
	clock := clockwork.NewFakeClockAt(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	p := &Pause{Clock: clock}
	rec := NewRecordingNotifier()
	n := UnlessPaused(rec, p)
	ctx := context.Background()
	_ = n.Notify(ctx, Notification{Reminder: Reminder{ID: 1}})
	p.For(time.Hour)
	_ = n.Notify(ctx, Notification{Reminder: Reminder{ID: 2}})
	clock.Advance(time.Hour)
	_ = n.Notify(ctx, Notification{Reminder: Reminder{ID: 3}})
	got := rec.Got()
	if len(got) != 2 || got[0].Reminder.ID != 1 || got[1].Reminder.ID != 3 {
		t.Errorf("notified %+v, want reminders 1 and 3 (2 fell in the pause)", got)
	}
}
