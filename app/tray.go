package app

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"playchat/backend/autostart"
	"playchat/backend/config"
	"playchat/backend/core"
	"playchat/backend/reminders"
	"playchat/backend/tray"
)

// Icon is the app icon (build/appicon.png), set by main; the tray draws it.
var Icon []byte

// Events the tray sends the window.
const (
	// EventTrayNewChat asks the window to open a new, empty chat.
	EventTrayNewChat = "tray:newChat"
	// EventTrayOpenSession asks the window to open a chat; data is the
	// session id (a string).
	EventTrayOpenSession = "tray:openSession"
)

// hostTimeout bounds the D-Bus question "is there a tray?".
const hostTimeout = 2 * time.Second

// desktop is the window's tray, close-to-tray and start-at-login state.
// Its zero value works (no tray yet).
type desktop struct {
	// pause is the tray's "Pause notifications for 1 hour": the desktop
	// notifier consults it (App.NotificationPause).
	pause reminders.Pause

	mu           sync.Mutex
	tray         trayUI
	stopped      bool
	autostartErr error

	// quitting is set by Quit so BeforeClose lets the window close.
	quitting atomic.Bool
	// hiddenAt is when the window started hidden in the tray (zero when
	// it started shown).
	hiddenAt time.Time

	// hostPresent answers whether a tray host runs (nil = tray.HostPresent).
	hostPresent func(context.Context) (bool, error)
}

// trayUI is the running tray icon (*tray.Tray; tests pass a fake).
type trayUI interface {
	SetWindowVisible(visible bool)
	Refresh()
	Stop()
}

func (d *desktop) hostCheck(ctx context.Context) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, hostTimeout)
	defer cancel()
	if d.hostPresent != nil {
		return d.hostPresent(ctx)
	}
	return tray.HostPresent(ctx)
}

// NotificationPause is the tray's pause: a notifier skips the desktop
// pop-up while it is Paused (the reminder is still delivered in the window).
func (a *App) NotificationPause() reminders.Pauser { return &a.desk.pause }

// StartHidden reports whether the window should start hidden in the tray
// (options.App.StartHidden), and remembers it: args (os.Args[1:]) hold
// --hidden (the autostart entry's) and a tray host runs to show it from.
// Without a tray the window opens as usual. Call it before wails.Run.
func (a *App) StartHidden(args []string) bool {
	if !slices.Contains(args, autostart.HiddenFlag) {
		return false
	}
	ok, err := a.desk.hostCheck(context.Background())
	if !ok {
		slog.Info("starting with the window shown: --hidden needs a system tray", "reason", err)
	}
	if ok {
		a.desk.hiddenAt = time.Now()
	}
	return ok
}

// startDesktop starts the tray (where the session bus has one) and renews
// the autostart entry when START_AT_LOGIN is on (the binary may have
// moved). Startup runs it in a goroutine: nothing here may block the window.
func (a *App) startDesktop(ctx context.Context, c *core.Core) {
	if c.Config().StartAtLogin {
		a.setAutostart(true)
	}
	t, err := tray.Start(tray.Options{
		Icon:       Icon,
		Language:   func() string { return uiLanguage(c) },
		Reminders:  c.Reminders,
		Pause:      &a.desk.pause,
		Zone:       c.Reminders.Zone(),
		OnOpen:     func() { a.showWindow() },
		OnNewChat:  func() { a.showWindow(); a.emit(EventTrayNewChat, nil) },
		OnReminder: func(r reminders.Reminder) { a.showWindow(); a.emit(EventTrayOpenSession, r.SessionID) },
		OnQuit:     func() { a.Quit() },
		Status:     a.discordTrayLine,
		Log:        c.Log,
		// Reminders delivered late at start-up badge a hidden window's icon.
		HiddenSince: a.desk.hiddenAt,
	})
	if err != nil {
		c.Log.Info("no system tray icon", "err", err)
		return
	}
	a.desk.mu.Lock()
	defer a.desk.mu.Unlock()
	if a.desk.stopped {
		go t.Stop()
		return
	}
	a.desk.tray = t
}

// stopDesktop removes the tray icon (Shutdown, after the core closed: the
// tray closes the shared session bus connection).
func (a *App) stopDesktop() {
	a.desk.mu.Lock()
	t := a.desk.tray
	a.desk.tray, a.desk.stopped = nil, true
	a.desk.mu.Unlock()
	if t != nil {
		t.Stop()
	}
}

func (a *App) trayIcon() trayUI {
	a.desk.mu.Lock()
	defer a.desk.mu.Unlock()
	return a.desk.tray
}

