package reminders

import (
	"context"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// Pauser tells a notifier whether desktop notifications are paused (the
// tray's "Pause notifications for 1 hour"). A paused notifier still marks
// reminders delivered and shows them in the window; it only skips the
// desktop pop-up.
type Pauser interface {
	// Paused reports whether notifications are paused right now.
	Paused() bool
}

// Pause is a Pauser that pauses until a time. The zero value is not
// paused and uses the real clock. Safe for concurrent use.
type Pause struct {
	// Clock is the time source; nil = the real clock. Set it before use.
	Clock clockwork.Clock

	mu    sync.Mutex
	until time.Time
	subs  []func()
}

func (p *Pause) now() time.Time {
	if p.Clock == nil {
		return time.Now()
	}
	return p.Clock.Now()
}

// For pauses notifications for d from now (replacing an earlier pause) and
// returns when the pause ends.
func (p *Pause) For(d time.Duration) time.Time {
	p.mu.Lock()
	p.until = p.now().Add(d)
	until := p.until
	p.mu.Unlock()
	p.changed()
	return until
}

// Resume ends a pause at once.
func (p *Pause) Resume() {
	p.mu.Lock()
	p.until = time.Time{}
	p.mu.Unlock()
	p.changed()
}

// Paused reports whether a pause is running now.
func (p *Pause) Paused() bool {
	_, ok := p.Until()
	return ok
}

// Until returns when the running pause ends, and false when none runs.
func (p *Pause) Until() (time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.until.IsZero() || !p.now().Before(p.until) {
		return time.Time{}, false
	}
	return p.until, true
}

// OnChange registers fn to run after For and Resume (not when a pause
// merely runs out). fn must not block.
func (p *Pause) OnChange(fn func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.subs = append(p.subs, fn)
}

func (p *Pause) changed() {
	p.mu.Lock()
	fns := append([]func(){}, p.subs...)
	p.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

// UnlessPaused returns a Notifier that hands each notification to n unless
// p is paused right now, when it drops it and returns nil (the reminder
// still counts as delivered). Wrap only the desktop pop-up with it, not
// the window's notifier, so a paused reminder still shows in the window.
func UnlessPaused(n Notifier, p Pauser) Notifier { return unlessPaused{n, p} }

type unlessPaused struct {
	n Notifier
	p Pauser
}

func (u unlessPaused) Notify(ctx context.Context, n Notification) error {
	if u.p != nil && u.p.Paused() {
		return nil
	}
	return u.n.Notify(ctx, n)
}
