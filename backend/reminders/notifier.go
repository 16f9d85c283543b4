package reminders

import (
	"context"
	"log/slog"
	"sync"
)

// Notification is one delivery of a reminder.
type Notification struct {
	Reminder Reminder
	// Late is set when the reminder fell due while the app was not running
	// (delivered at the next start) or more than LateAfter ago.
	Late bool
}

// Notifier shows a reminder to the person (a desktop notification, the
// window, a Discord message). An error marks the delivery failed with its
// text (Service.MarkFailed); Notify should return once the notification is
// handed over, not wait for the person.
type Notifier interface {
	Notify(ctx context.Context, n Notification) error
}

// LogNotifier writes each reminder to a log at info level: the notifier of
// a window that has no desktop notifier yet.
type LogNotifier struct{ Log *slog.Logger }

// Notify logs n.
func (l LogNotifier) Notify(_ context.Context, n Notification) error {
	lg := l.Log
	if lg == nil {
		lg = slog.Default()
	}
	lg.Info("reminder due", "id", n.Reminder.ID, "content", n.Reminder.Content,
		"due", n.Reminder.DueAt, "late", n.Late, "session", n.Reminder.SessionID)
	return nil
}

// RecordingNotifier records notifications (tests, and a stand-in while no
// other notifier is wired). Err, when set, is returned by every Notify
// (after recording). Safe for concurrent use.
type RecordingNotifier struct {
	mu  sync.Mutex
	got []Notification
	// C receives every notification when not nil (a buffered channel; a
	// full channel drops the send).
	C   chan Notification
	Err error
}

// NewRecordingNotifier returns a RecordingNotifier with a buffered C.
func NewRecordingNotifier() *RecordingNotifier {
	return &RecordingNotifier{C: make(chan Notification, 64)}
}

// Notify records n.
func (r *RecordingNotifier) Notify(_ context.Context, n Notification) error {
	r.mu.Lock()
	r.got = append(r.got, n)
	err := r.Err
	r.mu.Unlock()
	if r.C != nil {
		select {
		case r.C <- n:
		default:
		}
	}
	return err
}

// Got returns the notifications so far.
func (r *RecordingNotifier) Got() []Notification {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Notification(nil), r.got...)
}
