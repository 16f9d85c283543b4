package core

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"playchat/backend/filelock"
	"playchat/backend/redact"
)

// maxLogBytes is the size at which the log file is rotated at start-up.
const maxLogBytes = 10 << 20

// LogFileName is the name of the window's log file inside LogDir.
const LogFileName = "playchat.log"

// LogDir returns the folder of the log files: <dataDir>/logs.
func LogDir(dataDir string) string { return filepath.Join(dataDir, "logs") }

// OpenLogFile opens <dataDir>/logs/playchat.log (0600, appended; rotated to
// playchat.log.1 when larger than 10 MiB) with a text slog handler. The level
// is level, which the caller may change later (Core follows LOG_LEVEL and
// DEBUG on every reload).
func OpenLogFile(dataDir string, level *slog.LevelVar) (*slog.Logger, func() error, error) {
	dir := LogDir(dataDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("create log dir: %w", err)
	}
	path := filepath.Join(dir, LogFileName)
	// Processes starting at once (the window and a command, or many
	// commands) rotate one after another, so none renames a log another
	// has just started over .1.
	if lock, err := filelock.Acquire(path + ".lock"); err == nil {
		defer lock.Unlock()
	}
	if st, err := os.Stat(path); err == nil && st.Size() > maxLogBytes {
		_ = os.Rename(path, path+".1")
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("open log file: %w", err)
	}
	return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: level, ReplaceAttr: redactAttr})), f.Close, nil
}

// redactAttr masks the credentials of URLs in every logged string and
// error (redact.URLCredentials): a base URL with a password must not reach
// the log through an error text (issue 21).
func redactAttr(_ []string, a slog.Attr) slog.Attr {
	switch a.Value.Kind() {
	case slog.KindString:
		if s := a.Value.String(); s != redact.URLCredentials(s) {
			a.Value = slog.StringValue(redact.URLCredentials(s))
		}
	case slog.KindAny:
		if err, ok := a.Value.Any().(error); ok {
			a.Value = slog.StringValue(redact.URLCredentials(err.Error()))
		}
	}
	return a
}
