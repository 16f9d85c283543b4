package main

import (
	"bufio"
	"bytes"
	"errors"
	"image"
	"image/png"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"playchat/backend/tray"
)

// The probe reads and clicks the menu of a real tray on a private bus.
func TestProbeReadsTheMenuAndClicksQuit(t *testing.T) {
	bin, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Skip("dbus-daemon is not installed (Debian package dbus): skipping")
	}
	cmd := exec.Command(bin, "--session", "--print-address", "--nofork")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", strings.TrimSpace(addr))

	var icon bytes.Buffer
	_ = png.Encode(&icon, image.NewNRGBA(image.Rect(0, 0, 8, 8)))
	quit := make(chan struct{}, 1)
	tr, err := tray.Start(tray.Options{Icon: icon.Bytes(), OnQuit: func() { quit <- struct{}{} }})
	if errors.Is(err, tray.ErrStarted) {
		t.Skip("the tray ran earlier in this process (go test -count > 1); fyne.io/systray starts once")
	}
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Stop()
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	items, err := menu(conn)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, it := range items {
		if it.visible {
			labels = append(labels, it.label)
		}
	}
	if got := strings.Join(labels, "|"); got != "Open playchat|New chat|No upcoming reminders|Pause notifications for 1 hour|Quit" {
		t.Errorf("menu = %s", got)
	}
	if err := click(conn, "Quit"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-quit:
	case <-time.After(20 * time.Second):
		t.Fatal("clicking Quit did not reach the tray's OnQuit")
	}
	if err := click(conn, "No such item"); err == nil {
		t.Error("clicking a missing item gave no error")
	}
}