func (a *App) emit(name string, data any) {
	if p := a.plat(); p != nil {
		p.Emit(name, data)
	}
}

// showWindow shows the (possibly hidden) window and tells the tray.
func (a *App) showWindow() {
	if p := a.plat(); p != nil {
		p.Show()
	}
	if t := a.trayIcon(); t != nil {
		t.SetWindowVisible(true)
	}
}

// Quit ends the app cleanly (the tray's Quit): Wails runs Shutdown, which
// stores running turns and closes the database.
func (a *App) Quit() {
	a.quit()
}

// quit ends the app through the platform (the self-test's end too):
// BeforeClose lets it through instead of hiding the window.
func (a *App) quit() {
	a.desk.quitting.Store(true)
	if p := a.plat(); p != nil {
		p.Quit()
	}
}

// BeforeClose is options.App.OnBeforeClose: closing the window hides it to
// the tray (returning true keeps the app running) while CLOSE_TO_TRAY is on,
// the tray icon runs and a tray host shows it; otherwise the app quits as
// before. Quit (the tray's) always quits.
func (a *App) BeforeClose(ctx context.Context) bool {
	if a.desk.quitting.Load() {
		return false
	}
	c, err := a.backend()
	if err != nil || !c.Config().CloseToTray {
		return false
	}
	t := a.trayIcon()
	if t == nil {
		return false
	}
	if ok, err := a.desk.hostCheck(ctx); !ok {
		c.Log.Info("closing quits: no system tray to hide in", "err", err)
		return false
	}
	if p := a.plat(); p != nil {
		p.Hide()
	}
	t.SetWindowVisible(false)
	return true
}

// applyDesktopSettings follows saved settings: the autostart entry for
// START_AT_LOGIN (written or removed when it differs) and the tray's
// language.
func (a *App) applyDesktopSettings(c *core.Core) {
	cfg := c.Config()
	environ := os.Environ()
	if cfg.StartAtLogin != autostart.Enabled(environ) || (!autostart.Supported(runtime.GOOS) && cfg.StartAtLogin) {
		a.setAutostart(cfg.StartAtLogin)
	} else {
		a.desk.mu.Lock()
		a.desk.autostartErr = nil
		a.desk.mu.Unlock()
	}
	if t := a.trayIcon(); t != nil {
		t.Refresh()
	}
}

// setAutostart writes or removes the autostart entry; a failure is kept
// for Settings to show.
func (a *App) setAutostart(on bool) {
	exe, err := autostart.Executable()
	if err == nil || !on {
		err = autostart.Set(on, exe, os.Environ())
	}
	if err != nil {
		slog.Warn("start at login", "on", on, "err", err)
	}
	a.desk.mu.Lock()
	a.desk.autostartErr = err
	a.desk.mu.Unlock()
}

// DesktopStatus tells Settings what closing the window and start-at-login
// do on this desktop.
type DesktopStatus struct {
	// TrayAvailable is true while a tray host shows playchat's icon, so
	// closing the window hides it (with CLOSE_TO_TRAY on).
	TrayAvailable bool `json:"trayAvailable"`
	// TrayReason says why there is no tray ("" when there is), in English.
	TrayReason string `json:"trayReason"`
	// AutostartSupported is false where START_AT_LOGIN cannot work yet
	// (Windows, macOS).
	AutostartSupported bool `json:"autostartSupported"`
	// AutostartError is the last failure writing or removing the autostart
	// entry ("" when none), in English.
	AutostartError string `json:"autostartError"`
}

// desktopStatus answers Settings (SettingsView.Desktop).
func (a *App) desktopStatus(ctx context.Context) DesktopStatus {
	st := DesktopStatus{AutostartSupported: autostart.Supported(runtime.GOOS)}
	ok, err := a.desk.hostCheck(ctx)
	if ok && a.trayIcon() == nil {
		ok, err = false, errors.New("the tray icon could not be started (see the log)")
	}
	st.TrayAvailable = ok
	if !ok {
		st.TrayReason = "no system tray"
		if err != nil {
			st.TrayReason = err.Error()
		}
	}
	a.desk.mu.Lock()
	if a.desk.autostartErr != nil {
		st.AutostartError = a.desk.autostartErr.Error()
	}
	a.desk.mu.Unlock()
	return st
}

// uiLanguage resolves UI_LANGUAGE ("auto" follows the OS locale) to "ja"
// or "en" (config.UILanguageOf).
func uiLanguage(c *core.Core) string { return config.UILanguageOf(c.Config().UILanguage, os.Getenv) }
