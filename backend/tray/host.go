package tray

import (
	"context"
	"errors"
	"fmt"

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
	conn, err := dbus.SessionBus()
	if err != nil {
		return false, fmt.Errorf("%w: %v", ErrNoHost, err)
	}
	return hostPresent(ctx, conn)
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
