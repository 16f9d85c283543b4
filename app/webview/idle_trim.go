package webview

import (
	"runtime/debug"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// Once the window has gone quiet — IdleTrimDelay after the last turn ended
// or session opened, with no other in between — the app returns the memory
// it no longer uses (issue 7), in its own process and in the web process,
// at most once per IdleTrimInterval. The page has painted the last reply
// by then, and a person is reading, not typing; turns that come faster
// (a script, the soak) put it off until they stop.
const (
	IdleTrimDelay    = 2 * time.Second
	IdleTrimInterval = 3 * time.Second
)

// IdleTrim runs its func once delay has passed without a Poke, and at
// most once per interval: each Poke moves a pending run to delay after
// it, unless the interval holds the run later anyway. A nil *IdleTrim, or
// one without a func, does nothing (an App literal in tests). Safe for
// concurrent use.
type IdleTrim struct {
	mu       sync.Mutex
	pending  bool
	last     time.Time
	delay    time.Duration
	interval time.Duration
	run      func()
	clock    clockwork.Clock // nil: the real clock; tests pass clockwork's fake one
	stopped  bool
	timer    clockwork.Timer
}

// NewIdleTrim returns an IdleTrim that calls run (on a goroutine of its
// own) delay after the last Poke, at most once per interval. The window's
// is NewIdleTrim(IdleTrimDelay, IdleTrimInterval, TrimMemory).
func NewIdleTrim(delay, interval time.Duration, run func()) *IdleTrim {
	return &IdleTrim{delay: delay, interval: interval, run: run}
}

func (t *IdleTrim) clockOrReal() clockwork.Clock {
	if t.clock == nil {
		t.clock = clockwork.NewRealClock()
	}
	return t.clock
}

// Poke says the window is busy (a turn's event, a session opened): the
// run waits until delay after the last Poke.
func (t *IdleTrim) Poke() {
	if t == nil || t.run == nil {
		return // an App not made by New (tests)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	clock := t.clockOrReal()
	if t.pending {
		if t.last.Add(t.interval).Before(clock.Now().Add(t.delay)) {
			t.timer.Reset(t.delay)
		}
		return
	}
	now := clock.Now()
	at := now.Add(t.delay)
	if next := t.last.Add(t.interval); next.After(at) {
		at = next
	}
	t.pending = true
	t.timer = clock.AfterFunc(at.Sub(now), func() {
		t.mu.Lock()
		stopped := t.stopped
		// A poke from here on schedules the next run, an interval on.
		t.pending = false
		t.last = clock.Now()
		t.mu.Unlock()
		if !stopped {
			t.run()
		}
	})
}

// Stop ends the runs: a pending one does not run, later Pokes do nothing.
func (t *IdleTrim) Stop() {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.stopped = true
	t.mu.Unlock()
}

// TrimMemory gives back what the last turns left behind.
//   - The Go heap's garbage (the collector otherwise keeps it until the
//     heap doubles, then returns freed pages to the OS only slowly) is
//     collected and released: a few milliseconds, off the UI thread.
//   - The web process is asked to run WebKit's own memory release at once
//     (RequestRelease, release.go) rather than at its memory pressure
//     handler's next timed check: a full garbage collection, dropped
//     caches and compiled code, free allocator pages returned; 40–140 ms
//     of the web process's main thread (soak figures).
func TrimMemory() {
	debug.FreeOSMemory()
	RequestRelease()
}
