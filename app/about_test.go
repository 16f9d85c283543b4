package app

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/core"
)

// stubOpener replaces the file manager for one test and records the folders
// it was asked to show.
func stubOpener(t *testing.T, err error) *[]string {
	t.Helper()
	var opened []string
	prev := openFolderWith
	openFolderWith = func(dir string) error {
		opened = append(opened, dir)
		return err
	}
	t.Cleanup(func() { openFolderWith = prev })
	return &opened
}

func TestAboutShowsTheVersionsTheDataDirAndTheLogFile(t *testing.T) {
	a, _ := newTestApp(t)
	prev := Version
	Version = "1.2.3"
	t.Cleanup(func() { Version = prev })
	info, err := (&SystemService{a}).About()
	if err != nil {
		t.Fatal(err)
	}
	c, _ := a.backend()
	if info.Version != "1.2.3" || !strings.HasPrefix(info.GoVersion, "go") || !strings.Contains(info.Platform, "/") {
		t.Errorf("about = %+v", info)
	}
	if info.DataDir != c.DataDir || info.LogFile != filepath.Join(c.DataDir, "logs", "playchat.log") {
		t.Errorf("data dir %q, log file %q; want %q and its logs/playchat.log", info.DataDir, info.LogFile, c.DataDir)
	}
}

func TestAboutAnswersWhenTheBackendDidNotStart(t *testing.T) {
	dir := t.TempDir()
	a := &App{opts: core.Options{DataDir: dir}, startErr: errors.New("database is broken")}
	info, err := (&SystemService{a}).About()
	if err != nil || info.DataDir != dir || info.LogFile != filepath.Join(dir, "logs", "playchat.log") {
		t.Fatalf("about = %+v, %v; want the options' data dir", info, err)
	}
}

func TestWailsVersionComesFromTheBuildInfoFollowingAReplace(t *testing.T) {
	bi := &debug.BuildInfo{Deps: []*debug.Module{{Path: "other", Version: "v1"}, {Path: wailsModule, Version: "v2.13.0"}}}
	if v := moduleVersion(bi, wailsModule); v != "v2.13.0" {
		t.Errorf("version = %q", v)
	}
	bi.Deps[1].Replace = &debug.Module{Path: "fork", Version: "v2.13.1"}
	if v := moduleVersion(bi, wailsModule); v != "v2.13.1" {
		t.Errorf("replaced version = %q", v)
	}
	if v := moduleVersion(&debug.BuildInfo{}, wailsModule); v != "" {
		t.Errorf("absent module version = %q", v)
	}
}

func TestTheChangelogIsFoundBesideTheBinaryOrInTheDebsDocFolder(t *testing.T) {
	has := func(paths ...string) func(string) bool {
		return func(p string) bool {
			for _, x := range paths {
				if p == filepath.FromSlash(x) {
					return true
				}
			}
			return false
		}
	}
	deb := "/usr/share/doc/playchat/CHANGELOG.md"
	if got := findChangelog(filepath.FromSlash("/usr/bin/playchat"), has(deb)); got != filepath.FromSlash(deb) {
		t.Errorf(".deb: %q", got)
	}
	tgz := "/opt/playchat-1.0.0-linux-amd64/share/doc/playchat/CHANGELOG.md"
	if got := findChangelog(filepath.FromSlash("/opt/playchat-1.0.0-linux-amd64/bin/playchat"), has(tgz, deb)); got != filepath.FromSlash(tgz) {
		t.Errorf("tar.gz: %q", got)
	}
	beside := "/opt/playchat/CHANGELOG.md"
	if got := findChangelog(filepath.FromSlash("/opt/playchat/playchat"), has(beside, deb)); got != filepath.FromSlash(beside) {
		t.Errorf("beside the binary: %q", got)
	}
	if got := findChangelog(filepath.FromSlash("/home/u/src/playchat/build/bin/playchat"), has(deb)); got != "" {
		t.Errorf("source build: %q, want none", got)
	}
}

func TestOpenLogFolderCreatesTheFolderAndShowsIt(t *testing.T) {
	a, _ := newTestApp(t)
	opened := stubOpener(t, nil)
	c, _ := a.backend()
	logs := filepath.Join(c.DataDir, "logs")
	if err := os.RemoveAll(logs); err != nil {
		t.Fatal(err)
	}
	s := &SystemService{a}
	if err := s.OpenLogFolder(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(logs); err != nil || !st.IsDir() {
		t.Fatalf("the log folder was not created: %v", err)
	}
	if err := s.OpenDataFolder(); err != nil {
		t.Fatal(err)
	}
	if len(*opened) != 2 || (*opened)[0] != logs || (*opened)[1] != c.DataDir {
		t.Fatalf("opened %v, want the log folder then the data folder", *opened)
	}
}

func TestAFolderThatCannotBeOpenedIsACodedErrorWithItsPath(t *testing.T) {
	a, _ := newTestApp(t)
	stubOpener(t, errors.New(`exec: "xdg-open": executable file not found in $PATH`))
	err := (&SystemService{a}).OpenLogFolder()
	c, _ := a.backend()
	info := apperr.InfoOf(err)
	if apperr.CodeOf(err) != apperr.SystemOpenFolder || info.Params["path"] != filepath.Join(c.DataDir, "logs") ||
		!strings.Contains(err.Error(), "xdg-open") {
		t.Fatalf("err = %v (info %+v), want system.openFolder with the path and the cause", err, info)
	}
	// A file where the folder should be is refused before the opener runs.
	opened := stubOpener(t, nil)
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := openFolder(file, openFolderWith); apperr.CodeOf(err) != apperr.SystemOpenFolder || len(*opened) != 0 {
		t.Fatalf("err = %v, opened %v", err, *opened)
	}
}

func TestABackgroundPanicReachesTheWindowOncePerJob(t *testing.T) {
	p := &dataPlatform{fakePlatform: &fakePlatform{}}
	a := &App{platform: p}
	c, err := core.Open(context.Background(), core.Options{DataDir: t.TempDir(), Logger: slog.New(slog.DiscardHandler),
		OnBackgroundPanic: a.reportBackgroundPanic})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	a.core = c
	for range 2 {
		c.Guard.Do("kb.reindex", func() { panic("boom") })
	}
	c.Guard.Do("memory.summarize", func() { panic("other") })
	n := 0
	for _, e := range p.events {
		if e == EventBackgroundPanic {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("%d %s events for 2 failing jobs, want 2 (events %v)", n, EventBackgroundPanic, p.events)
	}
	if first, ok := p.data[0].(BackgroundPanic); !ok || first != (BackgroundPanic{Job: "kb.reindex", Message: "boom"}) {
		t.Fatalf("event data = %#v", p.data[0])
	}
}

// dataPlatform also keeps every event's data.
type dataPlatform struct {
	*fakePlatform
	data []any
}

func (d *dataPlatform) Emit(name string, data any) {
	d.fakePlatform.Emit(name, data)
	d.data = append(d.data, data)
}
