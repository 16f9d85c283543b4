//go:build linux

package desktop

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/esiqveland/notify"
	"github.com/godbus/dbus/v5"

	"playchat/backend/reminders"
)

// Notifier shows reminders through the freedesktop notification service on
// the session bus. It connects on the first Notify (and again after the
// connection is lost), asks the server's capabilities before each
// notification (a server started later is found; one that went away gives
// ErrNoService) and offers Open, Snooze 10 min and Done when the server
// supports actions. Safe for concurrent use; Close releases the bus.
type Notifier struct {
	o       Options
	connect func() (*dbus.Conn, error)
	ctx     context.Context
	cancel  context.CancelFunc

	mu      sync.Mutex
	conn    *dbus.Conn
	n       notify.Notifier
	byNote  map[uint32]int64 // notification id → reminder id
	byRemID map[int64]uint32 // reminder id → its shown notification
	// lastAlert is the notification id of the last Alert (replaced by the next).
	lastAlert uint32
}

// New returns a Notifier on the session bus (DBUS_SESSION_BUS_ADDRESS).
func New(o Options) *Notifier {
	return NewOnBus(o, func() (*dbus.Conn, error) { return dbus.ConnectSessionBus() })
}

// NewOnBus returns a Notifier that opens its bus connection with connect
// (tests pass a private bus's).
func NewOnBus(o Options, connect func() (*dbus.Conn, error)) *Notifier {
	o.defaults()
	ctx, cancel := context.WithCancel(context.Background())
	return &Notifier{o: o, connect: connect, ctx: ctx, cancel: cancel,
		byNote: map[uint32]int64{}, byRemID: map[int64]uint32{}}
}

// Supported reports whether this platform has a desktop notifier (Linux:
// the freedesktop D-Bus service, which may still be missing at run time).
func Supported() bool { return true }

// ensure returns the notifier on a live connection, connecting when needed.
func (d *Notifier) ensure() (notify.Notifier, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.conn != nil && d.conn.Connected() {
		return d.n, nil
	}
	d.dropLocked()
	conn, err := d.connect()
	if err != nil {
		return nil, fmt.Errorf("%w: session bus: %v", ErrNoService, err)
	}
	n, err := notify.New(conn, notify.WithOnAction(d.onAction), notify.WithOnClosed(d.onClosed),
		notify.WithLogger(logAdapter{d}))
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("%w: %v", ErrNoService, err)
	}
	d.conn, d.n = conn, n
	return n, nil
}

// dropLocked forgets the connection (d.mu held).
func (d *Notifier) dropLocked() {
	if d.n != nil {
		_ = d.n.Close()
	}
	if d.conn != nil {
		_ = d.conn.Close()
	}
	d.conn, d.n = nil, nil
	clear(d.byNote)
	clear(d.byRemID)
	d.lastAlert = 0
}

// Notify shows n. It returns once the server accepted the notification;
// ErrNoService (wrapped) when nothing answers on the bus.
func (d *Notifier) Notify(_ context.Context, n reminders.Notification) error {
	nt, err := d.ensure()
	if err != nil {
		return err
	}
	caps, err := nt.GetCapabilities()
	if err != nil {
		return d.callErr(err)
	}
	l := labelsFor(d.o.Lang)
	rid := n.Reminder.ID
	d.mu.Lock()
	replaces := d.byRemID[rid]
	d.mu.Unlock()
	note := notify.Notification{AppName: d.o.AppName, ReplacesID: replaces, AppIcon: d.o.Icon,
		Summary: l.summary(n), Body: n.Reminder.Content, ExpireTimeout: 0, Hints: map[string]dbus.Variant{}}
	// The desktop entry lets the notification server group it with the app
	// (and find its icon there too).
	note.Hints["desktop-entry"] = dbus.MakeVariant(AppID)
	note.SetUrgency(notify.UrgencyNormal)
	if slices.Contains(caps, "actions") {
		note.Actions = []notify.Action{{Key: ActionOpen, Label: l.Open},
			{Key: ActionSnooze, Label: l.Snooze}, {Key: ActionDone, Label: l.Done}}
	}
	id, err := nt.SendNotification(note)
	if err != nil {
		return d.callErr(err)
	}
	d.mu.Lock()
	d.byNote[id] = rid
	d.byRemID[rid] = id
	d.mu.Unlock()
	return nil
}

