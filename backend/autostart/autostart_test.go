package autostart

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// entryKeys parses a desktop entry's [Desktop Entry] group into key → value.
func entryKeys(t *testing.T, text string) map[string]string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if lines[0] != "[Desktop Entry]" {
		t.Fatalf("the entry starts with %q, want [Desktop Entry]", lines[0])
	}
	out := map[string]string{}
	for _, l := range lines[1:] {
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			t.Fatalf("line %q is not key=value", l)
		}
		out[k] = v
	}
	return out
}

func TestSetWritesAndRemovesTheEntryUnderXDGConfigHome(t *testing.T) {
	if !Supported(runtime.GOOS) {
		if err := Set(true, "/usr/bin/playchat", nil); err != ErrUnsupported {
			t.Fatalf("Set on %s = %v, want ErrUnsupported", runtime.GOOS, err)
		}
		t.Skip("XDG autostart is Linux/BSD only")
	}
	cfg := t.TempDir()
	environ := []string{"HOME=/nonexistent", "XDG_CONFIG_HOME=" + cfg}
	exe := "/opt/playchat/bin/playchat"
	if Enabled(environ) {
		t.Fatal("Enabled before Set")
	}
	if err := Set(true, exe, environ); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(cfg, "autostart", "playchat.desktop")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal("the entry was not written where XDG_CONFIG_HOME says:", err)
	}
	keys := entryKeys(t, string(b))
	for k, want := range map[string]string{"Type": "Application", "Name": "playchat",
		"Exec": exe + " --hidden", "X-GNOME-Autostart-enabled": "true", "Terminal": "false"} {
		if keys[k] != want {
			t.Errorf("%s = %q, want %q", k, keys[k], want)
		}
	}
	if !Enabled(environ) {
		t.Error("Enabled is false after Set(true)")
	}
	// Writing again replaces the entry (a moved binary).
	if err := Set(true, "/usr/local/bin/playchat", environ); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(path)
	if got := entryKeys(t, string(b))["Exec"]; got != "/usr/local/bin/playchat --hidden" {
		t.Errorf("Exec after a second Set = %q", got)
	}
	if err := Set(false, "", environ); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the entry is still there after Set(false): %v", err)
	}
	if err := Set(false, "", environ); err != nil {
		t.Errorf("removing an absent entry = %v, want nil", err)
	}
	if err := Set(true, "playchat", environ); err == nil {
		t.Error("a relative program path was accepted")
	}
}

func TestPathFallsBackToHomeDotConfigWhenXDGConfigHomeIsUnsetOrRelative(t *testing.T) {
	for _, environ := range [][]string{{"HOME=/home/u"}, {"HOME=/home/u", "XDG_CONFIG_HOME=rel/cfg"}, {"HOME=/home/u", "XDG_CONFIG_HOME="}} {
		got, err := Path(environ)
		if err != nil || got != "/home/u/.config/autostart/playchat.desktop" {
			t.Errorf("Path(%q) = %q, %v", environ, got, err)
		}
	}
	if _, err := Path(nil); err == nil {
		t.Error("Path with no HOME and no XDG_CONFIG_HOME gave no error")
	}
}

func TestExecQuotesAPathWithSpacesAndEscapesReservedCharacters(t *testing.T) {
	keys := entryKeys(t, Entry(`/home/u/My Apps/play$chat 100%`))
	if want := `"/home/u/My Apps/play\$chat 100%%" --hidden`; keys["Exec"] != want {
		t.Errorf("Exec = %s, want %s", keys["Exec"], want)
	}
}
