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
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"playchat/backend/kb/markdown"
)

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// sourceSections splits every corpus document into sections at headings of
// level ≤ 3 (outside code fences), raw text kept.
func sourceSections(t testing.TB, corpus string) (names []string, docs [][]string) {
	err := filepath.WalkDir(corpus, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".md" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var secs []string
		var cur strings.Builder
		fence := false
		for line := range strings.SplitAfterSeq(string(data), "\n") {
			trim := strings.TrimSpace(line)
			if strings.HasPrefix(trim, "```") {
				fence = !fence
			}
			if lv := markdown.HeadingLevel(strings.TrimRight(line, "\n")); !fence && lv > 0 && lv <= 3 && cur.Len() > 0 {
				secs = append(secs, cur.String())
				cur.Reset()
			}
			cur.WriteString(line)
		}
		if cur.Len() > 0 {
			secs = append(secs, cur.String())
		}
		names = append(names, strings.TrimSuffix(filepath.Base(p), ".md"))
		docs = append(docs, secs)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names, docs
}

// generateTree writes n documents totalling about size bytes into dir, 100 a
// folder: each a copy of one corpus document's sections, shuffled and cut to
// the running average size, under a new name and title.
func generateTree(t testing.TB, corpus, dir string, n int, size int64) int64 {
	names, docs := sourceSections(t, corpus)
	rng := rand.New(rand.NewPCG(4, 45000))
	var written int64
	for i := range n {
		src := rng.IntN(len(docs))
		secs := append([]string(nil), docs[src]...)
		rng.Shuffle(len(secs), func(a, b int) { secs[a], secs[b] = secs[b], secs[a] })
		target := (size - written) / int64(n-i)
		var b strings.Builder
		fmt.Fprintf(&b, "# %s — copy %d\n\n", names[src], i)
		for _, s := range secs {
			if int64(b.Len()) >= target {
				break
			}
			if room := target - int64(b.Len()); int64(len(s)) > 2*room {
				s = cutAtLine(s, int(room))
			}
			b.WriteString(s)
		}
		p := filepath.Join(dir, fmt.Sprintf("d%03d", i/100), fmt.Sprintf("%s-%05d.md", names[src], i))
		if i%100 == 0 {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		written += int64(b.Len())
	}
	return written
}

func cutAtLine(s string, n int) string {
	if n >= len(s) {
		return s
	}
	if i := strings.LastIndexByte(s[:n], '\n'); i > 0 {
		return s[:i+1]
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// rssSampler records the peak resident set size (VmRSS) every 20 ms.
type rssSampler struct {
	peak atomic.Int64
	stop chan struct{}
}

func startRSS() *rssSampler {
	s := &rssSampler{stop: make(chan struct{})}
	go func() {
		for {
			if kb := readVmRSS(); kb > s.peak.Load() {
				s.peak.Store(kb)
			}
			select {
			case <-s.stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return s
}

func (s *rssSampler) done() int64 { close(s.stop); return s.peak.Load() / 1024 }

func readVmRSS() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			return n
		}
	}
	return 0
}

func percentile(ds []time.Duration, p float64) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[min(len(ds)-1, int(float64(len(ds))*p))]
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

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
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
	peak := rss.done()
	if err != nil {
		t.Fatal(err)
	}
	dbSize := fileSize(f.db.Path()) + fileSize(f.db.Path()+"-wal")
	t.Logf("initial lexical index: %v for %d documents (%+v); peak RSS %d MiB; database %.0f MB",
		lexTime.Round(time.Millisecond), rep.Indexed, rep, peak, float64(dbSize)/1e6)

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
	peak = rss.done()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("indexing with embeddings (fake server, dim 256): %v total (lexical %v + %d sections embedded in %d requests in %v); peak RSS %d MiB",
		total.Round(time.Millisecond), lex2.Round(time.Millisecond), embedded, emb.calls.Load(),
		(total - lex2).Round(time.Millisecond), peak)
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

// resettingEmbedder forgets the fake server's recorded requests after each
// call: the server keeps every input for inspection, which at 73,000 sections
// would measure the fake's memory, not the knowledge base's.
type resettingEmbedder struct {
	inner Embedder
	reset func()
	calls atomic.Int64
}

func (e *resettingEmbedder) Embed(ctx context.Context, model string, in []string) ([][]float32, error) {
	defer e.reset()
	e.calls.Add(1)
	return e.inner.Embed(ctx, model, in)
}

func fileSize(p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return fi.Size()
}
