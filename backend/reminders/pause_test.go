package reminders

import (
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
