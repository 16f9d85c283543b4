package app

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"playchat/backend/event"
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
// not only its end, puts the trim off; one run follows the stream.
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
