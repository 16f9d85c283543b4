package app

import (
	"encoding/json"
	"fmt"
	"os"
	goruntime "runtime"
	"strconv"
)

// MemStatsEnv turns on the page's memory statistics (a debugging aid for
// issue 7): with PLAYCHAT_DEBUG_MEMSTATS=N (N > 0), the page reports every N
// finished turns what it holds — DOM nodes, mounted messages, the sizes of
// its caches and stores — and the app prints each report to stderr as a
// "MEMSTATS [{...page}, {...Go heap}]" line. Off (and costing nothing) when unset.
const MemStatsEnv = "PLAYCHAT_DEBUG_MEMSTATS"

// memStatsEvent is what the page emits its report on.
const memStatsEvent = "debug:memstats"

// startMemStats arms the page's reports when MemStatsEnv asks for them.
func startMemStats(p Platform) {
	every, err := strconv.Atoi(os.Getenv(MemStatsEnv))
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
		fmt.Fprintf(os.Stderr, "MEMSTATS %s\n", b)
	})
	p.ExecJS(fmt.Sprintf("window.__playchatMemStats = %d;", every))
}
