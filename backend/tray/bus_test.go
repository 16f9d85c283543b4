package tray

import (
	"bufio"
	"os/exec"
	"strings"
	"testing"

	"github.com/godbus/dbus/v5"
	"github.com/godbus/dbus/v5/prop"
)

// startSessionBus starts a private D-Bus session bus for the test
// (`dbus-daemon --session --print-address --nofork`) and returns its
// address; the daemon is killed when the test ends. Without dbus-daemon
// (Debian package dbus) the test is skipped.
func startSessionBus(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Skip("dbus-daemon is not installed (Debian package dbus; scripts/deps.sh installs it): skipping the D-Bus tray test")
	}
	cmd := exec.Command(bin, "--session", "--print-address", "--nofork")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal("start dbus-daemon:", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal("read the bus address from dbus-daemon:", err)
	}
	addr := strings.TrimSpace(line)
	if addr == "" {
		t.Fatal("dbus-daemon printed no address")
	}
	return addr
}

// registration is one RegisterStatusNotifierItem call.
type registration struct {
	sender  string // the caller's unique bus name
	service string // the argument: a bus name or an object path
}

// fakeWatcher is an org.kde.StatusNotifierWatcher that records the items
// registering with it and says a host is registered.
type fakeWatcher struct{ reg chan registration }

func (w *fakeWatcher) RegisterStatusNotifierItem(sender dbus.Sender, service string) *dbus.Error {
	select {
	case w.reg <- registration{string(sender), service}:
	default:
	}
	return nil
}

func (w *fakeWatcher) RegisterStatusNotifierHost(string) *dbus.Error { return nil }

// startWatcher exports a fakeWatcher on the bus at addr under the
// watcher's well-known name.
func startWatcher(t *testing.T, addr string) *fakeWatcher {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal("connect the watcher:", err)
	}
	t.Cleanup(func() { conn.Close() })
	w := &fakeWatcher{reg: make(chan registration, 8)}
	if err := conn.Export(w, WatcherPath, WatcherName); err != nil {
		t.Fatal(err)
	}
	if _, err := prop.Export(conn, WatcherPath, map[string]map[string]*prop.Prop{WatcherName: {
		"IsStatusNotifierHostRegistered": {Value: true},
		"RegisteredStatusNotifierItems":  {Value: []string{}},
		"ProtocolVersion":                {Value: int32(0)},
	}}); err != nil {
		t.Fatal(err)
	}
	reply, err := conn.RequestName(WatcherName, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own %s: reply %v, %v", WatcherName, reply, err)
	}
	return w
}
