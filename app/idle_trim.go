package app

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

// idleTrim runs its func once delay has passed without a poke, and at
// most once per interval: each poke moves a pending run to delay after
// it, unless the interval holds the run later anyway. clock is the time
// source (nil: the real clock; tests pass clockwork's fake one).
type idleTrim struct {
	mu       sync.Mutex
	pending  bool
	last     time.Time
	delay    time.Duration
	interval time.Duration
	run      func()
	clock    clockwork.Clock
	stopped  bool
	timer    clockwork.Timer
}

func (t *idleTrim) clockOrReal() clockwork.Clock {
	if t.clock == nil {
		t.clock = clockwork.NewRealClock()
	}
	return t.clock
}

func (t *idleTrim) poke() {
	if t.run == nil {
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

func (t *idleTrim) stop() {
	t.mu.Lock()
	t.stopped = true
	t.mu.Unlock()
}

// trimMemory gives back what the last turns left behind.
//   - The Go heap's garbage (the collector otherwise keeps it until the
//     heap doubles, then returns freed pages to the OS only slowly) is
//     collected and released: a few milliseconds, off the UI thread.
//   - The web process is asked to run WebKit's own memory release at once
//     (webview_release.go) rather than at its memory pressure handler's
//     next timed check: a full garbage collection, dropped caches and
//     compiled code, free allocator pages returned; 40–140 ms of the web
//     process's main thread (soak figures).
func trimMemory() {
	debug.FreeOSMemory()
	requestWebRelease()
}
