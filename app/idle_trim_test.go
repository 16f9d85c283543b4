package app

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"playchat/backend/event"
)

// fakeTrim is an idleTrim on a fake clock whose runs arrive on a channel
// (each run is its timer's own goroutine).
func fakeTrim(delay, interval time.Duration) (*idleTrim, *clockwork.FakeClock, chan struct{}) {
	clock := clockwork.NewFakeClock()
	runs := make(chan struct{}, 16)
	return &idleTrim{delay: delay, interval: interval, clock: clock, run: func() { runs <- struct{}{} }}, clock, runs
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
		tr.poke() // a burst of turn ends: one run
	}
	clock.Advance(10 * time.Millisecond)
	wantRun(t, runs, "after a burst")
	tr.poke() // within the interval: waits for it
	clock.Advance(100 * time.Millisecond)
	wantNoRun(t, runs, "within the interval")
	clock.Advance(500 * time.Millisecond)
	wantRun(t, runs, "after the interval")
	clock.Advance(time.Second)
	wantNoRun(t, runs, "a burst gave a second run")
	tr.stop()
	tr.poke()
	clock.Advance(time.Second)
	wantNoRun(t, runs, "after stop")
}

func TestIdleTrimWithoutRunDoesNothing(t *testing.T) {
	var tr idleTrim
	tr.poke() // an App literal in tests: no panic, no timer
}

// A run waits for delay of quiet: pokes that keep coming — turns one
// after another — keep pushing it back.
func TestIdleTrimWaitsForQuiet(t *testing.T) {
	tr, clock, runs := fakeTrim(400*time.Millisecond, 0)
	defer tr.stop()
	for i := 0; i < 15; i++ { // 15 pokes 20 ms apart: 300 ms, all under the delay of the one before
		tr.poke()
		clock.Advance(20 * time.Millisecond)
	}
	wantNoRun(t, runs, "while pokes keep coming")
	clock.Advance(379 * time.Millisecond)
	wantNoRun(t, runs, "1 ms before the quiet is over")
	clock.Advance(time.Millisecond)
	wantRun(t, runs, "after the quiet")
}

// lockedPlatform is a fakePlatform safe for the coalescer's flush goroutine.
type lockedPlatform struct {
	fakePlatform
	mu sync.Mutex
}

func (p *lockedPlatform) Emit(name string, data any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fakePlatform.Emit(name, data)
}

// The tester's case (issue 7): a turn sent shortly after the last one must
// not be released into while its reply streams — every event of a turn,
// not only its end, puts the trim off; one run follows the stream. (On the
// real clock: the pokes come from the coalescer's flushes, which run on it.)
func TestIdleTrimNeverRunsWhileAReplyStreams(t *testing.T) {
	var runs atomic.Int32
	a := &App{platform: &lockedPlatform{}, trim: idleTrim{delay: 300 * time.Millisecond, run: func() { runs.Add(1) }}}
	defer a.trim.stop()
	s := &ChatService{a}
	first := s.turnEmitter("t1")
	first.Emit(event.Event{Type: event.Chunk, Value: "short reply"})
	first.Emit(event.Event{Type: event.Done})
	time.Sleep(100 * time.Millisecond) // the next turn is sent before the quiet
	second := s.turnEmitter("t2")
	for i := 0; i < 30; i++ { // a reply streaming for about 1.5 s, far past the delay
		second.Emit(event.Event{Type: event.Chunk, Value: "x"})
		time.Sleep(50 * time.Millisecond)
	}
	if n := runs.Load(); n != 0 {
		t.Fatalf("%d trims ran while the reply streamed, want 0", n)
	}
	second.Emit(event.Event{Type: event.Done})
	time.Sleep(900 * time.Millisecond)
	if n := runs.Load(); n != 1 {
		t.Fatalf("after the stream: %d trims, want 1", n)
	}
}
