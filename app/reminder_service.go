package app

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"playchat/backend/core"
	"playchat/backend/reminders"
	desknotify "playchat/backend/reminders/desktop"
)

// Events the reminders send the window.
const (
	// EventRemindersChanged: a reminder was created, changed or delivered
	// in this process (no data); the panel reloads its list.
	EventRemindersChanged = "reminders:changed"
	// EventReminderFired: a reminder fell due (data: ReminderFired); the
	// window shows a toast and counts it in the badge.
	EventReminderFired = "reminders:fired"
	// EventReminderOpen: the person clicked a reminder's desktop
	// notification (data: ReminderOpen); the window selects its chat.
	EventReminderOpen = "reminders:open"
)

// MaxPastReminders caps the past reminders ReminderService.List returns
// (the most recent first).
const MaxPastReminders = 200

// ReminderItem is one reminder as the panel shows it. Times are RFC 3339
// UTC strings, "" when unset; the window shows them in local time.
type ReminderItem struct {
	ID      int64  `json:"id"`
	Content string `json:"content"`
	// DueAt is the next (or, for a past one, the last) due time.
	DueAt string `json:"dueAt"`
	// Zone is the IANA zone it was set in.
	Zone string `json:"zone"`
	// Repeat is the RRULE value ("FREQ=DAILY") or "" for a one-time reminder.
	Repeat string `json:"repeat"`
	// State is pending, snoozed, delivered, failed or cancelled.
	State string `json:"state"`
	// Error says why the last delivery failed; "" when it did not.
	Error string `json:"error"`
	// Note says how a delivery reached the person only in part
	// ("no notification service": shown in the window only).
	Note string `json:"note"`
	// Late is set when the last delivery came after its due time (the app was closed).
	Late bool `json:"late"`
	// SessionID is the chat it was set in ("" = none, e.g. the CLI).
	SessionID   string `json:"sessionId"`
	Origin      string `json:"origin"`
	CreatedAt   string `json:"createdAt"`
	NotifiedAt  string `json:"notifiedAt"`
	CancelledAt string `json:"cancelledAt"`
	// Unseen is set when a delivery (or failure) was not yet seen in the
	// panel or acknowledged with Done: the badge counts these.
	Unseen bool `json:"unseen"`
}

// ReminderList is the panel's content.
type ReminderList struct {
	// Upcoming are the active reminders (pending, snoozed), soonest first.
	Upcoming []ReminderItem `json:"upcoming"`
	// Past are the delivered, failed and cancelled ones, latest first (at
	// most MaxPastReminders).
	Past []ReminderItem `json:"past"`
	// Unseen counts the reminders with Unseen set.
	Unseen int `json:"unseen"`
	// Zone is the IANA zone new reminders are set in.
	Zone string `json:"zone"`
}

// ReminderInput is what the panel's form sends.
type ReminderInput struct {
	Content string `json:"content"`
	// Due is the local date-time, "2026-12-01T09:00" (seconds optional).
	Due string `json:"due"`
	// Repeat is "" or an RRULE value: FREQ=DAILY, FREQ=WEEKLY, FREQ=MONTHLY.
	Repeat string `json:"repeat"`
	// SessionID links a new reminder to a chat ("" = none); Edit ignores it.
	SessionID string `json:"sessionId"`
}

// ReminderFired is EventReminderFired's data.
type ReminderFired struct {
	Reminder ReminderItem `json:"reminder"`
	Late     bool         `json:"late"`
}

// ReminderOpen is EventReminderOpen's data.
type ReminderOpen struct {
	ReminderID int64  `json:"reminderId"`
	SessionID  string `json:"sessionId"`
}

// ReminderService lists, creates and changes reminders by hand for the
// reminders panel. Errors are apperr reminders.* codes.
type ReminderService struct{ app *App }

// List returns the upcoming and past reminders.
func (s *ReminderService) List() (ReminderList, error) {
	c, err := s.app.backend()
	if err != nil {
		return ReminderList{}, err
	}
	rs, err := c.Reminders.List(context.Background(), reminders.ListOptions{All: true})
	if err != nil {
		return ReminderList{}, err
	}
	split := reminders.SplitList(rs, MaxPastReminders)
	out := ReminderList{Upcoming: []ReminderItem{}, Past: []ReminderItem{}, Zone: c.Reminders.Zone().String(), Unseen: split.Unseen}
	for _, r := range split.Upcoming {
		out.Upcoming = append(out.Upcoming, toReminderItem(r))
	}
	for _, r := range split.Past {
		out.Past = append(out.Past, toReminderItem(r))
	}
	return out, nil
}

// Create adds a reminder set by hand.
func (s *ReminderService) Create(in ReminderInput) (ReminderItem, error) {
	c, err := s.app.backend()
	if err != nil {
		return ReminderItem{}, err
	}
	r, err := c.Reminders.Create(context.Background(), reminders.NewReminder{Content: in.Content, Due: in.Due,
		Repeat: in.Repeat, SessionID: in.SessionID, Origin: reminders.OriginDesktop})
	return toReminderItem(r), err
}

