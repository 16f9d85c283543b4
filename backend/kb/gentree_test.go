package kb

// The generated knowledge base of the scale test (scale_test.go) and the
// indexing and query benchmarks (bench_kb_test.go): n documents of about
// size bytes in all, made of the corpus's sections.

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
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

// rssSampler records every 20 ms the peak resident set size (VmRSS) and
// the peak of its anonymous part (RssAnon: heap and stacks). The rest is
// file pages, mostly the database's, which SQLite reads through a memory
// map (store.MmapSize): the kernel drops them under pressure, and read
// with pread they would sit in its page cache all the same.
type rssSampler struct {
	peak, peakAnon atomic.Int64
	stop           chan struct{}
}

func startRSS() *rssSampler {
	s := &rssSampler{stop: make(chan struct{})}
	go func() {
		for {
			rss, anon := readRSS()
			if rss > s.peak.Load() {
				s.peak.Store(rss)
			}
			if anon > s.peakAnon.Load() {
				s.peakAnon.Store(anon)
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

// done stops the sampler and returns the peaks in MiB: anonymous memory,
// and the whole resident set.
func (s *rssSampler) done() (anon, rss int64) {
	close(s.stop)
	return s.peakAnon.Load() / 1024, s.peak.Load() / 1024
}

// readRSS returns VmRSS and RssAnon of this process in KiB.
func readRSS() (rss, anon int64) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			rss, _ = strconv.ParseInt(strings.Fields(v)[0], 10, 64)
		} else if v, ok := strings.CutPrefix(sc.Text(), "RssAnon:"); ok {
			anon, _ = strconv.ParseInt(strings.Fields(v)[0], 10, 64)
		}
	}
	return rss, anon
}

func percentile(ds []time.Duration, p float64) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[min(len(ds)-1, int(float64(len(ds))*p))]
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

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
