package desktop

import (
	"os"
	"path/filepath"
	"testing"
)

// Issue 22: every notification showed a broken icon: it named "playchat",
// and the package installs dev.playchat.Playchat. Installed, the icon's
// theme name is used; run from a build folder, a file that exists.
func TestTheNotificationIconIsTheInstalledOneOrAFileThatExists(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\nfake")
	share := t.TempDir()
	cache := t.TempDir()
	if got := IconFor([]string{share}, png, cache); got != filepath.Join(cache, "playchat-icon.png") {
		t.Fatalf("not installed: icon = %q, want the cached file", got)
	}
	if b, err := os.ReadFile(filepath.Join(cache, "playchat-icon.png")); err != nil || string(b) != string(png) {
		t.Fatalf("cached icon = %q, %v", b, err)
	}
	dir := filepath.Join(share, "icons", "hicolor", "128x128", "apps")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, AppID+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := IconFor([]string{"", share}, png, cache); got != AppID {
		t.Fatalf("installed: icon = %q, want %s", got, AppID)
	}
	if got := IconFor(nil, nil, ""); got != "" {
		t.Fatalf("nothing at all: icon = %q, want none", got)
	}
	env := map[string]string{"XDG_DATA_DIRS": "/a:/b"}
	if got := DataDirs(func(k string) string { return env[k] }, "/home/u"); len(got) != 3 || got[0] != "/home/u/.local/share" || got[2] != "/b" {
		t.Fatalf("DataDirs = %q", got)
	}
}
