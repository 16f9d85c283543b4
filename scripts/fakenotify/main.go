// Command fakenotify is a fake desktop notification server for the
// end-to-end test and manual checks (issue 10): it owns
// org.freedesktop.Notifications on a D-Bus session bus and prints every
// Notify call as a JSON line on stdout, so a shell can see that a reminder
// arrived, with its text and when:
//
//	go run ./scripts/fakenotify                 # on $DBUS_SESSION_BUS_ADDRESS
//	go run ./scripts/fakenotify -private        # starts its own dbus-daemon
//	go run ./scripts/fakenotify -act snooze     # clicks "Snooze 10 min" on each
//
// The first line is {"event":"ready","address":…}: with -private, export
// that address as DBUS_SESSION_BUS_ADDRESS for the app. Then one line per
// call: {"event":"notify","id":1,"summary":"リマインド","body":"…",
// "actions":["default","開く",…],"at":"2026-12-01T00:00:03.012Z"}; "at" is
// when the call arrived (UTC, ms). Lines "invoke ID KEY" on stdin play the
// person choosing action KEY (default, snooze, done) on notification ID.
// It ends on SIGINT/SIGTERM or when stdin closes with -stdin.
//
// It fails when another notification daemon already owns the name: run it
// on a bus of its own (-private, or under dbus-run-session).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	fakedbus "playchat/backend/reminders/desktop/desktoptest"
)

type line struct {
	Event   string   `json:"event"`
	Address string   `json:"address,omitempty"`
	ID      uint32   `json:"id,omitempty"`
	AppName string   `json:"appName,omitempty"`
	AppIcon string   `json:"appIcon,omitempty"`
	Summary string   `json:"summary,omitempty"`
	Body    string   `json:"body,omitempty"`
	Actions []string `json:"actions,omitempty"`
	Key     string   `json:"key,omitempty"`
	At      string   `json:"at,omitempty"`
	Error   string   `json:"error,omitempty"`
}

func main() {
	private := flag.Bool("private", false, "start a private dbus-daemon and serve on it (its address is printed first)")
	caps := flag.String("caps", "body,actions", "comma-separated server capabilities (without \"actions\" the app sends no buttons)")
	act := flag.String("act", "", "invoke this action (default, snooze, done) on every notification right after printing it")
	stdin := flag.Bool("stdin", false, "exit when stdin closes (otherwise stdin is read for \"invoke ID KEY\" lines until a signal)")
	flag.Parse()

	out := json.NewEncoder(os.Stdout)
	out.SetEscapeHTML(false)
	fail := func(err error) {
		_ = out.Encode(line{Event: "error", Error: err.Error()})
		os.Exit(1)
	}

	address := os.Getenv("DBUS_SESSION_BUS_ADDRESS")
	var bus *fakedbus.Bus
	if *private {
		b, err := fakedbus.StartBus(10 * time.Second)
		if err != nil {
			fail(err)
		}
		bus, address = b, b.Address
	}
	if address == "" {
		fail(fmt.Errorf("no session bus: set DBUS_SESSION_BUS_ADDRESS or pass -private"))
	}
	srv, err := fakedbus.Serve(address, strings.Split(*caps, ","))
	if err != nil {
		_ = bus.Close()
		fail(err)
	}
	shutdown := func(code int) {
		_ = srv.Close()
		_ = bus.Close()
		os.Exit(code)
	}
	_ = out.Encode(line{Event: "ready", Address: address})

	go func() {
		for c := range srv.C {
			_ = out.Encode(line{Event: "notify", ID: c.ID, AppName: c.AppName, AppIcon: c.AppIcon, Summary: c.Summary, Body: c.Body,
				Actions: c.Actions, At: c.At.UTC().Format("2006-01-02T15:04:05.000Z07:00")})
			if *act != "" {
				err := srv.Invoke(c.ID, *act)
				l := line{Event: "invoked", ID: c.ID, Key: *act, At: time.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00")}
				if err != nil {
					l.Error = err.Error()
				}
				_ = out.Encode(l)
			}
		}
	}()

	stdinDone := make(chan struct{})
	go func() {
		defer close(stdinDone)
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) != 3 || f[0] != "invoke" {
				_ = out.Encode(line{Event: "error", Error: "usage: invoke ID KEY"})
				continue
			}
			id, err := strconv.ParseUint(f[1], 10, 32)
			if err == nil {
				err = srv.Invoke(uint32(id), f[2])
			}
			l := line{Event: "invoked", ID: uint32(id), Key: f[2], At: time.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00")}
			if err != nil {
				l.Error = err.Error()
			}
			_ = out.Encode(l)
		}
	}()

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	if *stdin {
		select {
		case <-sig:
		case <-stdinDone:
		}
	} else {
		<-sig
	}
	shutdown(0)
}
