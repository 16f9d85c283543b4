package kb

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// startedFixture is a fixture whose service runs (watcher on) after an
// initial pass over files.
func startedFixture(t *testing.T, files map[string]string) *fixture {
	t.Helper()
	f := newFixture(t, "")
	for rel, body := range files {
		writeFile(t, filepath.Join(f.dir, rel), body)
	}
	ctx := context.Background()
	if err := f.svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "initial pass", func() bool {
		st, err := f.svc.Status(ctx)
		return err == nil && st.Watching && !st.Indexing && st.Indexed == len(files)
	})
	return f
}

func (f *fixture) hasDoc(t testing.TB, rel string) bool {
	t.Helper()
	var n int
	if err := f.db.Bun().QueryRow(`SELECT count(*) FROM local_knowledge_docs WHERE path = ? AND error = ''`, rel).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

func (f *fixture) indexCount(rel string) int {
	f.svc.mu.Lock()
	defer f.svc.mu.Unlock()
	return f.svc.indexCount[rel]
}

// findsIn reports whether searching q ranks rel first.
func (f *fixture) findsIn(t testing.TB, q, rel string) bool {
	got := f.searchPaths(t, q, 1)
	return len(got) == 1 && got[0] == rel
}

func TestAtomicSaveReindexesOnceAndNextSearchSeesIt(t *testing.T) {
	f := startedFixture(t, map[string]string{"notes/料理.md": "# 料理\n\nカレーの作り方。\n"})
	before := f.indexCount("notes/料理.md")
	// vim and atomic writers: write a hidden temp file, rename it over.
	tmp := filepath.Join(f.dir, "notes", ".料理.md.swp")
	writeFile(t, tmp, "# 料理\n\n肉じゃがの作り方。\n")
	if err := os.Rename(tmp, filepath.Join(f.dir, "notes", "料理.md")); err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, "new content searchable", func() bool { return f.findsIn(t, "肉じゃが", "notes/料理.md") })
	if err := f.svc.WaitIdle(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := f.indexCount("notes/料理.md") - before; got != 1 {
		t.Errorf("atomic save indexed the file %d times, want exactly 1", got)
	}
	if f.docCount(t) != 1 {
		t.Errorf("index holds %d documents, want 1 (temp file indexed?)", f.docCount(t))
	}
}

func TestNewNestedFolderIsWatchedAndIndexed(t *testing.T) {
	f := startedFixture(t, map[string]string{"a.md": "# A\n"})
	deep := filepath.Join(f.dir, "x", "y", "z")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(deep, "深い.md"), "# 深い階層\n\n潜水艦の話。\n")
	eventually(t, 5*time.Second, "file in new nested folder indexed", func() bool { return f.hasDoc(t, "x/y/z/深い.md") })
	// The new folders are watched: a later file there is seen too.
	writeFile(t, filepath.Join(deep, "後.md"), "# 後から\n\n飛行船の話。\n")
	eventually(t, 5*time.Second, "later file in the new folder indexed", func() bool { return f.findsIn(t, "飛行船", "x/y/z/後.md") })
}

func TestDeleteAndRenameUpdateTheIndex(t *testing.T) {
	f := startedFixture(t, map[string]string{
		"keep.md":       "# 残す\n",
		"gone.md":       "# 消す\n\n削除される文書。\n",
		"old.md":        "# 名前\n\n改名される文書。\n",
		"dir/in.md":     "# 中身\n\nフォルダごと移動する文書。\n",
		"dir/sub/in.md": "# 下層\n",
	})
	if err := os.Remove(filepath.Join(f.dir, "gone.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(f.dir, "old.md"), filepath.Join(f.dir, "new.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(f.dir, "dir"), filepath.Join(f.dir, "moved")); err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, "deletes and renames applied", func() bool {
		return !f.hasDoc(t, "gone.md") && !f.hasDoc(t, "old.md") && f.hasDoc(t, "new.md") &&
			!f.hasDoc(t, "dir/in.md") && f.hasDoc(t, "moved/in.md") && f.hasDoc(t, "moved/sub/in.md")
	})
	if n := f.docCount(t); n != 4 {
		t.Errorf("index holds %d documents, want 4", n)
	}
	// The moved folder is still watched under its new name.
	writeFile(t, filepath.Join(f.dir, "moved", "sub", "新.md"), "# 新規\n\n移動先で作った文書。\n")
	eventually(t, 5*time.Second, "file in moved folder indexed", func() bool { return f.hasDoc(t, "moved/sub/新.md") })
}

func TestBurstOfAThousandFiles(t *testing.T) {
	f := startedFixture(t, nil)
	for i := range 1000 {
		writeFile(t, filepath.Join(f.dir, fmt.Sprintf("burst/%02d/doc%04d.md", i%10, i)),
			fmt.Sprintf("# 文書 %d\n\n連番%04dの本文です。\n", i, i))
	}
	eventually(t, 60*time.Second, "1,000 files indexed", func() bool { return f.docCount(t) == 1000 })
	if err := f.svc.WaitIdle(context.Background()); err != nil {
		t.Fatal(err)
	}
	st, err := f.svc.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Indexed != 1000 || st.Pending != 0 || len(st.Failed) != 0 {
		t.Errorf("status = %+v, want 1000 indexed, none pending or failed", st)
	}
}

