//go:build linux

package desktop

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/jonboulle/clockwork"

	"playchat/backend/reminders"
	fakedbus "playchat/backend/reminders/desktop/desktoptest"
	"playchat/backend/store"
)

// wait is how long a test waits for another goroutine (generous: the
// machine may be busy); nothing is asserted about how long it took.
const wait = 30 * time.Second

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// startBus starts a private session bus, or skips the test when dbus-daemon
// is missing.
func startBus(t *testing.T) *fakedbus.Bus {
	t.Helper()
	bus, err := fakedbus.StartBus(wait)
	if errors.Is(err, fakedbus.ErrNoDaemon) {
		t.Skip("skipping the D-Bus notification test: dbus-daemon is not installed (apt-get install dbus-daemon)")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bus.Close() })
	return bus
}

// world is a reminders service on a fake clock, its scheduler and a
// desktop notifier on a private bus.
type world struct {
	svc      *reminders.Service
	clock    *clockwork.FakeClock
	notifier *Notifier
	changed  chan struct{}
	opened   chan reminders.Reminder
	window   chan reminders.Notification
}

func newWorld(t *testing.T, bus *fakedbus.Bus, lang string) *world {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	w := &world{clock: clockwork.NewFakeClockAt(time.Date(2026, 12, 1, 0, 59, 58, 0, time.UTC)),
		changed: make(chan struct{}, 64), opened: make(chan reminders.Reminder, 4), window: make(chan reminders.Notification, 16)}
	w.svc = reminders.New(reminders.Options{DB: db, Clock: w.clock, Zone: tokyo})
	w.svc.OnChange(func() {
		select {
		case w.changed <- struct{}{}:
		default:
		}
	})
	w.notifier = NewOnBus(Options{Service: w.svc, Lang: func() string { return lang }, Log: quiet, Icon: AppID,
		OnOpen: func(r reminders.Reminder) { w.opened <- r }}, bus.Connect)
	t.Cleanup(func() { _ = w.notifier.Close() })
	return w
}

// start runs the scheduler through Fanout (desktop + a window recorder).
func (w *world) start(t *testing.T) {
	t.Helper()
	win := NotifierFunc(func(_ context.Context, n reminders.Notification) error { w.window <- n; return nil })
	s, err := reminders.NewScheduler(reminders.SchedulerOptions{Service: w.svc,
		Notifier: Fanout{Desktop: w.notifier, Window: win}, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Stop() })
}

// until waits for a change of the service after which cond holds.
func (w *world) until(t *testing.T, what string, cond func(r reminders.Reminder) bool, id int64) reminders.Reminder {
	t.Helper()
	deadline := time.After(wait)
	for {
		r, err := w.svc.Get(context.Background(), id)
		if err == nil && cond(r) {
			return r
		}
		select {
		case <-w.changed:
		case <-deadline:
			t.Fatalf("timed out waiting for %s (last %+v, %v)", what, r, err)
		}
	}
}