// Alert shows a notification that is not a reminder (a failed automatic
// backup): summary and body, no actions, replacing the previous alert
// still shown. Errors as Notify's.
func (d *Notifier) Alert(_ context.Context, summary, body string) error {
	nt, err := d.ensure()
	if err != nil {
		return err
	}
	d.mu.Lock()
	replaces := d.lastAlert
	d.mu.Unlock()
	note := notify.Notification{AppName: d.o.AppName, ReplacesID: replaces, AppIcon: d.o.Icon,
		Summary: summary, Body: body, ExpireTimeout: 0, Hints: map[string]dbus.Variant{}}
	note.Hints["desktop-entry"] = dbus.MakeVariant(AppID)
	note.SetUrgency(notify.UrgencyNormal)
	id, err := nt.SendNotification(note)
	if err != nil {
		return d.callErr(err)
	}
	d.mu.Lock()
	d.lastAlert = id
	d.mu.Unlock()
	return nil
}

// callErr words a failed call: a missing service is ErrNoService, a lost
// connection is dropped so the next Notify reconnects.
func (d *Notifier) callErr(err error) error {
	var de dbus.Error
	if errors.As(err, &de) {
		switch de.Name {
		case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
			"org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.TimedOut":
			return fmt.Errorf("%w: %v", ErrNoService, err)
		}
	}
	d.mu.Lock()
	if d.conn != nil && !d.conn.Connected() {
		d.dropLocked()
		d.mu.Unlock()
		return fmt.Errorf("%w: %v", ErrNoService, err)
	}
	d.mu.Unlock()
	return fmt.Errorf("desktop notification: %w", err)
}

// onAction runs the person's choice on one of our notifications (signals
// of other applications' notifications are ignored).
func (d *Notifier) onAction(s *notify.ActionInvokedSignal) {
	d.mu.Lock()
	rid, ok := d.byNote[s.ID]
	d.mu.Unlock()
	if !ok {
		return
	}
	svc, ctx, lg := d.o.Service, d.ctx, d.o.Log
	switch s.ActionKey {
	case ActionSnooze:
		if _, err := svc.Snooze(ctx, rid, reminders.SnoozeDefault); err != nil {
			lg.Warn("reminder snooze from notification", "id", rid, "err", err)
		}
	case ActionDone:
		if _, err := svc.Done(ctx, rid); err != nil {
			lg.Warn("reminder done from notification", "id", rid, "err", err)
		}
	case ActionOpen:
		r, err := svc.Get(ctx, rid)
		if err != nil {
			lg.Warn("reminder open from notification", "id", rid, "err", err)
			return
		}
		if d.o.OnOpen != nil {
			d.o.OnOpen(r)
		}
	}
}

// onClosed forgets a closed notification.
func (d *Notifier) onClosed(s *notify.NotificationClosedSignal) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if rid, ok := d.byNote[s.ID]; ok {
		delete(d.byNote, s.ID)
		if d.byRemID[rid] == s.ID {
			delete(d.byRemID, rid)
		}
	}
}

// Close stops listening for actions and closes the bus connection.
func (d *Notifier) Close() error {
	d.cancel()
	d.mu.Lock()
	defer d.mu.Unlock()
	d.dropLocked()
	return nil
}

// logAdapter sends the notify package's messages to the debug log.
type logAdapter struct{ d *Notifier }

func (l logAdapter) Printf(format string, v ...any) {
	l.d.o.Log.Debug(fmt.Sprintf("notify: "+format, v...))
}
