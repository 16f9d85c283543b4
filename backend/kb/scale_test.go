//go:build scale

package kb

// The scale benchmark of issue 4 §9. Not part of the default test run:
//
//	go test -tags scale -run TestScale -v -timeout 60m ./backend/kb/
//
// KB_SCALE_DOCS (default 45000) and KB_SCALE_BYTES (default 112 MB) size the
// generated tree; KB_SCALE_LEXICONS=both also indexes with the trigram
// tokenizer, for the tokenizer comparison. KB_SCALE_DIR keeps the tree and
// the databases in that folder, so a later run (of this code or another
// version's) reuses them and measures queries without indexing again;
// KB_SCALE_LEXICAL=1 stops before the embeddings.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"
)

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func queryLatencies(t testing.TB, f *fixture, rounds int) (p50, p95 time.Duration, hit3 float64) {
	var ds []time.Duration
	hits := 0
	for r := range rounds {
		for _, q := range corpusQuestions {
			start := time.Now()
			got, err := f.svc.Search(context.Background(), q.Q, 10)
			ds = append(ds, time.Since(start))
			if err != nil {
				t.Fatal(err)
			}
			if r == 0 {
				for _, h := range got[:min(3, len(got))] {
					if strings.HasPrefix(h.Title, strings.TrimSuffix(filepath.Base(q.Answers[0]), ".md")) {
						hits++
						break
					}
				}
			}
		}
	}
	return percentile(ds, 0.5), percentile(ds, 0.95), float64(hits) / float64(len(corpusQuestions))
}

// layerLatencies times context layer 3 for the relevance evaluation's
// messages (questions and no-answer messages), rounds times each; cpu is
// the process's CPU time per message, which other load on the machine
// does not inflate as it does the wall times.
func layerLatencies(t testing.TB, f *fixture, rounds int) (p50, p95, cpu time.Duration) {
	var ds []time.Duration
	c0 := cpuTime()
	for range rounds {
		for _, msg := range evalMessages() {
			start := time.Now()
			layerFor(t, f, msg)
			ds = append(ds, time.Since(start))
		}
	}
	cpu = (cpuTime() - c0) / time.Duration(len(ds))
	return percentile(ds, 0.5), percentile(ds, 0.95), cpu
}

func evalMessages() []string {
	out := make([]string, 0, len(evalQuestions)+len(evalNoAnswer))
	for _, q := range evalQuestions {
		out = append(out, q.Q)
	}
	return append(out, evalNoAnswer...)
}

