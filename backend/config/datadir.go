package config

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/adrg/xdg"
)

// DataDirEnv names the environment variable that overrides the data dir.
const DataDirEnv = "PLAYCHAT_DATA_DIR"

// AppDirName is the name of playchat's folder inside the OS data directory.
const AppDirName = "playchat"

// DataDir resolves playchat's data directory (database, .env, logs,
// knowledge base) and creates it, with mode 0700, if it does not exist; an
// existing directory keeps its mode.
//
// environ is in os.Environ's "KEY=value" form. PLAYCHAT_DATA_DIR, when set
// to something non-blank, wins (made absolute against the working
// directory). Otherwise it is <OS data dir>/playchat, where the OS data dir
// is $XDG_DATA_HOME when environ sets it to an absolute path and
// xdg.DataHome (~/.local/share) otherwise on Linux and the BSDs, and
// os.UserConfigDir elsewhere (~/Library/Application Support on macOS,
// %AppData% on Windows). It returns an absolute path, or an error when no
// directory can be determined or created.
func DataDir(environ []string) (string, error) {
	dir := strings.TrimSpace(lookup(environ, DataDirEnv))
	if dir == "" {
		base, err := osDataDir(environ)
		if err != nil {
			return "", fmt.Errorf("config: find the data dir: %w (set %s)", err, DataDirEnv)
		}
		dir = filepath.Join(base, AppDirName)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("config: data dir %q: %w", dir, err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return "", fmt.Errorf("config: create the data dir: %w", err)
	}
	return abs, nil
}

func osDataDir(environ []string) (string, error) {
	switch runtime.GOOS {
	case "windows", "darwin", "ios", "plan9":
		return os.UserConfigDir()
	}
	if x := lookup(environ, "XDG_DATA_HOME"); filepath.IsAbs(x) {
		return x, nil
	}
	if xdg.DataHome == "" {
		return "", fmt.Errorf("no home directory")
	}
	return xdg.DataHome, nil
}

// lookup returns the value of the last key=value entry of environ for key.
func lookup(environ []string, key string) string {
	v := ""
	for _, kv := range environ {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}
