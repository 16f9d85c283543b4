package interop

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"playchat/backend/core"
	"playchat/internal/testcorpus"
)

// fixture is a real core (SQLite in a temp dir) whose knowledge base holds
// real Japanese documents in two domains: vue (the Vue guide's essentials)
// and rust (the Rust book's chapters 4 and 8).
type fixture struct {
	c     *core.Core
	s     *Service
	kbDir string
	perms *permBox
}

type permBox struct {
	mu sync.Mutex
	p  Permissions
}

func (b *permBox) get() Permissions  { b.mu.Lock(); defer b.mu.Unlock(); return b.p }
func (b *permBox) set(p Permissions) { b.mu.Lock(); b.p = p; b.mu.Unlock() }

// copyCorpus fills dir with the fixture's documents.
func copyCorpus(t testing.TB, dir string) {
	t.Helper()
	corpus := testcorpus.Dir(t)
	copyGlob(t, filepath.Join(corpus, "vue-docs-ja", "src", "guide", "essentials", "*.md"), filepath.Join(dir, "vue"))
	copyGlob(t, filepath.Join(corpus, "rust-book-ja", "src", "ch04-*.md"), filepath.Join(dir, "rust"))
	copyGlob(t, filepath.Join(corpus, "rust-book-ja", "src", "ch08-*.md"), filepath.Join(dir, "rust"))
}

func copyGlob(t testing.TB, pattern, dst string) {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files for %s (%v)", pattern, err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// newFixture opens the core on a fresh data dir and indexes the corpus.
func newFixture(t testing.TB) *fixture {
	t.Helper()
	ctx := context.Background()
	data := t.TempDir()
	kbDir := filepath.Join(data, "knowledge_base")
	copyCorpus(t, kbDir)
	c, err := core.Open(ctx, core.Options{DataDir: data, Environ: []string{"KNOWLEDGE_BASE_DIR=" + kbDir},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := c.KB.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	box := &permBox{}
	s, err := FromCore(c, box.get, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{c: c, s: s, kbDir: kbDir, perms: box}
}

// tree lists every file below dir (relative, slash-separated), for
// "nothing was written" checks.
func tree(t testing.TB, dir string) string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return strings.Join(out, "\n")
}
