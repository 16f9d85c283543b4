package event

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeTimers lets a test fire the Coalescer's scheduled flush by hand.
type fakeTimers struct {
	mu      sync.Mutex
	pending []func()
}

type fakeTimer struct{ stopped bool }

func (t *fakeTimer) Stop() bool { t.stopped = true; return true }

func (f *fakeTimers) after(_ time.Duration, fn func()) stopper {
	t := &fakeTimer{}
	f.mu.Lock()
	f.pending = append(f.pending, func() {
		if !t.stopped {
			fn()
		}
	})
	f.mu.Unlock()
	return t
}

func (f *fakeTimers) fire() {
	f.mu.Lock()
	p := f.pending
	f.pending = nil
	f.mu.Unlock()
	for _, fn := range p {
		fn()
	}
}

type recorder struct {
	mu  sync.Mutex
	evs []Event
}

func (r *recorder) Emit(e Event) { r.mu.Lock(); r.evs = append(r.evs, e); r.mu.Unlock() }

func newTestCoalescer(rec *recorder) (*Coalescer, *fakeTimers, *time.Time) {
	ft := &fakeTimers{}
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	c := Coalesce(rec, 30*time.Millisecond)
	c.after = ft.after
	c.now = func() time.Time { return now }
	return c, ft, &now
}

func TestCoalescerSendsTheFirstChunkAtOnceAndMergesAFlood(t *testing.T) {
	rec := &recorder{}
	c, ft, _ := newTestCoalescer(rec)
	for range 20000 {
		c.Emit(Event{Type: Chunk, Value: "a"})
	}
	if len(rec.evs) != 1 || rec.evs[0].Value != "a" {
		t.Fatalf("before the interval: %d events, want only the first chunk", len(rec.evs))
	}
	ft.fire()
	if len(rec.evs) != 2 || rec.evs[1].Value != strings.Repeat("a", 19999) {
		t.Fatalf("after the interval: %d events; the second must carry the other 19,999 characters", len(rec.evs))
	}
}

func TestCoalescerFlushesBeforeOtherEventsKeepingOrder(t *testing.T) {
	rec := &recorder{}
	c, ft, _ := newTestCoalescer(rec)
	c.Emit(Event{Type: Chunk, Value: "one "})
	c.Emit(Event{Type: Chunk, Value: "two "})
	c.Emit(Event{Type: Tool, Value: ToolActivity{ID: "t1", Status: "running"}})
	c.Emit(Event{Type: Chunk, Value: "three"})
	c.Emit(Event{Type: Done})
	ft.fire() // the timer scheduled for "three" was stopped by Done's flush
	var got []string
	for _, e := range rec.evs {
		s, _ := e.Value.(string)
		got = append(got, string(e.Type)+":"+s)
	}
	want := "chunk:one |chunk:two |tool:|chunk:three|done:"
	if strings.Join(got, "|") != want {
		t.Fatalf("events = %q, want %q", strings.Join(got, "|"), want)
	}
}

func TestCoalescerSendsAtOnceWhenTheIntervalHasPassed(t *testing.T) {
	rec := &recorder{}
	c, _, now := newTestCoalescer(rec)
	c.Emit(Event{Type: Chunk, Value: "a"})
	*now = now.Add(40 * time.Millisecond)
	c.Emit(Event{Type: Chunk, Value: "b"})
	if len(rec.evs) != 2 || rec.evs[1].Value != "b" {
		t.Fatalf("a chunk after a quiet interval must go out at once: %v", rec.evs)
	}
}

// With real timers the exact merging depends on scheduling; what must hold
// is that every character arrives, in order, before done.
func TestCoalescerWithRealTimersDeliversEverything(t *testing.T) {
	rec := &recorder{}
	c := Coalesce(rec, time.Millisecond)
	var want strings.Builder
	for i := range 5000 {
		s := string(rune('a' + i%26))
		want.WriteString(s)
		c.Emit(Event{Type: Chunk, Value: s})
	}
	c.Emit(Event{Type: Done})
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var got strings.Builder
	for i, e := range rec.evs {
		if e.Type == Done {
			if i != len(rec.evs)-1 {
				t.Fatal("done is not the last event")
			}
			continue
		}
		got.WriteString(e.Value.(string))
	}
	if got.String() != want.String() {
		t.Fatal("coalesced text differs from the deltas sent")
	}
}
