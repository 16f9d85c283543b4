package app

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"

	"playchat/backend/apperr"
	"playchat/backend/config"
	"playchat/backend/core"
)

// AboutInfo is what the About box shows.
type AboutInfo struct {
	// Version is the app version (Version, from the git tag at build time).
	Version string `json:"version"`
	// GoVersion is the Go toolchain the binary was built with, e.g. "go1.25.4".
	GoVersion string `json:"goVersion"`
	// WailsVersion is the Wails module version built in, e.g. "v2.13.0";
	// "" when the binary carries no module information.
	WailsVersion string `json:"wailsVersion"`
	// Platform is GOOS/GOARCH, e.g. "linux/amd64".
	Platform string `json:"platform"`
	// DataDir is the absolute data folder (database, settings, logs).
	DataDir string `json:"dataDir"`
	// LogFile is the absolute path of the log file (<DataDir>/logs/playchat.log).
	LogFile string `json:"logFile"`
	// Changelog is the absolute path of the CHANGELOG.md installed with the
	// app (/usr/share/doc/playchat/CHANGELOG.md from the .deb,
	// <dir>/share/doc/playchat/CHANGELOG.md beside <dir>/bin from the
	// tar.gz); "" when none was found (the Windows installer ships none).
	Changelog string `json:"changelog"`
}

// wailsModule is the module path whose version AboutInfo reports.
const wailsModule = "github.com/wailsapp/wails/v2"

// About returns the versions and paths shown in the About box. It answers
// even when the backend did not start (the data dir is then resolved from
// the environment again; "" when that fails too).
func (s *SystemService) About() (AboutInfo, error) {
	info := AboutInfo{Version: Version, GoVersion: goruntime.Version(),
		Platform: goruntime.GOOS + "/" + goruntime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info.WailsVersion = moduleVersion(bi, wailsModule)
	}
	if dir := s.app.dataDir(); dir != "" {
		info.DataDir = dir
		info.LogFile = filepath.Join(core.LogDir(dir), core.LogFileName)
	}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		info.Changelog = findChangelog(exe, fileExists)
	}
	return info, nil
}

// OpenLogFolder shows <data dir>/logs in the system's file manager,
// creating it when missing. The error is coded system.openFolder when the
// folder cannot be created or the file manager cannot be started.
func (s *SystemService) OpenLogFolder() error {
	dir := s.app.dataDir()
	if dir == "" {
		return apperr.Wrap(apperr.SystemOpenFolder, errors.New("the data folder is unknown"), map[string]any{"path": "logs"})
	}
	return openFolder(core.LogDir(dir), openFolderWith)
}

// OpenDataFolder shows the data folder in the system's file manager; errors
// as OpenLogFolder.
func (s *SystemService) OpenDataFolder() error {
	dir := s.app.dataDir()
	if dir == "" {
		return apperr.Wrap(apperr.SystemOpenFolder, errors.New("the data folder is unknown"), map[string]any{"path": ""})
	}
	return openFolder(dir, openFolderWith)
}

// dataDir is the running core's data dir, else the one the options or the
// environment name ("" when none can be resolved).
func (a *App) dataDir() string {
	if c, err := a.backend(); err == nil {
		return c.DataDir
	}
	if a.opts.DataDir != "" {
		if abs, err := filepath.Abs(a.opts.DataDir); err == nil {
			return abs
		}
	}
	dir, err := config.DataDir(a.opts.Environ)
	if err != nil {
		return ""
	}
	return dir
}

// openFolderWith starts the file manager on an absolute folder path; tests
// replace it. Wails' BrowserOpenURL cannot be used: since v2.10 it refuses
// file:// URLs.
var openFolderWith = systemOpenFolder

// openFolder creates dir (0700) when missing, checks it is a folder and
// hands it to open. Every failure is coded system.openFolder with the path.
func openFolder(dir string, open func(dir string) error) error {
	fail := func(err error) error {
		return apperr.Wrap(apperr.SystemOpenFolder, err, map[string]any{"path": dir})
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fail(err)
	}
	st, err := os.Stat(dir)
	if err != nil {
		return fail(err)
	}
	if !st.IsDir() {
		return fail(errors.New("not a folder"))
	}
	if err := open(dir); err != nil {
		return fail(err)
	}
	return nil
}

// systemOpenFolder starts the desktop's file manager on dir without waiting
// for it: xdg-open on Linux and the BSDs, explorer.exe on Windows, open on
// macOS. It fails when the program is missing or cannot start.
func systemOpenFolder(dir string) error {
	var cmd *exec.Cmd
	switch goruntime.GOOS {
	case "windows":
		cmd = exec.Command("explorer.exe", dir)
	case "darwin":
		cmd = exec.Command("open", dir)
	default:
		cmd = exec.Command("xdg-open", dir)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", filepath.Base(cmd.Path), err)
	}
	go func() { _ = cmd.Wait() }() // reap it; explorer.exe exits 1 even when it worked
	return nil
}

// moduleVersion returns the version of module path in bi ("" when absent),
// following a replace directive.
func moduleVersion(bi *debug.BuildInfo, path string) string {
	for _, m := range bi.Deps {
		if m.Path != path {
			continue
		}
		if m.Replace != nil && m.Replace.Version != "" {
			return m.Replace.Version
		}
		return m.Version
	}
	return ""
}

// findChangelog looks for the CHANGELOG.md installed with the binary at
// exe: beside it, then in <prefix>/share/doc/playchat/ for a binary in
// <prefix>/bin (the .deb: /usr/share/doc/playchat/CHANGELOG.md; the tar.gz:
// playchat-<version>-linux-amd64/share/doc/playchat/CHANGELOG.md). It
// returns "" when there is none.
func findChangelog(exe string, exists func(string) bool) string {
	dir := filepath.Dir(exe)
	for _, p := range []string{
		filepath.Join(dir, "CHANGELOG.md"),
		filepath.Join(filepath.Dir(dir), "share", "doc", "playchat", "CHANGELOG.md"),
	} {
		if exists(p) {
			return p
		}
	}
	return ""
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
