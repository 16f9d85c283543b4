package webview

import (
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// fakeTrim is an IdleTrim on a fake clock whose runs arrive on a channel
// (each run is its timer's own goroutine).
func fakeTrim(delay, interval time.Duration) (*IdleTrim, *clockwork.FakeClock, chan struct{}) {
	clock := clockwork.NewFakeClock()
	runs := make(chan struct{}, 16)
	return &IdleTrim{delay: delay, interval: interval, clock: clock, run: func() { runs <- struct{}{} }}, clock, runs
}

// wantRun waits for the run that the last Advance made due.
func wantRun(t *testing.T, runs chan struct{}, when string) {
	t.Helper()
	select {
	case <-runs:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: no run", when)
	}
}

// wantNoRun checks that no run came: on the fake clock nothing is due
// until an Advance reaches it, so an empty channel is the whole answer.
func wantNoRun(t *testing.T, runs chan struct{}, when string) {
	t.Helper()
	select {
	case <-runs:
		t.Fatalf("%s: a run, want none", when)
	default:
	}
}

func TestIdleTrimRunsOnceAfterABurstAndAtMostOncePerInterval(t *testing.T) {
	tr, clock, runs := fakeTrim(10*time.Millisecond, 600*time.Millisecond)
	for i := 0; i < 5; i++ {
		tr.Poke() // a burst of turn ends: one run
	}
	clock.Advance(10 * time.Millisecond)
	wantRun(t, runs, "after a burst")
	tr.Poke() // within the interval: waits for it
	clock.Advance(100 * time.Millisecond)
	wantNoRun(t, runs, "within the interval")
	clock.Advance(500 * time.Millisecond)
	wantRun(t, runs, "after the interval")
	clock.Advance(time.Second)
	wantNoRun(t, runs, "a burst gave a second run")
	tr.Stop()
	tr.Poke()
	clock.Advance(time.Second)
	wantNoRun(t, runs, "after stop")
}

func TestIdleTrimWithoutRunDoesNothing(t *testing.T) {
	var tr IdleTrim
	tr.Poke() // no func: no panic, no timer
	if tr.timer != nil || tr.pending {
		t.Fatal("an IdleTrim without a func started a timer")
	}
	var none *IdleTrim
	none.Poke() // an App literal in tests: no panic
	none.Stop()
}

// A run waits for delay of quiet: pokes that keep coming — turns one
// after another — keep pushing it back.
func TestIdleTrimWaitsForQuiet(t *testing.T) {
	tr, clock, runs := fakeTrim(400*time.Millisecond, 0)
	defer tr.Stop()
	for i := 0; i < 15; i++ { // 15 pokes 20 ms apart: 300 ms, all under the delay of the one before
		tr.Poke()
		clock.Advance(20 * time.Millisecond)
	}
	wantNoRun(t, runs, "while pokes keep coming")
	clock.Advance(379 * time.Millisecond)
	wantNoRun(t, runs, "1 ms before the quiet is over")
	clock.Advance(time.Millisecond)
	wantRun(t, runs, "after the quiet")
}
