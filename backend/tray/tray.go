// Package tray puts playchat in the desktop's system tray (issue 10): an
// icon that gets a red badge while reminders delivered with the window
// hidden wait to be seen, and a menu with Open playchat, New chat, the next
// three reminders, Pause notifications for 1 hour and Quit, in Japanese or
// English.
//
// On Linux it speaks the StatusNotifierItem and com.canonical.dbusmenu
// D-Bus protocols through fyne.io/systray, started with
// RunWithExternalLoop: it runs no GTK loop of its own, so it does not fight
// the Wails window's. The tray shows only where a tray host runs (a
// StatusNotifierWatcher on the session bus; see HostPresent). fyne.io/systray
// keeps its state in package globals, so a process has at most one tray,
// started once.
package tray

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/systray"

	"playchat/backend/reminders"
)

// MenuReminders is how many upcoming reminders the menu lists.
const MenuReminders = 3

// PauseFor is how long "Pause notifications for 1 hour" pauses.
const PauseFor = time.Hour

// Source is what the tray reads reminders from (*reminders.Service).
type Source interface {
	// List returns reminders by due time (active ones unless o.All).
	List(ctx context.Context, o reminders.ListOptions) ([]reminders.Reminder, error)
	// OnChange registers fn to run after every change; fn must not block.
	OnChange(fn func())
}

// Options configure Start. The On* callbacks run on the tray's own
// goroutines and must not block for long.
type Options struct {
	// Icon is the app icon (PNG of any size, e.g. build/appicon.png).
	Icon []byte
	// Language returns "ja" or "en" (UI_LANGUAGE resolved), read at every
	// refresh; nil = English.
	Language func() string
	// Reminders lists the upcoming reminders; nil shows none.
	Reminders Source
	// Pause is toggled by the Pause item; nil = a private one.
	Pause *reminders.Pause
	// Zone is the zone menu times are written in; nil = time.Local.
	Zone *time.Location
	// Now is the clock; nil = time.Now.
	Now func() time.Time
	// OnOpen runs on "Open playchat" (and activating the icon).
	OnOpen func()
	// OnNewChat runs on "New chat".
	OnNewChat func()
	// OnReminder runs when one of the listed reminders is chosen.
	OnReminder func(reminders.Reminder)
	// Status, when set, returns a one-line state shown as a disabled item
	// under the reminders (e.g. "Discord: connected as playchat-bot"),
	// worded for lang ("ja" or "en"); "" hides the item. Read at every
	// refresh (call Refresh when it changes); it must not block.
	Status func(lang string) string
	// OnQuit runs on "Quit": the app should end (Stop is called from its
	// shutdown).
	OnQuit func()
	// Log receives refresh errors; nil = slog.Default().
	Log *slog.Logger
	// HiddenSince, when not zero, starts the tray with the window hidden
	// since then (a start hidden in the tray: reminders delivered late at
	// start-up badge the icon). Zero = the window is shown.
	HiddenSince time.Time
}

// ErrStarted is returned by a second Start in one process.
var ErrStarted = errors.New("tray: already started in this process")

var started atomic.Bool

// Tray is the running tray icon and menu.
type Tray struct {
	o             Options
	plain, badged []byte
	end           func()
	kick          chan struct{}
	done          chan struct{}
	wg            sync.WaitGroup
	stopOnce      sync.Once
	open, newChat *systray.MenuItem
	none, pause   *systray.MenuItem
	status        *systray.MenuItem
	quit          *systray.MenuItem
	slots         [MenuReminders]*systray.MenuItem
	mu            sync.Mutex
	listed        [MenuReminders]reminders.Reminder
	hiddenSince   time.Time
	badge         bool
	refreshed     chan struct{} // closed and replaced after each refresh
	// shown is each item's last title and visibility, so a refresh sends
	// D-Bus signals only for what changed.
	shown map[*systray.MenuItem]itemState
}

type itemState struct {
	title   string
	visible bool
}

// Start shows the tray icon on the session bus (DBUS_SESSION_BUS_ADDRESS)
// and returns once its menu is built. It registers with the
// StatusNotifierWatcher now and again whenever a watcher appears later; with
// no watcher the item waits unseen. Errors: no session bus, an undecodable
// icon, ErrStarted.
func Start(o Options) (*Tray, error) {
	if !started.CompareAndSwap(false, true) {
		return nil, ErrStarted
	}
	t, err := start(o)
	if err != nil {
		started.Store(false)
	}
	return t, err
}

