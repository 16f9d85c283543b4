package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/wailsapp/wails/v2/pkg/options"
)

type fakeTray struct {
	mu        sync.Mutex
	visible   []bool
	refreshes int
}

func (f *fakeTray) SetWindowVisible(v bool) {
	f.mu.Lock()
	f.visible = append(f.visible, v)
	f.mu.Unlock()
}
func (f *fakeTray) Refresh() { f.mu.Lock(); f.refreshes++; f.mu.Unlock() }
func (f *fakeTray) Stop()    {}

// desktopApp is a test App with a fake tray and window (the fake platform)
// and a tray host present or not.
func desktopApp(t *testing.T, host bool) (*App, *fakeTray, *fakePlatform) {
	t.Helper()
	a, fw := newTestApp(t)
	ft := &fakeTray{}
	a.desk.tray = ft
	a.desk.hostPresent = func(context.Context) (bool, error) {
		if host {
			return true, nil
		}
		return false, errors.New("no system tray on this desktop (no StatusNotifierWatcher on the D-Bus session bus)")
	}
	return a, ft, fw
}

func TestClosingHidesTheWindowToTheTrayWhileATrayHostIsPresent(t *testing.T) {
	a, ft, fw := desktopApp(t, true)
	if !a.BeforeClose(context.Background()) {
		t.Fatal("closing quit although CLOSE_TO_TRAY is on and a tray host is present")
	}
	if fw.hides != 1 || len(ft.visible) != 1 || ft.visible[0] {
		t.Errorf("hides %d, tray told %v; want the window hidden and the tray told so", fw.hides, ft.visible)
	}
	a.SecondInstance(options.SecondInstanceData{})
	if last := ft.visible[len(ft.visible)-1]; !last {
		t.Error("launching again did not tell the tray the window is shown")
	}
}

func TestClosingQuitsWithoutATrayHostAndSettingsSaysWhy(t *testing.T) {
	a, _, fw := desktopApp(t, false)
	if a.BeforeClose(context.Background()) || fw.hides != 0 {
		t.Fatal("closing hid the window with no tray host to show it again")
	}
	v, err := (&SettingsService{a}).Get()
	if err != nil {
		t.Fatal(err)
	}
	if v.Desktop.TrayAvailable || !strings.Contains(v.Desktop.TrayReason, "no system tray") {
		t.Errorf("Settings' desktop status = %+v; want no tray, with the reason", v.Desktop)
	}
}

func TestClosingQuitsWhenCloseToTrayIsOffOrAfterTheTraysQuit(t *testing.T) {
	a, _, fw := desktopApp(t, true)
	if _, err := (&SettingsService{a}).Save(SettingsUpdate{Values: map[string]string{"CLOSE_TO_TRAY": "false"}}); err != nil {
		t.Fatal(err)
	}
	if a.BeforeClose(context.Background()) {
		t.Error("closing hid the window with CLOSE_TO_TRAY off")
	}
	b, _, fw2 := desktopApp(t, true)
	b.Quit()
	if fw2.quits != 1 {
		t.Errorf("Quit asked the window to quit %d times, want 1", fw2.quits)
	}
	if b.BeforeClose(context.Background()) || fw.hides+fw2.hides != 0 {
		t.Error("the tray's Quit was turned into hiding the window")
	}
}

func TestSavingStartAtLoginWritesAndRemovesTheAutostartEntry(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	a, ft, _ := desktopApp(t, true)
	s := &SettingsService{a}
	entry := filepath.Join(cfg, "autostart", "playchat.desktop")
	v, err := s.Save(SettingsUpdate{Values: map[string]string{"START_AT_LOGIN": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	if !v.Desktop.AutostartSupported {
		if v.Desktop.AutostartError == "" {
			t.Error("START_AT_LOGIN on an unsupported platform gave no error in Settings")
		}
		t.Skip("autostart is Linux/BSD only")
	}
	b, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal("saving START_AT_LOGIN=true wrote no autostart entry:", err)
	}
	if !strings.Contains(string(b), " --hidden\n") || v.Desktop.AutostartError != "" {
		t.Errorf("entry %q, error %q", b, v.Desktop.AutostartError)
	}
	if ft.refreshes == 0 {
		t.Error("saving settings did not refresh the tray (its language)")
	}
	if _, err := s.Save(SettingsUpdate{Values: map[string]string{"START_AT_LOGIN": "false"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(entry); !os.IsNotExist(err) {
		t.Errorf("the entry stays after START_AT_LOGIN=false: %v", err)
	}
}
