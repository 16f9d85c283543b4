package app

import (
	"runtime/debug"
	"sync"
	"time"
)

// After a turn ends the app returns the memory it no longer uses (issue 7):
// IdleTrimDelay later, and at most once per IdleTrimInterval however fast
// turns come.
const (
	IdleTrimDelay    = 2 * time.Second
	IdleTrimInterval = 20 * time.Second
)

// idleTrim runs its func delay after a poke, at most once per interval;
// pokes while a run is pending add nothing.
type idleTrim struct {
	mu       sync.Mutex
	pending  bool
	last     time.Time
	delay    time.Duration
	interval time.Duration
	run      func()
	stopped  bool
}

func (t *idleTrim) poke() {
	if t.run == nil {
		return // an App not made by New (tests)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.pending || t.stopped {
		return
	}
	now := time.Now()
	at := now.Add(t.delay)
	if next := t.last.Add(t.interval); next.After(at) {
		at = next
	}
	t.pending = true
	time.AfterFunc(at.Sub(now), func() {
		t.mu.Lock()
		if t.stopped {
			t.mu.Unlock()
			return
		}
		t.mu.Unlock()
		t.run()
		t.mu.Lock()
		t.pending = false
		t.last = time.Now()
		t.mu.Unlock()
	})
}

func (t *idleTrim) stop() {
	t.mu.Lock()
	t.stopped = true
	t.mu.Unlock()
}

// trimMemory gives back what the last turns left behind: the Go heap's
// garbage (the collector otherwise keeps it until the heap doubles, then
// returns freed pages to the OS only slowly) is collected and released.
// A full collection of this heap takes a few milliseconds, off the UI thread.
func trimMemory() { debug.FreeOSMemory() }
