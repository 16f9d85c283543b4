package reminders

import (
	"context"
	"errors"
	"sync"
)

// ErrNotReady is returned (possibly wrapped) by a Notifier whose delivery
// channel is not ready yet (the Discord bot is off or not connected). The
// Scheduler then leaves the reminder due and pending: it is not a failed
// attempt and not delivered, and it fires again on Scheduler.Kick (the bot
// is ready) or at a later scan (NotReadyRetry).
var ErrNotReady = errors.New("reminders: the delivery channel is not ready")

// RouteNotifier sends each reminder to the notifier of its Origin: a
// Discord reminder (OriginDiscord) to Discord, every other one to Desktop.
// A nil side returns ErrNotReady, so its reminders wait until it is set.
type RouteNotifier struct {
	// Desktop shows reminders set in the window or the CLI.
	Desktop Notifier
	// Discord posts reminders set from Discord to their channel.
	Discord Notifier
}

// Notify routes n by n.Reminder.Origin.
func (r RouteNotifier) Notify(ctx context.Context, n Notification) error {
	to := r.Desktop
	if n.Reminder.Origin == OriginDiscord {
		to = r.Discord
	}
	if to == nil {
		return ErrNotReady
	}
	return to.Notify(ctx, n)
}

// NotifierSlot is a Notifier that can be set after the scheduler started
// (the Discord bot, created or replaced when the settings change). Empty,
// it returns ErrNotReady. Safe for concurrent use; the zero value is empty.
type NotifierSlot struct {
	mu sync.RWMutex
	n  Notifier
}

// Set makes n the notifier (nil empties the slot).
func (s *NotifierSlot) Set(n Notifier) {
	s.mu.Lock()
	s.n = n
	s.mu.Unlock()
}

// Notify hands n to the notifier set, or returns ErrNotReady.
func (s *NotifierSlot) Notify(ctx context.Context, n Notification) error {
	s.mu.RLock()
	to := s.n
	s.mu.RUnlock()
	if to == nil {
		return ErrNotReady
	}
	return to.Notify(ctx, n)
}
