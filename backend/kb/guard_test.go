package kb

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"playchat/backend/guard"
)

// panickingEmbedder panics on every call, as a bug in an embedding client
// would.
type panickingEmbedder struct{}

func (panickingEmbedder) Embed(context.Context, string, []string) ([][]float32, error) {
	var m map[string]int
	m["boom"]++ // assignment to a nil map
	return nil, nil
}

func TestAPanicInTheEmbeddingJobIsRecoveredReportedOnceAndTheServiceKeepsWorking(t *testing.T) {
	reports := make(chan string, 8)
	g := guard.New(slog.New(slog.DiscardHandler), func(job string, _ any) { reports <- job })
	f := newFixture(t, "", withEmbedder(panickingEmbedder{}, fakeModel),
		func(o *Options, _ *Settings) { o.Guard = g })
	writeFile(t, filepath.Join(f.dir, "wifi.md"), "# 家のネットワーク\n\nWi-Fiのパスワードはルーターの裏に貼ってある。\n")
	ctx := context.Background()
	if err := f.svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if job := <-reports; job != "kb.embed" {
		t.Fatalf("reported job %q, want kb.embed", job) // nothing searched yet
	}
	// The process is alive and the knowledge base still indexes and
	// searches lexically; the crash shows as an embedding error.
	eventually(t, 10*time.Second, "indexed", func() bool { return f.docCount(t) == 1 })
	if err := f.svc.WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
	if got := f.searchPaths(t, "ルーターのパスワードはどこ？", 3); len(got) == 0 || got[0] != "wifi.md" {
		t.Errorf("search = %v, want wifi.md first", got)
	}
	eventually(t, 10*time.Second, "the crash in the status", func() bool {
		st, _ := f.svc.Status(ctx)
		return strings.Contains(st.EmbeddingError, "crashed")
	})
	// A second embedding pass (a new file) panics again: logged, not reported again.
	before := g.Panics("kb.embed")
	writeFile(t, filepath.Join(f.dir, "other.md"), "# 買い物\n\n牛乳と卵を買う。\n")
	f.svc.kickEmbed()
	f.svc.mu.Lock()
	f.svc.embed.backoff = 0
	f.svc.mu.Unlock()
	eventually(t, 10*time.Second, "indexed", func() bool { return f.docCount(t) == 2 })
	eventually(t, 10*time.Second, "a second embedding panic", func() bool { return g.Panics("kb.embed") > before })
	if err := f.svc.Close(); err != nil {
		t.Fatalf("Close after a recovered panic: %v", err)
	}
	// The query's semantic side may have hit the embedder too ("kb.search",
	// reported once on its own); "kb.embed" is not reported again.
	close(reports)
	for job := range reports {
		if job == "kb.embed" {
			t.Fatal("kb.embed was reported twice")
		}
	}
}
