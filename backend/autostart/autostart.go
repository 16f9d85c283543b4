// Package autostart starts playchat at login (the START_AT_LOGIN setting,
// issue 10). On Linux and the BSDs it writes or removes an XDG autostart
// entry, $XDG_CONFIG_HOME/autostart/playchat.desktop (~/.config when
// XDG_CONFIG_HOME is unset or relative), whose Exec line starts the binary
// with --hidden; elsewhere Set returns ErrUnsupported.
package autostart

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"playchat/backend/atomicfile"
)

// HiddenFlag is the command-line flag the entry starts playchat with: the
// window starts hidden in the tray when a tray host is present.
const HiddenFlag = "--hidden"

// FileName is the entry's file name in the autostart folder.
const FileName = "playchat.desktop"

// ErrUnsupported is returned by Set on platforms without XDG autostart
// (Windows, macOS) until their equivalents are written.
var ErrUnsupported = errors.New("start at login is not supported on this platform yet")

// Supported reports whether Set works on goos (runtime.GOOS).
func Supported(goos string) bool {
	switch goos {
	case "linux", "freebsd", "openbsd", "netbsd", "dragonfly":
		return true
	}
	return false
}

// Path returns the entry's path for environ (KEY=VALUE pairs; HOME and
// XDG_CONFIG_HOME are read). An error means no home folder is known.
func Path(environ []string) (string, error) {
	env := func(k string) string {
		for _, kv := range environ {
			if v, ok := strings.CutPrefix(kv, k+"="); ok {
				return v
			}
		}
		return ""
	}
	dir := env("XDG_CONFIG_HOME")
	if !filepath.IsAbs(dir) { // the XDG spec ignores relative paths
		home := env("HOME")
		if home == "" {
			return "", errors.New("autostart: neither XDG_CONFIG_HOME nor HOME is set")
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "autostart", FileName), nil
}

// Entry returns the text of the autostart entry that starts exe (an
// absolute path) hidden in the tray.
func Entry(exe string) string {
	return "[Desktop Entry]\n" +
		"Type=Application\n" +
		"Name=playchat\n" +
		"Comment=Desktop LLM chat with reminders (starts in the system tray)\n" +
		"Exec=" + quoteExec(exe) + " " + HiddenFlag + "\n" +
		"Icon=playchat\n" +
		"Terminal=false\n" +
		"X-GNOME-Autostart-enabled=true\n"
}

// quoteExec quotes an Exec argument as the Desktop Entry spec asks when it
// holds a reserved character: in double quotes, with ", `, $ and \
// escaped by a backslash (and "%" doubled, a field code otherwise).
func quoteExec(arg string) string {
	arg = strings.ReplaceAll(arg, "%", "%%")
	if !strings.ContainsAny(arg, " \t\n\"'\\><~|&;$*?#()`") {
		return arg
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`", `$`, `\$`)
	return `"` + r.Replace(arg) + `"`
}

// Set writes the entry for exe (on) or removes it (off) under environ's
// config folder. Removing an absent entry is no error. On a platform
// without XDG autostart it returns ErrUnsupported.
func Set(on bool, exe string, environ []string) error {
	if !Supported(runtime.GOOS) {
		return ErrUnsupported
	}
	path, err := Path(environ)
	if err != nil {
		return err
	}
	if !on {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("autostart: remove %s: %w", path, err)
		}
		return nil
	}
	if !filepath.IsAbs(exe) {
		return fmt.Errorf("autostart: the program path %q is not absolute", exe)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	if err := atomicfile.Write(path, []byte(Entry(exe)), 0o644); err != nil {
		return fmt.Errorf("autostart: write %s: %w", path, err)
	}
	return nil
}

// Enabled reports whether an entry exists under environ's config folder.
func Enabled(environ []string) bool {
	path, err := Path(environ)
	if err != nil {
		return false
	}
	_, err = os.Stat(path)
	return err == nil
}

// Executable returns the absolute path of the running binary, with
// symbolic links resolved.
func Executable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("autostart: find the program: %w", err)
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	return filepath.Abs(exe)
}
