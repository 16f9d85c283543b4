package kb

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

func TestReadRefusesPathsOutsideTheRoot(t *testing.T) {
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.md"), "# 秘密\n\nパスワード hunter2\n")
	f := newFixture(t, "")
	writeFile(t, filepath.Join(f.dir, "ok.md"), "# OK\n\n中身\n")
	writeFile(t, filepath.Join(f.dir, "sub", "in.md"), "# 中\n")
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(f.dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(f.dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(f.dir, "ok.md"), filepath.Join(f.dir, "inside-link.md")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, p := range []string{
		"../" + filepath.Base(outside) + "/secret.md",
		"sub/../../secret.md",
		filepath.Join(outside, "secret.md"),
		"/etc/passwd.md",
		`..\secret.md`,
		"link.md",           // symlink to a file outside
		"linkdir/secret.md", // through a symlinked folder outside
		"sub/../linkdir/secret.md",
	} {
		_, err := f.svc.Read(ctx, p)
		if !errors.Is(err, ErrOutsideRoot) {
			t.Errorf("Read(%q) = %v, want ErrOutsideRoot", p, err)
		}
	}
	for _, p := range []string{"notes.txt", ".hidden.md", ""} {
		if _, err := f.svc.Read(ctx, p); err == nil {
			t.Errorf("Read(%q) succeeded, want an error", p)
		}
	}
	d, err := f.svc.Read(ctx, "sub/../ok.md")
	if err != nil || d.Path != "ok.md" || d.Title != "OK" || !strings.Contains(d.Content, "中身") {
		t.Errorf("Read(sub/../ok.md) = %+v, %v", d, err)
	}
	if _, err := f.svc.Read(ctx, "inside-link.md"); err != nil {
		t.Errorf("a symlink within the root is readable: %v", err)
	}
	if _, err := f.svc.Read(ctx, "missing.md"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Read(missing.md) = %v, want not exist", err)
	}
}

func TestIndexingNeverFollowsSymlinksOutOfTheRoot(t *testing.T) {
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.md"), "# 秘密\n\n機密情報ズワイガニ\n")
	f := newFixture(t, "")
	writeFile(t, filepath.Join(f.dir, "ok.md"), "# OK\n")
	os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(f.dir, "link.md"))
	os.Symlink(outside, filepath.Join(f.dir, "linkdir"))
	rep, err := f.svc.Reconcile(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := f.searchPaths(t, "ズワイガニ", 5); len(got) != 0 {
		t.Errorf("content from outside the root is searchable: %v", got)
	}
	st, _ := f.svc.Status(context.Background())
	if rep.Failed != 1 || len(st.Failed) != 1 || st.Failed[0].Path != "link.md" {
		t.Errorf("report %+v, failed %+v: want link.md reported as failed", rep, st.Failed)
	}
}

func TestUnreadableDocumentsAreReportedNotFatal(t *testing.T) {
	f := newFixture(t, "")
	writeFile(t, filepath.Join(f.dir, "good.md"), "# 良い\n\n普通の文書。\n")
	writeFile(t, filepath.Join(f.dir, "binary.md"), "\x00\x01\x02PNG")
	writeFile(t, filepath.Join(f.dir, "sjis.md"), "# \x93\xfa\x96\x7b\x8c\xea\n\n\x82\xb1\x82\xf1\x82\xc9\x82\xbf\x82\xcd\n") // "# 日本語 / こんにちは" in Shift_JIS
	rep, err := f.svc.Reconcile(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Indexed != 2 || rep.Failed != 1 {
		t.Errorf("report = %+v, want 2 indexed (UTF-8 and Shift_JIS) and 1 failed", rep)
	}
	st, _ := f.svc.Status(context.Background())
	if len(st.Failed) != 1 || st.Failed[0].Path != "binary.md" || st.Failed[0].Error == "" {
		t.Errorf("failed = %+v", st.Failed)
	}
	if got := f.searchPaths(t, "日本語", 1); len(got) != 1 || got[0] != "sjis.md" {
		t.Errorf("Shift_JIS document not searchable: %v", got)
	}
}

func TestFolderIsCreatedAndSeededOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kb")
	seed := fstest.MapFS{
		"guide.md": {Data: []byte("# playchat ガイド\n\nデータの場所は PLAYCHAT_DATA_DIR です。\n")},
		"seed.go":  {Data: []byte("package x")},
	}
	f := newFixture(t, dir)
	f.svc.o.Seed = seed
	rep, err := f.svc.Reconcile(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Seeded || rep.Indexed != 1 {
		t.Fatalf("first pass = %+v, want seeded with 1 document", rep)
	}
	if _, err := os.Stat(filepath.Join(dir, "seed.go")); err == nil {
		t.Error("a non-Markdown seed file was copied")
	}
	if got := f.searchPaths(t, "データの場所", 1); len(got) != 1 || got[0] != "guide.md" {
		t.Errorf("seeded guide not searchable: %v", got)
	}
	// The user deletes the guide: it is not seeded again.
	os.Remove(filepath.Join(dir, "guide.md"))
	rep, _ = f.svc.Reconcile(context.Background())
	if rep.Seeded || rep.Removed != 1 || f.docCount(t) != 0 {
		t.Errorf("second pass = %+v, want not seeded, guide removed", rep)
	}
}

func TestTreeListsFoldersFirstFromTheIndex(t *testing.T) {
	f := newFixture(t, "")
	for _, p := range []string{"b.md", "a/z.md", "a/y/x.md", "c.md"} {
		writeFile(t, filepath.Join(f.dir, p), "# "+p+"\n")
	}
	if _, err := f.svc.Reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	root, err := f.svc.Tree(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var walk func(n Node, depth int) []string
	walk = func(n Node, depth int) []string {
		out := []string{strings.Repeat(" ", depth) + n.Path}
		for _, c := range n.Children {
			out = append(out, walk(c, depth+1)...)
		}
		return out
	}
	got := strings.Join(walk(root, 0), "|")
	want := "| a|  a/y|   a/y/x.md|  a/z.md| b.md| c.md"
	if got != want {
		t.Errorf("tree = %q, want %q", got, want)
	}
}

func TestFolderListsOneLevelWithDocumentCounts(t *testing.T) {
	f := newFixture(t, "")
	for _, p := range []string{"b.md", "a/z.md", "a/y/x.md", "a/y/w.md", "a0.md", "c.md"} {
		writeFile(t, filepath.Join(f.dir, p), "# "+p+"\n")
	}
	if _, err := f.svc.Reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	list := func(n Node) string {
		var out []string
		for _, c := range n.Children {
			out = append(out, fmt.Sprintf("%s:%v:%d", c.Path, c.Dir, c.Count))
		}
		return strings.Join(out, " ")
	}
	root, err := f.svc.Folder(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if got := list(root); got != "a:true:3 a0.md:false:0 b.md:false:0 c.md:false:0" || root.Count != 6 {
		t.Errorf("root = %q (count %d)", got, root.Count)
	}
	a, err := f.svc.Folder(context.Background(), "a/")
	if err != nil {
		t.Fatal(err)
	}
	// "a0.md" sorts right after "a/…" but is not inside a.
	if got := list(a); got != "a/y:true:2 a/z.md:false:0" || a.Name != "a" {
		t.Errorf("a = %q", got)
	}
	if _, err := f.svc.Folder(context.Background(), "nope"); !errors.Is(err, ErrNotDocument) {
		t.Errorf("unknown folder: err = %v", err)
	}
}

// Processes starting at once on a new data dir (issue 21): the folder is
// seeded once, whole — each pass finds the guide, none a half-copied
// folder, and no temporary folder is left beside it.
func TestFolderSeededByManyAtOnceIsWholeOnce(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "kb")
	seed := fstest.MapFS{"guide.md": {Data: []byte("# ガイド\n\n本文\n")}, "faq.md": {Data: []byte("# FAQ\n")}}
	const n = 8
	fxs := make([]*fixture, n)
	for i := range fxs {
		fxs[i] = newFixture(t, dir)
		fxs[i].svc.o.Seed = seed
	}
	seeded := make([]bool, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i, f := range fxs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rep, err := f.svc.Reconcile(context.Background())
			seeded[i], errs[i] = rep.Seeded, err
		}()
	}
	wg.Wait()
	count := 0
	for i := range fxs {
		if errs[i] != nil {
			t.Errorf("pass %d: %v", i, errs[i])
		}
		if seeded[i] {
			count++
		}
		if got := fxs[i].docCount(t); got != 2 {
			t.Errorf("pass %d indexed %d documents, want both of the seed", i, got)
		}
	}
	if count != 1 {
		t.Errorf("seeded by %d passes, want 1", count)
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 {
		t.Errorf("beside the folder: %v", entries)
	}
}
