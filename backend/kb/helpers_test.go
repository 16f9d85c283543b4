package kb

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"playchat/backend/llm"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
	"playchat/internal/testcorpus"
)

// corpusDir is the real Japanese Markdown corpus (testcorpus.Dir).
func corpusDir(t testing.TB) string { return testcorpus.Dir(t) }

// settingsBox holds Settings a test can change while the service runs.
type settingsBox struct {
	mu  sync.Mutex
	set Settings
}

func (b *settingsBox) get() Settings {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.set
}

func (b *settingsBox) update(fn func(*Settings)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	fn(&b.set)
}

type fixture struct {
	svc *Service
	db  *store.DB
	dir string
	set *settingsBox
}

type fixtureOpt func(*Options, *Settings)

func withEmbedder(e Embedder, model string) fixtureOpt {
	return func(o *Options, s *Settings) { o.Embedder, s.EmbeddingModel = e, model }
}

// newFixture opens a fresh database and a service on dir (a new temp folder
// when ""), closed at cleanup.
func newFixture(t testing.TB, dir string, opts ...fixtureOpt) *fixture {
	t.Helper()
	return openFixture(t, filepath.Join(t.TempDir(), "kb.db"), dir, opts...)
}

// openFixture is newFixture on the database at dbPath (created when
// missing).
func openFixture(t testing.TB, dbPath, dir string, opts ...fixtureOpt) *fixture {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if dir == "" {
		dir = t.TempDir()
	}
	box := &settingsBox{set: Settings{Dir: dir, TopK: 3, MinScore: 0.75}}
	o := Options{DB: db, Settings: box.get}
	for _, f := range opts {
		f(&o, &box.set)
	}
	svc, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		svc.Close()
		db.Close()
	})
	return &fixture{svc: svc, db: db, dir: dir, set: box}
}

// fakeEmbedder is the llm client against the fake OpenAI-compatible server
// (hashed bag-of-words vectors of dim 256), as "openai/fake-embed".
func fakeEmbedder(t testing.TB, opts ...llmtest.Option) (*llm.Client, *llmtest.Server) {
	srv := llmtest.NewServer(t, append([]llmtest.Option{llmtest.WithEmbeddingDim(256)}, opts...)...)
	return llm.New(llm.Providers{OpenAIBaseURL: srv.URL}), srv
}

const fakeModel = "openai/fake-embed"

// eventually polls cond every 10 ms until it holds or the deadline passes.
func eventually(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", within, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyTree copies the .md files of src into dst.
func copyTree(t testing.TB, src, dst string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".md" {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		writeFile(t, filepath.Join(dst, rel), string(data))
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (f *fixture) searchPaths(t testing.TB, q string, n int) []string {
	t.Helper()
	hits, err := f.svc.Search(context.Background(), q, n)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range hits {
		out = append(out, h.Path)
	}
	return out
}

func (f *fixture) docCount(t testing.TB) int {
	t.Helper()
	var n int
	if err := f.db.Bun().QueryRow(`SELECT count(*) FROM local_knowledge_docs`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