func start(o Options) (*Tray, error) {
	if o.Pause == nil {
		o.Pause = &reminders.Pause{}
	}
	if o.Zone == nil {
		o.Zone = time.Local
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	plain, badged, err := Icons(o.Icon, IconSize)
	if err != nil {
		return nil, err
	}
	// systray connects to the shared session bus connection without
	// reporting a failure; connecting first makes one an error here.
	if _, err := sessionBus(); err != nil {
		return nil, fmt.Errorf("tray: session bus: %w", err)
	}
	t := &Tray{o: o, plain: plain, badged: badged, kick: make(chan struct{}, 1), hiddenSince: o.HiddenSince,
		done: make(chan struct{}), refreshed: make(chan struct{}), shown: map[*systray.MenuItem]itemState{}}
	l := t.labels()
	// Set before start: the item's properties are exported with them.
	systray.SetIcon(plain)
	systray.SetTitle("playchat")
	systray.SetTooltip(l.Tooltip)
	systray.SetOnTapped(func() { call(o.OnOpen) })
	ready := make(chan struct{})
	begin, end := systray.RunWithExternalLoop(func() { t.build(l); close(ready) }, nil)
	t.end = end
	begin()
	<-ready
	if o.Reminders != nil {
		o.Reminders.OnChange(t.Refresh)
	}
	o.Pause.OnChange(t.Refresh)
	t.refresh()
	t.wg.Add(1)
	go t.loop()
	return t, nil
}

func call(fn func()) {
	if fn != nil {
		fn()
	}
}

func (t *Tray) labels() labels { return labelsFor(t.lang()) }

// lang is the menu's language: "ja" or "en".
func (t *Tray) lang() string {
	if t.o.Language != nil && t.o.Language() == "ja" {
		return "ja"
	}
	return "en"
}

// build adds the menu items (systray's onReady) and a goroutine per item
// waiting for its clicks.
func (t *Tray) build(l labels) {
	t.open = systray.AddMenuItem(l.Open, "")
	t.newChat = systray.AddMenuItem(l.NewChat, "")
	systray.AddSeparator()
	for i := range t.slots {
		t.slots[i] = systray.AddMenuItem("", "")
		t.slots[i].Hide()
	}
	t.none = systray.AddMenuItem(l.NoReminders, "")
	t.none.Disable()
	systray.AddSeparator()
	t.status = systray.AddMenuItem("", "")
	t.status.Disable()
	t.status.Hide()
	t.pause = systray.AddMenuItemCheckbox(l.Pause, "", false)
	systray.AddSeparator()
	t.quit = systray.AddMenuItem(l.Quit, "")

	t.onClick(t.open, func() { call(t.o.OnOpen) })
	t.onClick(t.newChat, func() { call(t.o.OnNewChat) })
	for i := range t.slots {
		i := i
		t.onClick(t.slots[i], func() {
			t.mu.Lock()
			r := t.listed[i]
			t.mu.Unlock()
			if r.ID != 0 && t.o.OnReminder != nil {
				t.o.OnReminder(r)
			}
		})
	}
	t.onClick(t.pause, func() {
		if t.o.Pause.Paused() {
			t.o.Pause.Resume()
		} else {
			t.o.Pause.For(PauseFor)
		}
	})
	t.onClick(t.quit, func() { call(t.o.OnQuit) })
}

func (t *Tray) onClick(item *systray.MenuItem, fn func()) {
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		for {
			select {
			case <-item.ClickedCh:
				fn()
			case <-t.done:
				return
			}
		}
	}()
}

// Refresh re-reads the reminders, the pause and the language and updates
// the menu and icon soon (on the tray's goroutine). It never blocks.
func (t *Tray) Refresh() {
	select {
	case t.kick <- struct{}{}:
	default:
	}
}

// SetWindowVisible tells the tray whether the window is shown. Reminders
// delivered while it is hidden badge the icon until it is shown again.
func (t *Tray) SetWindowVisible(visible bool) {
	t.mu.Lock()
	switch {
	case visible:
		t.hiddenSince = time.Time{}
	case t.hiddenSince.IsZero():
		t.hiddenSince = t.o.Now()
	}
	t.mu.Unlock()
	t.Refresh()
}

