// Command trayprobe checks playchat's tray icon on a desktop without a
// tray (Xvfb, CI): it plays the panel's part over D-Bus.
//
//	trayprobe watch          own org.kde.StatusNotifierWatcher (a tray host is "present")
//	                         and print each item that registers; runs until killed
//	trayprobe menu           print the registered item's menu: id, visible, label
//	trayprobe click LABEL    click the visible menu item labelled LABEL
//
// menu and click find the item by its bus name org.kde.StatusNotifierItem-<pid>-1
// (fyne.io/systray's), so they work with or without a running watch. All
// use DBUS_SESSION_BUS_ADDRESS.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/godbus/dbus/v5"
	"github.com/godbus/dbus/v5/prop"
)

const (
	watcherName = "org.kde.StatusNotifierWatcher"
	watcherPath = "/StatusNotifierWatcher"
	itemPath    = "/StatusNotifierItem"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "trayprobe:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: trayprobe watch | menu | click LABEL")
	}
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return err
	}
	defer conn.Close()
	switch {
	case args[0] == "watch":
		return watch(conn)
	case args[0] == "menu":
		items, err := menu(conn)
		for _, it := range items {
			fmt.Printf("%d\t%v\t%s\n", it.id, it.visible, it.label)
		}
		return err
	case args[0] == "click" && len(args) == 2:
		return click(conn, args[1])
	}
	return fmt.Errorf("unknown command %q", strings.Join(args, " "))
}

type watcher struct{}

func (watcher) RegisterStatusNotifierItem(sender dbus.Sender, service string) *dbus.Error {
	fmt.Printf("registered %s %s\n", sender, service)
	return nil
}

func (watcher) RegisterStatusNotifierHost(string) *dbus.Error { return nil }

func watch(conn *dbus.Conn) error {
	if err := conn.Export(watcher{}, watcherPath, watcherName); err != nil {
		return err
	}
	if _, err := prop.Export(conn, watcherPath, map[string]map[string]*prop.Prop{watcherName: {
		"IsStatusNotifierHostRegistered": {Value: true},
		"RegisteredStatusNotifierItems":  {Value: []string{}},
		"ProtocolVersion":                {Value: int32(0)},
	}}); err != nil {
		return err
	}
	reply, err := conn.RequestName(watcherName, dbus.NameFlagDoNotQueue)
	if err != nil {
		return err
	}
	if reply != dbus.RequestNameReplyPrimaryOwner {
		return errors.New("another StatusNotifierWatcher runs on this bus")
	}
	fmt.Println("watching")
	select {}
}

// item finds the tray item's bus name.
func item(conn *dbus.Conn) (string, error) {
	var names []string
	if err := conn.BusObject().Call("org.freedesktop.DBus.ListNames", 0).Store(&names); err != nil {
		return "", err
	}
	for _, n := range names {
		if strings.HasPrefix(n, "org.kde.StatusNotifierItem-") {
			return n, nil
		}
	}
	return "", errors.New("no tray item on the bus (is playchat running with this DBUS_SESSION_BUS_ADDRESS?)")
}

type menuItem struct {
	id      int32
	label   string
	visible bool
}

func menu(conn *dbus.Conn) ([]menuItem, error) {
	name, err := item(conn)
	if err != nil {
		return nil, err
	}
	var path dbus.ObjectPath
	if err := conn.Object(name, itemPath).Call("org.freedesktop.DBus.Properties.Get", 0,
		"org.kde.StatusNotifierItem", "Menu").Store(&path); err != nil {
		return nil, err
	}
	var rev uint32
	var root struct {
		ID       int32
		Props    map[string]dbus.Variant
		Children []dbus.Variant
	}
	if err := conn.Object(name, path).Call("com.canonical.dbusmenu.GetLayout", 0, int32(0), int32(-1),
		[]string{}).Store(&rev, &root); err != nil {
		return nil, err
	}
	var out []menuItem
	for _, c := range root.Children {
		f, ok := c.Value().([]any)
		if !ok || len(f) != 3 {
			continue
		}
		props, _ := f[1].(map[string]dbus.Variant)
		if t, _ := props["type"].Value().(string); t == "separator" {
			continue
		}
		it := menuItem{visible: true}
		it.id, _ = f[0].(int32)
		it.label, _ = props["label"].Value().(string)
		if v, ok := props["visible"]; ok {
			it.visible, _ = v.Value().(bool)
		}
		out = append(out, it)
	}
	return out, nil
}

func click(conn *dbus.Conn, label string) error {
	items, err := menu(conn)
	if err != nil {
		return err
	}
	name, _ := item(conn)
	for _, it := range items {
		if it.visible && it.label == label {
			return conn.Object(name, itemPath+"/menu").Call("com.canonical.dbusmenu.Event", 0,
				it.id, "clicked", dbus.MakeVariant(""), uint32(0)).Err
		}
	}
	return fmt.Errorf("no visible menu item %q", label)
}