func TestScale(t *testing.T) {
	corpus := corpusDir(t)
	n := envInt("KB_SCALE_DOCS", 45000)
	size := int64(envInt("KB_SCALE_BYTES", 112_000_000))
	keep := os.Getenv("KB_SCALE_DIR")
	base := keep
	if base == "" {
		base = t.TempDir()
	}
	dir := filepath.Join(base, "tree")
	if _, err := os.Stat(dir); err != nil {
		start := time.Now()
		written := generateTree(t, corpus, dir, n, size)
		t.Logf("generated %d documents, %.1f MB, in %d folders (%v)", n, float64(written)/1e6, (n+99)/100, time.Since(start).Round(time.Millisecond))
	} else {
		t.Logf("reusing the tree and databases in %s", base)
	}

	ctx := context.Background()
	f := openFixture(t, filepath.Join(base, "kb.db"), dir)
	if os.Getenv("KB_SCALE_LEXICONS") == "both" {
		for _, stmt := range trigramSchema {
			if _, err := f.db.Bun().Exec(stmt); err != nil {
				t.Fatal(err)
			}
		}
		f.svc.lexes = []lexicon{kagomeLexicon, trigramLexicon}
	}
	rss := startRSS()
	start := time.Now()
	rep, err := f.svc.Reconcile(ctx)
	lexTime := time.Since(start)
	peak, peakRSS := rss.done()
	if err != nil {
		t.Fatal(err)
	}
	dbSize := fileSize(f.db.Path()) + fileSize(f.db.Path()+"-wal")
	t.Logf("initial lexical index: %v for %d documents (%+v); peak memory %d MiB anonymous, %d MiB resident; database %.0f MB",
		lexTime.Round(time.Millisecond), rep.Indexed, rep, peak, peakRSS, float64(dbSize)/1e6)

	start = time.Now()
	rep2, err := f.svc.Reconcile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := f.svc.Status(ctx); err == nil && len(st.Failed) > 0 {
		t.Logf("failed: %d, first: %+v", len(st.Failed), st.Failed[0])
	}
	t.Logf("second reconcile (nothing changed): %v, unchanged %d", time.Since(start).Round(time.Millisecond), rep2.Unchanged)

	if prof := os.Getenv("KB_SCALE_CPUPROFILE"); prof != "" {
		pf, err := os.Create(prof)
		if err != nil {
			t.Fatal(err)
		}
		pprof.StartCPUProfile(pf)
		queryLatencies(t, f, 5)
		pprof.StopCPUProfile()
		pf.Close()
	}
	if os.Getenv("KB_SCALE_BUDGETS") != "" {
		saved := postingBudget
		for _, b := range strings.Split(os.Getenv("KB_SCALE_BUDGETS"), ",") {
			postingBudget, _ = strconv.ParseFloat(b, 64)
			p50, p95, hit3 := queryLatencies(t, f, 3)
			t.Logf("posting budget %s: p50 %v, p95 %v, hit@3 by source %.2f", b, p50.Round(10*time.Microsecond), p95.Round(10*time.Microsecond), hit3)
		}
		postingBudget = saved
	}
	c0 := cpuTime()
	p50, p95, hit3 := queryLatencies(t, f, 5)
	t.Logf("lexical query latency over %d queries: p50 %v, p95 %v, CPU %v per query (hit@3 by source document %.2f)",
		5*len(corpusQuestions), p50.Round(10*time.Microsecond), p95.Round(10*time.Microsecond),
		((cpuTime() - c0) / time.Duration(5*len(corpusQuestions))).Round(10*time.Microsecond), hit3)
	p50, p95, cpu := layerLatencies(t, f, 3)
	t.Logf("context layer 3 (lexical) over %d messages: p50 %v, p95 %v, CPU %v per message",
		3*(len(evalQuestions)+len(evalNoAnswer)), p50.Round(10*time.Microsecond), p95.Round(10*time.Microsecond), cpu.Round(10*time.Microsecond))
	if os.Getenv("KB_SCALE_LEXICAL") != "" {
		return
	}

	// Atomic save → retrievable, with the watcher running.
	if err := f.svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
	var saves []time.Duration
	for i := range 10 {
		target := filepath.Join(dir, fmt.Sprintf("d%03d", i*37), "saved.md")
		defer os.Remove(target) // a kept tree stays as generated
		word := []string{"ゾルゲリウム", "ペンタクロン", "ミラフィード", "ホロギウス", "ネビュラント",
			"カスケリオン", "トルメナイト", "ヴェルダリス", "クオンタリア", "ザフィロール"}[i]
		tmp := filepath.Join(filepath.Dir(target), ".saved.md.swp")
		writeFile(t, tmp, "# 保存テスト\n\n"+word+"は架空の物質です。\n")
		start := time.Now()
		if err := os.Rename(tmp, target); err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("d%03d/saved.md", i*37)
		deadline := time.Now().Add(10 * time.Second)
		for {
			hits, err := f.svc.Search(ctx, word, 1)
			if err == nil && len(hits) > 0 && hits[0].Path == want {
				break
			}
			if time.Now().After(deadline) {
				st, _ := f.svc.Status(ctx)
				t.Fatalf("%s not retrievable after 10 s: search %q → %+v, %v; status %+v", want, word, hits, err, st)
			}
			time.Sleep(5 * time.Millisecond)
		}
		saves = append(saves, time.Since(start))
	}
	t.Logf("atomic save → retrievable: median %v, max %v (debounce %v)",
		percentile(saves, 0.5).Round(time.Millisecond), percentile(saves, 0.99).Round(time.Millisecond), debounceDelay)
	f.svc.Close()

	// Embeddings against the fake OpenAI-compatible server.
	client, srv := fakeEmbedder(t)
	emb := &resettingEmbedder{inner: client, reset: srv.Reset}
	fe := openFixture(t, filepath.Join(base, "kb-embed.db"), dir, withEmbedder(emb, fakeModel))
	fe.set.update(func(s *Settings) { s.MinScore = 0.5 })
	rss = startRSS()
	start = time.Now()
	if _, err := fe.svc.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	lex2 := time.Since(start)
	embedded, err := fe.svc.EmbedPending(ctx)
	total := time.Since(start)
	peak, peakRSS = rss.done()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("indexing with embeddings (fake server, dim 256): %v total (lexical %v + %d sections embedded in %d requests in %v); peak memory %d MiB anonymous, %d MiB resident",
		total.Round(time.Millisecond), lex2.Round(time.Millisecond), embedded, emb.calls.Load(),
		(total - lex2).Round(time.Millisecond), peak, peakRSS)
	if prof := os.Getenv("KB_SCALE_HYBRID_CPUPROFILE"); prof != "" {
		pf, err := os.Create(prof)
		if err != nil {
			t.Fatal(err)
		}
		pprof.StartCPUProfile(pf)
		queryLatencies(t, fe, 5)
		pprof.StopCPUProfile()
		pf.Close()
	}
	p50, p95, hit3 = queryLatencies(t, fe, 5)
	t.Logf("hybrid query latency (BM25 + cosine over all sections, RRF): p50 %v, p95 %v (hit@3 by source %.2f)",
		p50.Round(10*time.Microsecond), p95.Round(10*time.Microsecond), hit3)
}
