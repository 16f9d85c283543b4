package webview

import (
	"encoding/json"
	"fmt"
	"io"
	goruntime "runtime"
	"strconv"
)

// MemStatsEnv turns on the page's memory statistics (a debugging aid for
// issue 7): with PLAYCHAT_DEBUG_MEMSTATS=N (N > 0), the page reports every N
// finished turns what it holds — DOM nodes, mounted messages, the sizes of
// its caches and stores — and the app prints each report to stderr as a
// "MEMSTATS [{...page}, {...Go heap}]" line. Off (and costing nothing) when
// unset. While it is set, the web extension's releases are printed too
// ("WEBRELEASE …", WatchReleases).
const MemStatsEnv = "PLAYCHAT_DEBUG_MEMSTATS"

// memStatsEvent is what the page emits its report on.
const memStatsEvent = "debug:memstats"

// Page is the part of the window StartMemStats needs (app.Platform has
// it): running a script in the page and hearing its events.
type Page interface {
	// ExecJS runs js in the page.
	ExecJS(js string)
	// OnEvent calls fn with the data of every event the page emits on
	// name; the returned func stops it.
	OnEvent(name string, fn func(data ...any)) (off func())
}

// StartMemStats arms the page's reports when MemStatsEnv (read with
// getenv) asks for them; each report is written to out as one MEMSTATS
// line, with the Go heap's figures (MiB) appended.
func StartMemStats(getenv func(string) string, p Page, out io.Writer) {
	every, err := strconv.Atoi(getenv(MemStatsEnv))
	if err != nil || every <= 0 {
		return
	}
	p.OnEvent(memStatsEvent, func(data ...any) {
		// The Go side's heap, next to the page's figures (MiB).
		var m goruntime.MemStats
		goruntime.ReadMemStats(&m)
		const mib = 1 << 20
		data = append(data, map[string]uint64{
			"goHeapInuse": m.HeapInuse / mib, "goHeapIdle": m.HeapIdle / mib,
			"goHeapReleased": m.HeapReleased / mib, "goSys": m.Sys / mib, "goNumGC": uint64(m.NumGC),
		})
		b, err := json.Marshal(data)
		if err != nil {
			return
		}
		fmt.Fprintf(out, "MEMSTATS %s\n", b)
	})
	p.ExecJS(fmt.Sprintf("window.__playchatMemStats = %d;", every))
}
