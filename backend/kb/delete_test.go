package kb

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"playchat/backend/apperr"
)

// Issue 22: a document could not be deleted from the app. Delete moves it
// into the trash folder (nothing the user wrote is lost), search stops
// finding it, and a bad path changes nothing.
func TestDeleteMovesADocumentToTheTrashAndOutOfTheIndex(t *testing.T) {
	f := newFixture(t, "")
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.md"), "# 秘密\n")
	writeFile(t, filepath.Join(f.dir, "guide", "wifi.md"), "# Wi-Fi\n\nルーターのパスワードは箱の裏にあります。\n")
	writeFile(t, filepath.Join(f.dir, "keep.md"), "# 残す\n\nルーターの設定は別の文書です。\n")
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(f.dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(f.dir, "keep.md"), filepath.Join(f.dir, "inner-link.md")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := f.svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
	if got := f.searchPaths(t, "ルーターのパスワード", 3); !contains(got, "guide/wifi.md") {
		t.Fatalf("before: search = %v", got)
	}

	for _, bad := range []struct {
		path string
		want error
	}{
		{"../" + filepath.Base(outside) + "/secret.md", ErrOutsideRoot},
		{filepath.Join(outside, "secret.md"), ErrOutsideRoot},
		{"link.md", ErrOutsideRoot},       // a symlink out of the root
		{"inner-link.md", ErrOutsideRoot}, // reached through a symlink
		{"guide", ErrNotDocument},
		{"notes.txt", ErrNotDocument},
		{"missing.md", fs.ErrNotExist},
	} {
		if _, err := f.svc.Delete(ctx, bad.path); !errors.Is(err, bad.want) {
			t.Errorf("Delete(%q) = %v, want %v", bad.path, err, bad.want)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "secret.md")); err != nil {
		t.Fatalf("a refused delete touched the file outside: %v", err)
	}
	if _, err := os.Stat(filepath.Join(f.dir, "keep.md")); err != nil {
		t.Fatalf("a refused delete touched the link's target: %v", err)
	}

	trashed, err := f.svc.Delete(ctx, `guide\wifi.md`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(trashed, TrashDir+"/") || !strings.HasSuffix(trashed, "/guide/wifi.md") {
		t.Errorf("trashed at %q", trashed)
	}
	b, err := os.ReadFile(filepath.Join(f.dir, filepath.FromSlash(trashed)))
	if err != nil || !strings.Contains(string(b), "箱の裏") {
		t.Fatalf("the trash does not hold the document: %v", err)
	}
	if _, err := os.Stat(filepath.Join(f.dir, "guide", "wifi.md")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the document is still in place: %v", err)
	}
	eventually(t, 10*time.Second, "the index forgets it", func() bool {
		return !contains(f.searchPaths(t, "ルーターのパスワード", 3), "guide/wifi.md")
	})
	if err := f.svc.WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
	// The trash is never indexed, even after a full pass.
	if _, err := f.svc.Reindex(ctx); err != nil {
		t.Fatal(err)
	}
	for _, p := range f.searchPaths(t, "ルーターのパスワード", 5) {
		if strings.HasPrefix(p, TrashDir) || p == "guide/wifi.md" {
			t.Errorf("after a reindex search finds %q", p)
		}
	}
	// The same name deleted again in the same millisecond gets its own folder.
	writeFile(t, filepath.Join(f.dir, "guide", "wifi.md"), "# again\n")
	again, err := f.svc.Delete(ctx, "guide/wifi.md")
	if err != nil || again == trashed {
		t.Errorf("a second delete: %q, %v (first %q)", again, err, trashed)
	}
}

// A tester put a file named .playchat-trash in the knowledge base: Delete
// looped for ever looking for a free folder name in a trash that could
// never be a folder (every Lstat said "not a directory"), both cores busy,
// and each click started another loop. Any trash that cannot be used —
// a file in its place, a name taken every time — ends in kb.deleteFailed at
// once, and the document stays.
func TestDeleteWithAnUnusableTrashFailsAtOnceAndKeepsTheDocument(t *testing.T) {
	f := newFixture(t, "")
	writeFile(t, filepath.Join(f.dir, "report.md"), "# 報告\n\n本文。\n")
	writeFile(t, filepath.Join(f.dir, TrashDir), "not a folder\n")
	ctx := context.Background()
	if err := f.svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := f.svc.Delete(ctx, "report.md")
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Delete did not return: it loops over the trash")
	}
	if apperr.CodeOf(err) != apperr.KBDeleteFailed {
		t.Fatalf("Delete = %v (code %q), want kb.deleteFailed", err, apperr.CodeOf(err))
	}
	if _, serr := os.Stat(filepath.Join(f.dir, "report.md")); serr != nil {
		t.Errorf("the document is gone after a failed delete: %v", serr)
	}

	// Every name taken: the search for one ends too.
	root, rerr := os.OpenRoot(t.TempDir())
	if rerr != nil {
		t.Fatal(rerr)
	}
	defer root.Close()
	now := time.Date(2026, 12, 3, 8, 0, 0, 0, time.UTC)
	stamp := now.Format("20060102T150405.000")
	mk := func(dir string) {
		if err := root.MkdirAll(filepath.Join(TrashDir, dir, "a.md"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mk(stamp)
	for i := 2; i <= maxTrashTries; i++ {
		mk(stamp + "-" + strconv.Itoa(i))
	}
	if _, err := freeTrashPath(root, "a.md", now); err == nil {
		t.Error("freeTrashPath found a name with every one taken")
	}
}
