package app

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestIdleTrimRunsOnceAfterABurstAndAtMostOncePerInterval(t *testing.T) {
	var runs atomic.Int32
	tr := &idleTrim{delay: 10 * time.Millisecond, interval: 600 * time.Millisecond, run: func() { runs.Add(1) }}
	for i := 0; i < 5; i++ {
		tr.poke() // a burst of turn ends: one run
	}
	time.Sleep(200 * time.Millisecond)
	if n := runs.Load(); n != 1 {
		t.Fatalf("after a burst: %d runs, want 1", n)
	}
	tr.poke() // within the interval: waits for it
	time.Sleep(100 * time.Millisecond)
	if n := runs.Load(); n != 1 {
		t.Fatalf("within the interval: %d runs, want 1", n)
	}
	time.Sleep(800 * time.Millisecond)
	if n := runs.Load(); n != 2 {
		t.Fatalf("after the interval: %d runs, want 2", n)
	}
	tr.stop()
	tr.poke()
	time.Sleep(100 * time.Millisecond)
	if n := runs.Load(); n != 2 {
		t.Fatalf("after stop: %d runs, want 2", n)
	}
}

func TestIdleTrimWithoutRunDoesNothing(t *testing.T) {
	var tr idleTrim
	tr.poke() // an App literal in tests: no panic, no timer
}

// A run waits for delay of quiet: pokes that keep coming — turns one
// after another — keep pushing it back.
func TestIdleTrimWaitsForQuiet(t *testing.T) {
	var runs atomic.Int32
	tr := &idleTrim{delay: 400 * time.Millisecond, run: func() { runs.Add(1) }}
	defer tr.stop()
	for i := 0; i < 15; i++ {
		tr.poke()
		time.Sleep(20 * time.Millisecond)
	}
	if n := runs.Load(); n != 0 {
		t.Fatalf("while pokes keep coming: %d runs, want 0", n)
	}
	time.Sleep(time.Second)
	if n := runs.Load(); n != 1 {
		t.Fatalf("after the quiet: %d runs, want 1", n)
	}
}
