package webview

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestWriteExtensionKeepsOneCopyPerBuild(t *testing.T) {
	dir := t.TempDir()
	build1 := fstest.MapFS{"webext/" + extensionFile: {Data: []byte("build 1")}}
	out1, err := writeExtension(build1, dir)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(out1, extensionFile)); err != nil || string(b) != "build 1" {
		t.Fatalf("written: %q, %v", b, err)
	}
	again, err := writeExtension(build1, dir)
	if err != nil || again != out1 {
		t.Fatalf("the same build again: %q, %v; want %q", again, err, out1)
	}
	build2 := fstest.MapFS{"webext/" + extensionFile: {Data: []byte("build 2")}}
	out2, err := writeExtension(build2, dir)
	if err != nil || out2 == out1 {
		t.Fatalf("another build: %q, %v", out2, err)
	}
	// Build 1's window started a moment ago: its web process may not have
	// loaded the extension yet.
	if _, err := os.Stat(out1); err != nil {
		t.Fatalf("a build started within ExtensionGrace must keep its extension: %v", err)
	}
	old := time.Now().Add(-ExtensionGrace - time.Minute)
	if err := os.Chtimes(out1, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := writeExtension(build2, dir); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != filepath.Base(out2) {
		t.Fatalf("the old build's directory must go after ExtensionGrace; left %v", entries)
	}
	files, _ := os.ReadDir(out2)
	if len(files) != 1 {
		t.Fatalf("only the extension in its directory (WebKit loads every .so there); got %v", files)
	}
}

func TestWriteExtensionWithoutTheBuiltFile(t *testing.T) {
	_, err := writeExtension(fstest.MapFS{"webext/playchat-webext.c": {Data: []byte("/* source */")}}, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "make") {
		t.Fatalf("want an error saying to build with make, got %v", err)
	}
}

func TestReleaseString(t *testing.T) {
	r := Release{How: "webkit", Millis: 35.25, RSSBeforeKiB: 203 * 1024, RSSAfterKiB: 195 * 1024}
	if got, want := r.String(), "webkit in 35.2 ms, web process RSS 203 → 195 MiB"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