// Edit replaces a reminder's text, due time and repeat; a delivered or
// failed one is re-opened, a cancelled one is reminders.notActive.
func (s *ReminderService) Edit(id int64, in ReminderInput) (ReminderItem, error) {
	c, err := s.app.backend()
	if err != nil {
		return ReminderItem{}, err
	}
	r, err := c.Reminders.Edit(context.Background(), id, reminders.EditReminder{Content: in.Content, Due: in.Due, Repeat: in.Repeat})
	return toReminderItem(r), err
}

// Cancel cancels an active reminder (and its repeats).
func (s *ReminderService) Cancel(id int64) (ReminderItem, error) {
	c, err := s.app.backend()
	if err != nil {
		return ReminderItem{}, err
	}
	r, err := c.Reminders.Cancel(context.Background(), id)
	return toReminderItem(r), err
}

// Snooze makes a reminder fire again minutes from now (1 to one week;
// reminders.snoozeRange otherwise).
func (s *ReminderService) Snooze(id int64, minutes int) (ReminderItem, error) {
	c, err := s.app.backend()
	if err != nil {
		return ReminderItem{}, err
	}
	r, err := c.Reminders.SnoozeMinutes(context.Background(), id, minutes)
	return toReminderItem(r), err
}

// Done acknowledges a reminder, like the notification's Done.
func (s *ReminderService) Done(id int64) (ReminderItem, error) {
	c, err := s.app.backend()
	if err != nil {
		return ReminderItem{}, err
	}
	r, err := c.Reminders.Done(context.Background(), id)
	return toReminderItem(r), err
}

// MarkSeen marks every delivery seen (the panel was opened); it returns how
// many were unseen.
func (s *ReminderService) MarkSeen() (int, error) {
	c, err := s.app.backend()
	if err != nil {
		return 0, err
	}
	return c.Reminders.MarkSeen(context.Background())
}

func toReminderItem(r reminders.Reminder) ReminderItem {
	if r.ID == 0 {
		return ReminderItem{}
	}
	opt := func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return ts(*t)
	}
	return ReminderItem{ID: r.ID, Content: r.Content, DueAt: ts(r.DueAt), Zone: r.Zone, Repeat: r.Repeat(),
		State: string(r.State), Error: r.Error, Note: r.Note, Late: r.Late, SessionID: r.SessionID, Origin: r.Origin,
		CreatedAt: ts(r.CreatedAt), NotifiedAt: opt(r.NotifiedAt), CancelledAt: opt(r.CancelledAt), Unseen: r.Unseen()}
}

// startReminders fires reminders on the desktop and in the window (events
// to the frontend), and tells the window about every change.
func (a *App) startReminders(ctx context.Context, c *core.Core, onDiscord reminders.Notifier) {
	emit := func(name string, data any) {
		if p := a.plat(); p != nil {
			p.Emit(name, data)
		}
	}
	c.Reminders.OnChange(func() { emit(EventRemindersChanged, nil) })
	desk := desknotify.New(desknotify.Options{Service: c.Reminders, Log: c.Log, Lang: func() string { return uiLanguage(c) },
		Icon: notificationIcon(),
		OnOpen: func(r reminders.Reminder) {
			if p := a.plat(); p != nil {
				p.Show()
			}
			if t := a.trayIcon(); t != nil {
				t.SetWindowVisible(true) // tray.go: the badge goes once the window shows
			}
			emit(EventReminderOpen, ReminderOpen{ReminderID: r.ID, SessionID: r.SessionID})
		}})
	a.backupAlertMu.Lock()
	a.alerter = desk // failed automatic backups (backup_service.go)
	a.backupAlertMu.Unlock()
	window := desknotify.NotifierFunc(func(_ context.Context, n reminders.Notification) error {
		emit(EventReminderFired, ReminderFired{Reminder: toReminderItem(n.Reminder), Late: n.Late})
		return nil
	})
	// The tray's "Pause notifications for 1 hour" (tray.go) skips only the pop-up.
	popup := reminders.UnlessPaused(desk, a.NotificationPause())
	// Reminders set from Discord go to the bot (while it is not connected
	// they wait, reminders.ErrNotReady, and go out on its READY).
	route := reminders.RouteNotifier{Desktop: desknotify.Fanout{Desktop: popup, Window: window}, Discord: onDiscord}
	if err := c.StartReminders(ctx, route); err != nil {
		c.Log.Warn("reminders scheduler", "err", err)
	}
}

// notificationIcon is the icon the desktop notifications name: the one the
// package installs, else the app icon written to the user's cache folder
// (a build run without installing). Issue 22: they named "playchat", an
// icon nobody installs, and showed a broken one.
func notificationIcon() string {
	home, _ := os.UserHomeDir()
	cache, err := os.UserCacheDir()
	if err == nil {
		cache = filepath.Join(cache, "playchat")
	}
	return desknotify.IconFor(desknotify.DataDirs(os.Getenv, home), Icon, cache)
}
