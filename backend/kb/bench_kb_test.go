package kb

// Indexing and query benchmarks of issue 29, each reporting its figure
// beside a floor measured in the same run, so that load on the machine
// cancels in the ratio:
//
//	go test -run '^$' -bench 'KBIndex|KBQuery' -benchtime 1x ./backend/kb/ -args -kb.docs=45000
//
// -kb.docs sizes the generated tree (generateTree: corpus sections, about
// 2,500 bytes a document, 112 MB at 45,000); -kb.dir keeps the tree and the
// index there, so BenchmarkKBQuery in a later process reuses what
// BenchmarkKBIndex built.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"

	"playchat/backend/jatext"
	"playchat/backend/store"
)

var (
	benchKBDocs = flag.Int("kb.docs", 5000, "documents in the tree of BenchmarkKBIndex and BenchmarkKBQuery")
	benchKBDir  = flag.String("kb.dir", "", "folder that keeps the benchmark tree and index between runs (default: a temporary one)")
)

// benchKBBytesPerDoc is the generated documents' mean size: 112 MB over
// 45,000 documents, as in the scale test.
const benchKBBytesPerDoc = 112_000_000 / 45_000

// kbBench is the generated tree and the folder its indexes live in.
type kbBench struct {
	base, tree string
	docs       int
	bytes      int64
}

var (
	kbBenchMu    sync.Mutex
	kbBenchState *kbBench
	benchCleanup []func()
)

// benchTree generates (once per process, or reuses from -kb.dir) the tree
// of -kb.docs documents.
func benchTree(b *testing.B) *kbBench {
	kbBenchMu.Lock()
	defer kbBenchMu.Unlock()
	if kbBenchState != nil {
		return kbBenchState
	}
	base := *benchKBDir
	if base == "" {
		var err error
		if base, err = os.MkdirTemp("", "kb-bench-"); err != nil {
			b.Fatal(err)
		}
		benchCleanup = append(benchCleanup, func() { os.RemoveAll(base) })
	}
	st := &kbBench{base: base, tree: filepath.Join(base, fmt.Sprintf("tree-%d", *benchKBDocs)), docs: *benchKBDocs}
	if _, err := os.Stat(st.tree); err != nil {
		start := time.Now()
		st.bytes = generateTree(b, corpusDir(b), st.tree, st.docs, int64(st.docs)*benchKBBytesPerDoc)
		b.Logf("generated %d documents, %.1f MB, in %v", st.docs, float64(st.bytes)/1e6, time.Since(start).Round(time.Millisecond))
	} else {
		_ = filepath.WalkDir(st.tree, func(_ string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if fi, err := d.Info(); err == nil {
					st.bytes += fi.Size()
				}
			}
			return nil
		})
	}
	kbBenchState = st
	return st
}

// dbPath is where the benchmark's finished index is kept.
func (k *kbBench) dbPath() string { return filepath.Join(k.base, fmt.Sprintf("index-%d.db", k.docs)) }

// indexFloor reads every document of root and segments its whole text with
// kagome (jatext.Segment, as the indexer segments titles, headings and
// sections), on as many workers as the indexer prepares with, writing
// nothing: the time no first index can beat.
func indexFloor(b *testing.B, root string) time.Duration {
	start := time.Now()
	paths := make(chan string, 256)
	var wg sync.WaitGroup
	var failed error
	var mu sync.Mutex
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range paths {
				data, err := os.ReadFile(p)
				if err == nil {
					_, err = jatext.Segment(string(data))
				}
				if err != nil {
					mu.Lock()
					failed = errors.Join(failed, err)
					mu.Unlock()
				}
			}
		}()
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && isDocPath(filepath.ToSlash(p)) {
			paths <- p
		}
		return err
	})
	close(paths)
	wg.Wait()
	if err = errors.Join(err, failed); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

// buildIndex indexes tree into a fresh database at dbPath and returns the
// time the first Reconcile took.
func buildIndex(b *testing.B, tree, dbPath string, want int) time.Duration {
	ctx := context.Background()
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(dbPath + suffix)
	}
	db, err := store.Open(ctx, dbPath)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	svc, err := New(Options{DB: db, Settings: func() Settings { return Settings{Dir: tree, TopK: 3, MinScore: 0.75} }})
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	start := time.Now()
	rep, err := svc.Reconcile(ctx)
	took := time.Since(start)
	if err != nil {
		b.Fatal(err)
	}
	if rep.Indexed != want || rep.Failed != 0 {
		b.Fatalf("first index: %+v, want %d indexed", rep, want)
	}
	return took
}

// BenchmarkKBIndex measures the first index of the -kb.docs tree into a
// fresh database against indexFloor in the same run, each iteration both.
// It reports index-s, floor-s, their ratio (issue 29: at most 2), the
// same in CPU time, the peak memory of the process during the index —
// anonymous (peak-MiB: heap and stacks, what the index itself holds) and
// the whole resident set (peak-rss-MiB: with the database's pages that
// SQLite maps, see rssSampler) — and documents per second.
func BenchmarkKBIndex(b *testing.B) {
	k := benchTree(b)
	if err := jatext.Load(); err != nil { // the dictionary, once, in neither figure
		b.Fatal(err)
	}
	var floor, index, floorCPU, indexCPU time.Duration
	var peak, peakRSS int64
	b.ResetTimer()
	for range b.N {
		c0 := cpuTime()
		floor += indexFloor(b, k.tree)
		floorCPU += cpuTime() - c0
		debug.FreeOSMemory() // the floor's garbage is not the index's peak
		rss := startRSS()
		c0 = cpuTime()
		index += buildIndex(b, k.tree, k.dbPath(), k.docs)
		indexCPU += cpuTime() - c0
		anon, all := rss.done()
		peak, peakRSS = max(peak, anon), max(peakRSS, all)
		runtime.GC()
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(index.Seconds()/n, "index-s")
	b.ReportMetric(floor.Seconds()/n, "floor-s")
	b.ReportMetric(index.Seconds()/floor.Seconds(), "index/floor")
	// The same in CPU time (the process's, user and system): what other
	// load on the machine inflates less than the wall times.
	b.ReportMetric(indexCPU.Seconds()/n, "index-cpu-s")
	b.ReportMetric(floorCPU.Seconds()/n, "floor-cpu-s")
	b.ReportMetric(indexCPU.Seconds()/floorCPU.Seconds(), "cpu-index/floor")
	b.ReportMetric(float64(peak), "peak-MiB")
	b.ReportMetric(float64(peakRSS), "peak-rss-MiB")
	b.ReportMetric(float64(k.docs)*n/index.Seconds(), "docs/s")
	b.ReportMetric(float64(k.bytes)/1e6, "MB")
}
