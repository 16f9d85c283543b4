package tray

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/godbus/dbus/v5"
)

// Well-known names of the StatusNotifierItem protocol.
const (
	// WatcherName is the bus name a tray host's watcher owns.
	WatcherName = "org.kde.StatusNotifierWatcher"
	// WatcherPath is the watcher's object path.
	WatcherPath = "/StatusNotifierWatcher"
)

// ErrNoHost says why the window closes instead of hiding: nothing on the
// session bus shows tray icons.
var ErrNoHost = errors.New("no system tray on this desktop (no StatusNotifierWatcher on the D-Bus session bus)")

// HostPresent reports whether the desktop shows tray icons: a
// StatusNotifierWatcher owns its name on the session bus and, when it says,
// a host (the panel that draws the icons) has registered with it. A nil
// error with false, or an error (no session bus), both mean no tray; the
// error then says why. Needs no running tray.
func HostPresent(ctx context.Context) (bool, error) {
	conn, err := sessionBus()
	if err != nil {
		return false, fmt.Errorf("%w: %v", ErrNoHost, err)
	}
	return hostPresent(ctx, conn)
}

// sessionBus returns the shared session bus connection (the one systray
// uses). Without DBUS_SESSION_BUS_ADDRESS it fails at once instead of
// letting godbus run dbus-launch, which would start a stray bus (and an X
// client) for a process that has no desktop session.
func sessionBus() (*dbus.Conn, error) {
	if a := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); a == "" || a == "autolaunch:" {
		return nil, errors.New("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)")
	}
	return dbus.SessionBus()
}

func hostPresent(ctx context.Context, conn *dbus.Conn) (bool, error) {
	var owned bool
	if err := conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.NameHasOwner", 0, WatcherName).Store(&owned); err != nil {
		return false, fmt.Errorf("%w: %v", ErrNoHost, err)
	}
	if !owned {
		return false, ErrNoHost
	}
	// A watcher without a host (a panel applet that was removed) shows
	// nothing; a watcher that does not answer the property is trusted.
	var v dbus.Variant
	err := conn.Object(WatcherName, WatcherPath).CallWithContext(ctx, "org.freedesktop.DBus.Properties.Get", 0,
		WatcherName, "IsStatusNotifierHostRegistered").Store(&v)
	if err == nil {
		if registered, ok := v.Value().(bool); ok && !registered {
			return false, fmt.Errorf("%w: the watcher has no registered host", ErrNoHost)
		}
	}
	return true, nil
}
