// Package desktop shows reminders as desktop notifications (issue 10): on
// Linux through the freedesktop org.freedesktop.Notifications D-Bus service
// (github.com/esiqveland/notify), with the actions "Snooze 10 min" and
// "Done" when the server offers actions and a click opening the window on
// the reminder's chat; elsewhere through github.com/gen2brain/beeep,
// without actions. Fanout sends each reminder to the desktop and to the
// window, so a desktop without a notification service still shows it (the
// reminder is then delivered with reminders.NoteNoService).
package desktop

import (
	"errors"
	"log/slog"

	"playchat/backend/reminders"
)

// ErrNoService is returned (wrapped) by Notify when no desktop notification
// service answers: no session bus, or nothing owns
// org.freedesktop.Notifications on it.
var ErrNoService = errors.New("no desktop notification service")

// Action keys of a notification (the freedesktop action keys).
const (
	ActionOpen   = "default" // a click on the notification itself
	ActionSnooze = "snooze"
	ActionDone   = "done"
)

// Options configure New.
type Options struct {
	// Service snoozes and acknowledges reminders when the person picks an
	// action. Required.
	Service *reminders.Service
	// Lang returns the UI language of the labels, "ja" or "en" (read per
	// notification); nil = "en".
	Lang func() string
	// OnOpen runs when the person clicks a notification: the app shows the
	// window on r's chat. nil = nothing. Called from the D-Bus signal
	// loop's goroutine; must not block for long.
	OnOpen func(r reminders.Reminder)
	// Log defaults to slog.Default().
	Log *slog.Logger
	// AppName is the application name sent with each notification; "" =
	// "playchat".
	AppName string
	// Icon is the notification's icon: a theme icon name or an absolute
	// path (IconFor chooses); "" sends none.
	Icon string
}

func (o *Options) defaults() {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.AppName == "" {
		o.AppName = "playchat"
	}
}

// labels are the words of one notification.
type labels struct {
	Title, TitleLate, Open, Snooze, Done string
}

func labelsFor(lang func() string) labels {
	if lang != nil && lang() == "ja" {
		return labels{Title: "リマインド", TitleLate: "リマインド（遅れて通知）", Open: "開く", Snooze: "10分後に再通知", Done: "完了"}
	}
	return labels{Title: "Reminder", TitleLate: "Reminder (late)", Open: "Open", Snooze: "Snooze 10 min", Done: "Done"}
}

// summary is the notification's title for n.
func (l labels) summary(n reminders.Notification) string {
	if n.Late {
		return l.TitleLate
	}
	return l.Title
}
