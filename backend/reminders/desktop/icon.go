package desktop

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// AppID is playchat's freedesktop application id: the name of its desktop
// entry (dev.playchat.Playchat.desktop) and of the icon the packages
// install in the hicolor theme.
const AppID = "dev.playchat.Playchat"

// IconFor returns what a notification should name as its icon (the
// freedesktop app_icon): AppID when an icon of that name is installed in
// one of the icon themes under dataDirs (XDG_DATA_HOME and XDG_DATA_DIRS,
// e.g. /usr/share), else the absolute path of png written (once, 0600)
// into cacheDir as playchat-icon.png — so a notification never shows a
// broken icon, installed or run from a build folder (issue 22: the
// notifications named "playchat", an icon no package installs). "" when
// neither works (no icon is better than a broken one).
func IconFor(dataDirs []string, png []byte, cacheDir string) string {
	for _, d := range dataDirs {
		if d == "" {
			continue
		}
		matches, _ := filepath.Glob(filepath.Join(d, "icons", "*", "*", "apps", AppID+".*"))
		for _, m := range matches {
			if ext := strings.ToLower(filepath.Ext(m)); ext == ".png" || ext == ".svg" {
				return AppID
			}
		}
	}
	if len(png) == 0 || cacheDir == "" {
		return ""
	}
	path := filepath.Join(cacheDir, "playchat-icon.png")
	if cur, err := os.ReadFile(path); err == nil && bytes.Equal(cur, png) {
		return path
	}
	if err := os.MkdirAll(cacheDir, 0o700); err != nil {
		return ""
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, png, 0o600); err != nil {
		return ""
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return ""
	}
	return path
}

// DataDirs lists the XDG data directories icons are looked up in:
// XDG_DATA_HOME (default ~/.local/share) then XDG_DATA_DIRS (default
// /usr/local/share:/usr/share), per the XDG Base Directory spec. getenv is
// os.Getenv in the app.
func DataDirs(getenv func(string) string, home string) []string {
	var out []string
	if h := getenv("XDG_DATA_HOME"); h != "" {
		out = append(out, h)
	} else if home != "" {
		out = append(out, filepath.Join(home, ".local", "share"))
	}
	dirs := getenv("XDG_DATA_DIRS")
	if dirs == "" {
		dirs = "/usr/local/share:/usr/share"
	}
	for _, d := range strings.Split(dirs, ":") {
		if d != "" {
			out = append(out, d)
		}
	}
	return out
}
