package app

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"playchat/app/webview"
	"playchat/backend/event"
)

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
	a := &App{platform: &lockedPlatform{}, trim: webview.NewIdleTrim(300*time.Millisecond, 0, func() { runs.Add(1) })}
	defer a.trim.Stop()
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
