// Package desktoptest runs a private D-Bus session bus (dbus-daemon started
// for a test) and a fake freedesktop notification server on it
// (org.freedesktop.Notifications: GetCapabilities, GetServerInformation,
// Notify, CloseNotification; the ActionInvoked and NotificationClosed
// signals), so tests and scripts/fakenotify can see every Notify call and
// play the person clicking an action.
package desktoptest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"
)

// The freedesktop notification service's names.
const (
	ServiceName = "org.freedesktop.Notifications"
	ObjectPath  = dbus.ObjectPath("/org/freedesktop/Notifications")
	Interface   = "org.freedesktop.Notifications"
)

// Closing reasons of the NotificationClosed signal (the spec's numbers).
const (
	ReasonExpired   uint32 = 1
	ReasonDismissed uint32 = 2
	ReasonByCall    uint32 = 3
)

// ErrNoDaemon is returned by StartBus when dbus-daemon is not installed
// (Debian package dbus-daemon, or dbus).
var ErrNoDaemon = errors.New("dbus-daemon is not installed (Debian: apt-get install dbus-daemon)")

// Bus is a private session bus run by dbus-daemon.
type Bus struct {
	// Address is the bus address (DBUS_SESSION_BUS_ADDRESS's form).
	Address string
	cmd     *exec.Cmd
}

// StartBus starts `dbus-daemon --session --print-address --nofork` and waits
// (up to timeout) for the address it prints. Close stops it.
func StartBus(timeout time.Duration) (*Bus, error) {
	path, err := exec.LookPath("dbus-daemon")
	if err != nil {
		return nil, ErrNoDaemon
	}
	cmd := exec.Command(path, "--session", "--print-address", "--nofork")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start dbus-daemon: %w", err)
	}
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		lines <- strings.TrimSpace(line)
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case addr := <-lines:
		if addr == "" {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return nil, errors.New("dbus-daemon printed no address")
		}
		return &Bus{Address: addr, cmd: cmd}, nil
	case <-time.After(timeout):
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("dbus-daemon printed no address within %v", timeout)
	}
}

// Close stops the daemon.
func (b *Bus) Close() error {
	if b == nil || b.cmd == nil || b.cmd.Process == nil {
		return nil
	}
	_ = b.cmd.Process.Kill()
	_ = b.cmd.Wait()
	return nil
}

// Connect opens a new connection to the bus (authenticated, Hello done).
func (b *Bus) Connect() (*dbus.Conn, error) { return dbus.Connect(b.Address) }

// Call is one Notify call the server received.
type Call struct {
	// ID is the id the server answered with.
	ID         uint32
	AppName    string
	ReplacesID uint32
	AppIcon    string
	Summary    string
	Body       string
	// Actions alternate key and label, as on the wire.
	Actions []string
	Hints   map[string]dbus.Variant
	// Timeout is expire_timeout in milliseconds (-1 = server default, 0 = never).
	Timeout int32
	// At is when the call arrived (time.Now).
	At time.Time
}

// ActionKeys returns the keys of c's actions.
func (c Call) ActionKeys() []string {
	var keys []string
	for i := 0; i+1 < len(c.Actions); i += 2 {
		keys = append(keys, c.Actions[i])
	}
	return keys
}

// Server is a fake notification server. Safe for concurrent use.
type Server struct {
	conn *dbus.Conn
	caps []string
	// C receives every Notify call (buffered; a full channel drops it).
	C chan Call

	mu     sync.Mutex
	calls  []Call
	closed []uint32
	nextID uint32
}

// Serve connects to the bus at address, exports the notification service
// with capabilities caps (e.g. "body", "actions") and owns its name.
func Serve(address string, caps []string) (*Server, error) {
	conn, err := dbus.Connect(address)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", address, err)
	}
	s := &Server{conn: conn, caps: append([]string(nil), caps...), C: make(chan Call, 64)}
	if err := conn.Export(methods{s}, ObjectPath, Interface); err != nil {
		conn.Close()
		return nil, err
	}
	reply, err := conn.RequestName(ServiceName, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		conn.Close()
		return nil, fmt.Errorf("own %s: reply %v, %v", ServiceName, reply, err)
	}
	return s, nil
}

// Calls returns the Notify calls so far.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// Closed returns the ids CloseNotification was called with.
func (s *Server) Closed() []uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]uint32(nil), s.closed...)
}

// Invoke plays the person choosing action key on notification id: it
// emits ActionInvoked, then NotificationClosed (dismissed), as a server
// does for a non-resident notification.
func (s *Server) Invoke(id uint32, key string) error {
	if err := s.conn.Emit(ObjectPath, Interface+".ActionInvoked", id, key); err != nil {
		return err
	}
	return s.conn.Emit(ObjectPath, Interface+".NotificationClosed", id, ReasonDismissed)
}

// Close releases the name and closes the connection.
func (s *Server) Close() error {
	_, _ = s.conn.ReleaseName(ServiceName)
	return s.conn.Close()
}

// methods holds the exported D-Bus methods (kept off Server so its Go API
// is not exported on the bus).
type methods struct{ s *Server }

// GetCapabilities returns the server's capabilities.
func (m methods) GetCapabilities() ([]string, *dbus.Error) {
	return append([]string{}, m.s.caps...), nil
}

// GetServerInformation names the fake server.
func (m methods) GetServerInformation() (string, string, string, string, *dbus.Error) {
	return "playchat-fakenotify", "playchat", "1.0", "1.2", nil
}

// Notify records a call and answers a new id (or replacesID when set).
func (m methods) Notify(appName string, replacesID uint32, appIcon, summary, body string,
	actions []string, hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	s := m.s
	s.mu.Lock()
	id := replacesID
	if id == 0 {
		s.nextID++
		id = s.nextID
	}
	c := Call{ID: id, AppName: appName, ReplacesID: replacesID, AppIcon: appIcon, Summary: summary, Body: body,
		Actions: append([]string(nil), actions...), Hints: hints, Timeout: timeout, At: time.Now()}
	s.calls = append(s.calls, c)
	s.mu.Unlock()
	select {
	case s.C <- c:
	default:
	}
	return id, nil
}

// CloseNotification records the call and emits NotificationClosed.
func (m methods) CloseNotification(id uint32) *dbus.Error {
	m.s.mu.Lock()
	m.s.closed = append(m.s.closed, id)
	m.s.mu.Unlock()
	if err := m.s.conn.Emit(ObjectPath, Interface+".NotificationClosed", id, ReasonByCall); err != nil {
		return dbus.MakeFailedError(err)
	}
	return nil
}

// WaitCall returns the next Notify call from s.C, or an error after timeout
// or when ctx ends.
func (s *Server) WaitCall(ctx context.Context, timeout time.Duration) (Call, error) {
	select {
	case c := <-s.C:
		return c, nil
	case <-time.After(timeout):
		return Call{}, fmt.Errorf("no Notify call within %v", timeout)
	case <-ctx.Done():
		return Call{}, ctx.Err()
	}
}