func TestHiddenAndTemporaryFilesAreNeverIndexed(t *testing.T) {
	f := startedFixture(t, map[string]string{"ok.md": "# OK\n"})
	for _, rel := range []string{".hidden.md", ".git/x.md", "doc.md~", "#doc.md#", "~$doc.md", "doc.md.tmp", "doc.swp", "note.txt", ".obsidian/plugins/a.md"} {
		writeFile(t, filepath.Join(f.dir, rel), "# 隠し\n")
	}
	writeFile(t, filepath.Join(f.dir, "visible.md"), "# 見える\n")
	eventually(t, 5*time.Second, "visible file indexed", func() bool { return f.hasDoc(t, "visible.md") })
	if err := f.svc.WaitIdle(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := f.docCount(t); n != 2 {
		t.Errorf("index holds %d documents, want 2 (hidden or temp files indexed)", n)
	}
}

func TestWatcherErrorTriggersFullRescan(t *testing.T) {
	f := startedFixture(t, map[string]string{"sub/a.md": "# A\n"})
	f.svc.mu.Lock()
	w := f.svc.watch
	f.svc.mu.Unlock()
	// Lose the watch on sub, as an overflow loses events, then change it.
	sub := filepath.Join(f.dir, "sub")
	w.forgetTree(sub)
	writeFile(t, filepath.Join(sub, "missed.md"), "# 見逃し\n\n取りこぼしたイベント。\n")
	if err := f.svc.WaitIdle(context.Background()); err != nil {
		t.Fatal(err)
	}
	if f.hasDoc(t, "sub/missed.md") {
		t.Fatal("file indexed without a watch: the test does not test the rescan")
	}
	w.onError(fsnotify.ErrEventOverflow)
	eventually(t, 10*time.Second, "rescan indexes the missed file", func() bool { return f.hasDoc(t, "sub/missed.md") })
	st, _ := f.svc.Status(context.Background())
	if st.WatchError == "" {
		t.Error("status does not report the watcher error")
	}
	// The rescan re-added the watch.
	writeFile(t, filepath.Join(sub, "after.md"), "# 後\n")
	eventually(t, 5*time.Second, "sub watched again", func() bool { return f.hasDoc(t, "sub/after.md") })
}

// limitWatches makes fsnotify's Add fail with ENOSPC (a full inotify table)
// once n folders are watched, until raise is called.
type limitWatches struct {
	mu      sync.Mutex
	n, used int
	raised  bool
}

func (l *limitWatches) add(fw *fsnotify.Watcher, dir string) error {
	l.mu.Lock()
	full := !l.raised && l.used >= l.n
	if !full {
		l.used++
	}
	l.mu.Unlock()
	if full {
		return fmt.Errorf("add %s: %w", dir, syscall.ENOSPC)
	}
	return fw.Add(dir)
}

func (l *limitWatches) raise() { l.mu.Lock(); l.raised = true; l.mu.Unlock() }

// Issue 22: past fs.inotify.max_user_watches the status was a cut-off
// English line, a file saved in an unwatched folder was not found after
// 75 s, and the watcher never tried again once the limit was raised. The
// folders it cannot watch are polled every WatchPoll (a saved file is found
// within it), the status is coded (kb.watchLimit, worded by the window),
// and once the limit allows every folder is watched live again.
func TestPastTheInotifyLimitUnwatchedFoldersArePolledAndWatchedAgain(t *testing.T) {
	lim := &limitWatches{n: 2}
	f := newFixture(t, "", func(o *Options, _ *Settings) {
		o.WatchPoll = 300 * time.Millisecond
		o.addWatch = lim.add
	})
	for _, d := range []string{"a", "b/c", "d"} {
		writeFile(t, filepath.Join(f.dir, d, "x.md"), "# "+d+"\n")
	}
	ctx := context.Background()
	if err := f.svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "the start-up pass", func() bool {
		st, err := f.svc.Status(ctx)
		return err == nil && !st.Indexing && st.Indexed == 3
	})
	st, _ := f.svc.Status(ctx)
	if st.WatchErrorInfo == nil || st.WatchErrorInfo.Code != "kb.watchLimit" || !st.Watching {
		t.Fatalf("status = watching %v, %q, %+v; want kb.watchLimit", st.Watching, st.WatchError, st.WatchErrorInfo)
	}
	if !strings.Contains(st.WatchError, "every 0 seconds") && !strings.Contains(st.WatchError, "checked for changes") {
		t.Errorf("watch error is not a full sentence: %q", st.WatchError)
	}
	// A file saved in a folder past the limit is found by the poll.
	var unwatched string
	f.svc.mu.Lock()
	w := f.svc.watch
	f.svc.mu.Unlock()
	for _, d := range []string{"a", "b", "b/c", "d"} {
		w.mu.Lock()
		watched := w.dirs[filepath.Join(f.dir, d)]
		w.mu.Unlock()
		if !watched {
			unwatched = d
			break
		}
	}
	if unwatched == "" {
		t.Fatal("every folder is watched: the limit did not bite")
	}
	writeFile(t, filepath.Join(f.dir, unwatched, "new.md"), "# 新しいメモ\n\n紫陽花の剪定。\n")
	eventually(t, 10*time.Second, "the file in the unwatched folder indexed", func() bool {
		return f.hasDoc(t, unwatched+"/new.md")
	})
	// The limit is raised: the next poll watches everything and clears the status.
	lim.raise()
	eventually(t, 10*time.Second, "watching resumed", func() bool {
		st, _ := f.svc.Status(ctx)
		return st.WatchError == "" && st.WatchErrorInfo == nil
	})
	writeFile(t, filepath.Join(f.dir, unwatched, "live.md"), "# ライブ\n\n即座に見つかる。\n")
	eventually(t, 5*time.Second, "a save indexed live", func() bool { return f.hasDoc(t, unwatched+"/live.md") })
}