// Badged reports whether the icon shows the badge now.
func (t *Tray) Badged() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.badge
}

// Pause returns the pause the menu toggles (the notifier's Pauser).
func (t *Tray) Pause() *reminders.Pause { return t.o.Pause }

// refreshedAfter returns a channel closed by the next refresh (tests).
func (t *Tray) refreshedAfter() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.refreshed
}

func (t *Tray) loop() {
	defer t.wg.Done()
	var pauseEnd <-chan time.Time
	var timer *time.Timer
	for {
		select {
		case <-t.done:
			if timer != nil {
				timer.Stop()
			}
			return
		case <-t.kick:
		case <-systray.TrayOpenedCh:
			// Reminders added by the CLI (another process) show when the
			// menu is opened.
		case <-pauseEnd:
		}
		t.refresh()
		// Wake when the pause runs out, to relabel the Pause item.
		if timer != nil {
			timer.Stop()
			timer, pauseEnd = nil, nil
		}
		if until, ok := t.o.Pause.Until(); ok {
			timer = time.NewTimer(until.Sub(t.o.Now()))
			pauseEnd = timer.C
		}
	}
}

// refresh updates labels, the listed reminders and the badge.
func (t *Tray) refresh() {
	l := t.labels()
	now := t.o.Now()
	var upcoming, all []reminders.Reminder
	if t.o.Reminders != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		var err error
		if all, err = t.o.Reminders.List(ctx, reminders.ListOptions{All: true}); err != nil {
			t.o.Log.Warn("tray: list reminders", "err", err)
		}
		cancel()
		for _, r := range all {
			if r.Active() {
				upcoming = append(upcoming, r)
			}
		}
	}
	t.set(t.open, l.Open, true)
	t.set(t.newChat, l.NewChat, true)
	t.set(t.quit, l.Quit, true)
	t.set(t.none, l.NoReminders, len(upcoming) == 0)
	if t.o.Status != nil {
		line := t.o.Status(t.lang())
		t.set(t.status, line, line != "")
	}
	t.mu.Lock()
	for i := range t.slots {
		t.listed[i] = reminders.Reminder{}
		if i < len(upcoming) {
			t.listed[i] = upcoming[i]
		}
	}
	n := unseen(all, t.hiddenSince)
	wasBadged := t.badge
	t.badge = n > 0
	t.mu.Unlock()
	for i, item := range t.slots {
		if i < len(upcoming) {
			t.set(item, reminderLabel(upcoming[i], now, t.o.Zone, l), true)
		} else {
			t.set(item, "", false)
		}
	}
	until, paused := t.o.Pause.Until()
	if paused {
		t.set(t.pause, fmt.Sprintf(l.PausedUntil, until.In(t.o.Zone).Format("15:04")), true)
	} else {
		t.set(t.pause, l.Pause, true)
	}
	if paused != t.pause.Checked() {
		if paused {
			t.pause.Check()
		} else {
			t.pause.Uncheck()
		}
	}
	switch {
	case n > 0 && !wasBadged:
		systray.SetIcon(t.badged)
	case n == 0 && wasBadged:
		systray.SetIcon(t.plain)
	}
	if n > 0 {
		systray.SetTooltip(fmt.Sprintf(l.TooltipUnseen, n))
	} else {
		systray.SetTooltip(l.Tooltip)
	}
	t.mu.Lock()
	close(t.refreshed)
	t.refreshed = make(chan struct{})
	t.mu.Unlock()
}

// set gives item its title and visibility, sending only what changed.
// Only the refresh goroutine (and start, before it runs) calls it.
func (t *Tray) set(item *systray.MenuItem, title string, visible bool) {
	old, known := t.shown[item]
	if !known || old.title != title {
		item.SetTitle(title)
	}
	if !known || old.visible != visible {
		if visible {
			item.Show()
		} else {
			item.Hide()
		}
	}
	t.shown[item] = itemState{title, visible}
}

// Stop removes the tray icon and ends its goroutines. It closes the shared
// session bus connection (dbus.SessionBus) that systray used: call it last
// at shutdown. Safe to call more than once.
func (t *Tray) Stop() {
	t.stopOnce.Do(func() {
		close(t.done)
		t.wg.Wait()
		func() {
			// systray's end panics when its start could not export the
			// item (no connection kept); there is nothing left to undo.
			defer func() { _ = recover() }()
			t.end()
		}()
	})
}
