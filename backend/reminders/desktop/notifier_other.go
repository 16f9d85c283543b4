//go:build !linux

package desktop

import (
	"context"
	"fmt"

	"github.com/gen2brain/beeep"

	"playchat/backend/reminders"
)

// Notifier shows reminders through github.com/gen2brain/beeep (Windows
// toasts, macOS notifications). It offers no actions: Snooze and Done are
// done in the window's reminders panel, and a click does not open the
// window on the reminder's chat.
type Notifier struct{ o Options }

// New returns a Notifier.
func New(o Options) *Notifier {
	o.defaults()
	beeep.AppName = o.AppName
	return &Notifier{o: o}
}

// Supported reports whether this platform has a desktop notifier.
func Supported() bool { return true }

// Notify shows n; a failure is ErrNoService (wrapped).
func (d *Notifier) Notify(_ context.Context, n reminders.Notification) error {
	l := labelsFor(d.o.Lang)
	if err := beeep.Notify(l.summary(n), n.Reminder.Content, ""); err != nil {
		return fmt.Errorf("%w: %v", ErrNoService, err)
	}
	return nil
}

// Alert shows a notification that is not a reminder (a failed automatic
// backup); a failure is ErrNoService (wrapped).
func (d *Notifier) Alert(_ context.Context, summary, body string) error {
	if err := beeep.Notify(summary, body, ""); err != nil {
		return fmt.Errorf("%w: %v", ErrNoService, err)
	}
	return nil
}

// Close does nothing.
func (d *Notifier) Close() error { return nil }
