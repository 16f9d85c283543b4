package event

import (
	"strings"
	"sync"
	"time"
)

// DefaultCoalesceInterval is how often, at most, the window receives a
// chunk event of one turn (30 ms: about two frames at 60 Hz). A fast local
// model or a server that streams one character per delta would otherwise
// send thousands of events a second, each a separate script evaluation in
// the webview.
const DefaultCoalesceInterval = 30 * time.Millisecond

// Coalescer is an Emitter that merges the Chunk events of one turn: the
// first chunk goes out at once, later ones are buffered and sent as one
// Chunk event carrying all text since the previous one, at most once per
// interval. Any other event first flushes the buffered text, so the order
// of text and other events is kept and Done/Error always follow the last
// chunk. Safe for concurrent use.
type Coalescer struct {
	next     Emitter
	interval time.Duration
	after    func(time.Duration, func()) stopper

	mu        sync.Mutex
	buf       strings.Builder
	lastFlush time.Time
	timer     stopper
	now       func() time.Time
}

// stopper is the part of *time.Timer the Coalescer uses (a seam for tests).
type stopper interface{ Stop() bool }

// Coalesce wraps next so that chunk events reach it at most once per
// interval (interval <= 0 uses DefaultCoalesceInterval).
func Coalesce(next Emitter, interval time.Duration) *Coalescer {
	if interval <= 0 {
		interval = DefaultCoalesceInterval
	}
	return &Coalescer{
		next: next, interval: interval, now: time.Now,
		after: func(d time.Duration, f func()) stopper { return time.AfterFunc(d, f) },
	}
}

// Emit forwards e, buffering chunk text as described on Coalescer.
func (c *Coalescer) Emit(e Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.Type == Chunk {
		s, _ := e.Value.(string)
		if s == "" {
			return
		}
		c.buf.WriteString(s)
		if c.timer != nil {
			return // a flush is already scheduled
		}
		wait := c.interval - c.now().Sub(c.lastFlush)
		if wait <= 0 {
			c.flushLocked()
			return
		}
		c.timer = c.after(wait, c.timerFired)
		return
	}
	c.flushLocked()
	c.next.Emit(e)
}

// Flush sends any buffered text now.
func (c *Coalescer) Flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flushLocked()
}

func (c *Coalescer) timerFired() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.timer = nil
	c.flushLocked()
}

func (c *Coalescer) flushLocked() {
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	if c.buf.Len() == 0 {
		return
	}
	text := c.buf.String()
	c.buf.Reset()
	c.lastFlush = c.now()
	c.next.Emit(Event{Type: Chunk, Value: text})
}