func TestDueReminderIsOneNotifyCallAndSnoozeThenDoneFromTheNotification(t *testing.T) {
	bus := startBus(t)
	srv, err := fakedbus.Serve(bus.Address, []string{"body", "actions"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	w := newWorld(t, bus, "ja")
	ctx := context.Background()
	// Due in 2 s: 10:00:00 JST, now 09:59:58.
	r, err := w.svc.Create(ctx, reminders.NewReminder{Content: "燃えるゴミを出す", Due: "2026-12-01T10:00:00", SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	w.start(t)
	// The rescan job's timer and the reminder's one-time job.
	if err := w.clock.BlockUntilContext(ctx, 2); err != nil {
		t.Fatal(err)
	}
	w.clock.Advance(2 * time.Second)
	call, err := srv.WaitCall(ctx, wait)
	if err != nil {
		t.Fatal(err)
	}
	if call.Body != "燃えるゴミを出す" || call.Summary != "リマインド" || call.AppName != "playchat" {
		t.Errorf("Notify call %+v", call)
	}
	// The icon the package installs, and the desktop entry (issue 22).
	if de, ok := call.Hints["desktop-entry"]; call.AppIcon != AppID || !ok || de.Value() != AppID {
		t.Errorf("icon %q, desktop-entry %v: want %s", call.AppIcon, call.Hints["desktop-entry"], AppID)
	}
	if got := strings.Join(call.ActionKeys(), ","); got != "default,snooze,done" {
		t.Errorf("actions %q, want default,snooze,done", got)
	}
	if !strings.Contains(strings.Join(call.Actions, "|"), "10分後に再通知") {
		t.Errorf("labels %q are not Japanese", call.Actions)
	}
	delivered := w.until(t, "delivery", func(r reminders.Reminder) bool { return r.State == reminders.StateDelivered }, r.ID)
	if delivered.Note != "" || delivered.Late {
		t.Errorf("delivered %+v", delivered)
	}
	select {
	case n := <-w.window:
		if n.Reminder.ID != r.ID {
			t.Errorf("window got %+v", n)
		}
	case <-time.After(wait):
		t.Fatal("the window did not get the reminder")
	}
	// Later rescans do not notify again.
	for i := 0; i < 3; i++ {
		w.clock.Advance(reminders.DefaultRescanEvery)
	}
	if calls := srv.Calls(); len(calls) != 1 {
		t.Fatalf("%d Notify calls, want exactly 1: %+v", len(calls), calls)
	}

	// Snooze 10 min: re-armed 10 minutes after the click.
	clickedAt := w.clock.Now()
	if err := srv.Invoke(call.ID, ActionSnooze); err != nil {
		t.Fatal(err)
	}
	snoozed := w.until(t, "snooze", func(r reminders.Reminder) bool { return r.State == reminders.StateSnoozed }, r.ID)
	if want := clickedAt.Add(10 * time.Minute); !snoozed.DueAt.Equal(want) {
		t.Errorf("snoozed until %v, want %v", snoozed.DueAt, want)
	}
	w.clock.Advance(10 * time.Minute)
	again, err := srv.WaitCall(ctx, wait)
	if err != nil {
		t.Fatal(err)
	}
	if again.Body != "燃えるゴミを出す" {
		t.Errorf("second Notify %+v", again)
	}
	w.until(t, "second delivery", func(r reminders.Reminder) bool { return r.State == reminders.StateDelivered }, r.ID)

	// Done marks it seen (acknowledged); it stays delivered.
	if err := srv.Invoke(again.ID, ActionDone); err != nil {
		t.Fatal(err)
	}
	done := w.until(t, "done", func(r reminders.Reminder) bool { return r.SeenAt != nil }, r.ID)
	if done.State != reminders.StateDelivered || done.Unseen() {
		t.Errorf("after Done: %+v", done)
	}
	if calls := srv.Calls(); len(calls) != 2 {
		t.Errorf("%d Notify calls, want 2 (the first and the snoozed one)", len(calls))
	}
}

func TestClickingTheNotificationOpensTheRemindersChat(t *testing.T) {
	bus := startBus(t)
	srv, err := fakedbus.Serve(bus.Address, []string{"actions"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	w := newWorld(t, bus, "en")
	ctx := context.Background()
	r, err := w.svc.Create(ctx, reminders.NewReminder{Content: "call mum", Due: "2026-12-01T10:00:00", SessionID: "chat-7"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.notifier.Notify(ctx, reminders.Notification{Reminder: r}); err != nil {
		t.Fatal(err)
	}
	call, err := srv.WaitCall(ctx, wait)
	if err != nil {
		t.Fatal(err)
	}
	if call.Summary != "Reminder" || !strings.Contains(strings.Join(call.Actions, "|"), "Snooze 10 min") {
		t.Errorf("Notify call %+v", call)
	}
	if err := srv.Invoke(call.ID, ActionOpen); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-w.opened:
		if got.ID != r.ID || got.SessionID != "chat-7" {
			t.Errorf("opened %+v", got)
		}
	case <-time.After(wait):
		t.Fatal("the click did not open the window")
	}
}

func TestServerWithoutActionsGetsAPlainNotification(t *testing.T) {
	bus := startBus(t)
	srv, err := fakedbus.Serve(bus.Address, []string{"body"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	w := newWorld(t, bus, "en")
	r := reminders.Reminder{ID: 1, Content: "tea"}
	if err := w.notifier.Notify(context.Background(), reminders.Notification{Reminder: r, Late: true}); err != nil {
		t.Fatal(err)
	}
	call, err := srv.WaitCall(context.Background(), wait)
	if err != nil {
		t.Fatal(err)
	}
	if len(call.Actions) != 0 || call.Summary != "Reminder (late)" {
		t.Errorf("Notify call %+v", call)
	}
}

func TestWithoutANotificationServiceTheWindowShowsItAndTheNoteSaysWhy(t *testing.T) {
	bus := startBus(t) // a bus, but nothing owns org.freedesktop.Notifications
	w := newWorld(t, bus, "en")
	ctx := context.Background()
	r, err := w.svc.Create(ctx, reminders.NewReminder{Content: "stretch", Due: "2026-12-01T10:00:00"})
	if err != nil {
		t.Fatal(err)
	}
	w.start(t)
	if err := w.clock.BlockUntilContext(ctx, 2); err != nil {
		t.Fatal(err)
	}
	w.clock.Advance(2 * time.Second)
	got := w.until(t, "delivery", func(r reminders.Reminder) bool { return r.State != reminders.StatePending }, r.ID)
	if got.State != reminders.StateDelivered || got.Note != reminders.NoteNoService || got.Error != "" {
		t.Errorf("stored %+v, want delivered with note %q", got, reminders.NoteNoService)
	}
	select {
	case n := <-w.window:
		if n.Reminder.ID != r.ID {
			t.Errorf("window got %+v", n)
		}
	default:
		t.Error("the window did not get the reminder")
	}
}

func TestNoSessionBusIsNoService(t *testing.T) {
	d := NewOnBus(Options{Service: nil, Log: quiet}, func() (*dbus.Conn, error) { return nil, errors.New("no bus") })
	err := d.Notify(context.Background(), reminders.Notification{Reminder: reminders.Reminder{ID: 1, Content: "x"}})
	if !errors.Is(err, ErrNoService) {
		t.Fatalf("err = %v, want ErrNoService", err)
	}
	err = Fanout{Desktop: d, Window: NotifierFunc(func(context.Context, reminders.Notification) error { return nil })}.
		Notify(context.Background(), reminders.Notification{})
	var deg *reminders.Degraded
	if !errors.As(err, &deg) || deg.Note != reminders.NoteNoService {
		t.Fatalf("fanout err = %v, want Degraded with the no-service note", err)
	}
}

func TestAnAlertIsAPlainNotificationThatReplacesTheLastOne(t *testing.T) {
	bus := startBus(t)
	srv, err := fakedbus.Serve(bus.Address, []string{"body", "actions"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	w := newWorld(t, bus, "en")
	ctx := context.Background()
	if err := w.notifier.Alert(ctx, "Automatic backup failed", "disk full"); err != nil {
		t.Fatal(err)
	}
	first, err := srv.WaitCall(ctx, wait)
	if err != nil {
		t.Fatal(err)
	}
	if first.Summary != "Automatic backup failed" || first.Body != "disk full" || len(first.Actions) != 0 || first.ReplacesID != 0 {
		t.Errorf("first alert %+v", first)
	}
	if err := w.notifier.Alert(ctx, "Automatic backup failed", "still full"); err != nil {
		t.Fatal(err)
	}
	second, err := srv.WaitCall(ctx, wait)
	if err != nil {
		t.Fatal(err)
	}
	if second.Body != "still full" || second.ReplacesID == 0 {
		t.Errorf("the second alert does not replace the first: %+v (first %+v)", second, first)
	}
}
