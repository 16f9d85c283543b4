package desktop

import (
	"context"
	"errors"

	"playchat/backend/reminders"
)

// NotifierFunc adapts a function to reminders.Notifier (the window's part:
// the app emits an event the frontend shows as a toast and a badge).
type NotifierFunc func(ctx context.Context, n reminders.Notification) error

// Notify calls f.
func (f NotifierFunc) Notify(ctx context.Context, n reminders.Notification) error { return f(ctx, n) }

// Fanout shows each reminder on the desktop and in the window. The reminder
// counts as delivered when either showed it: when only the window did, Notify
// returns *reminders.Degraded saying why the desktop did not (the scheduler
// stores it as the reminder's note); when neither did, the desktop's error.
type Fanout struct {
	// Desktop is the desktop notifier (nil = none).
	Desktop reminders.Notifier
	// Window shows it in the window (nil = none).
	Window reminders.Notifier
}

// Notify sends n to both notifiers.
func (f Fanout) Notify(ctx context.Context, n reminders.Notification) error {
	derr := ErrNoService
	if f.Desktop != nil {
		derr = f.Desktop.Notify(ctx, n)
	}
	werr := errors.New("no window")
	if f.Window != nil {
		werr = f.Window.Notify(ctx, n)
	}
	switch {
	case derr == nil:
		return nil
	case werr == nil:
		note := reminders.NoteNoService
		if !errors.Is(derr, ErrNoService) {
			note = "desktop notification failed: " + derr.Error()
		}
		return &reminders.Degraded{Note: note, Err: derr}
	default:
		return derr
	}
}
