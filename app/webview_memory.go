package app

import (
	"fmt"
	"strconv"
	"strings"
)

// WebMemoryEnv overrides the web process's memory limit: a number of MiB,
// or "0" / "off" for WebKit's own defaults (see WebMemory).
const WebMemoryEnv = "PLAYCHAT_WEBVIEW_MEMORY_LIMIT_MB"

// WebMemory is what WebKit's memory pressure handler in the web process is
// told (WebKitMemoryPressureSettings, WebKitGTK ≥ 2.34): every Poll seconds
// the process measures its own footprint; above Conservative × LimitMiB it
// releases what it can rebuild (dead cached resources, unused font data,
// a garbage collection, free allocator pages given back to the OS — on
// glibc also malloc_trim), above Strict × LimitMiB it also drops compiled
// JavaScript and the rest of its rebuildable caches (WebCore's
// releaseMemory, critical). Nothing is ever killed: the kill threshold
// stays unset.
//
// WebKit's defaults derive the limit from the machine's RAM, capped at
// 3 GiB, so the handler first acts at about 1 GiB — far above anything a
// chat page needs. Measured in the soak (issue 7) the page's web process
// held ~140 MiB PSS after its first turn and kept what later turns left
// behind; a fresh start showing the same chat needed ~165.
type WebMemory struct {
	LimitMiB     uint    // 0: WebKit's defaults, nothing set
	Conservative float64 // fraction of LimitMiB, in (0, 1)
	Strict       float64 // fraction of LimitMiB, in (Conservative, 1)
	PollSeconds  float64 // > 0
}

// DefaultWebMemory is the setting the window uses: a 200 MiB budget, light
// releases above 66 MiB of footprint, full ones above 100 MiB, checked
// every 5 s.
var DefaultWebMemory = WebMemory{LimitMiB: 200, Conservative: 0.33, Strict: 0.5, PollSeconds: 5}

// Validate reports a setting WebKit would refuse (its setters ignore values
// out of range with a critical warning).
func (m WebMemory) Validate() error {
	if m.LimitMiB == 0 {
		return nil
	}
	if !(m.Conservative > 0 && m.Conservative < 1) || !(m.Strict > 0 && m.Strict < 1) || m.Conservative >= m.Strict {
		return fmt.Errorf("web memory thresholds must satisfy 0 < conservative (%g) < strict (%g) < 1", m.Conservative, m.Strict)
	}
	if !(m.PollSeconds > 0) {
		return fmt.Errorf("web memory poll interval must be positive, got %g s", m.PollSeconds)
	}
	return nil
}

// WebMemoryFromEnv is DefaultWebMemory with the limit WebMemoryEnv gives:
// "" keeps the default, "0" or "off" leaves WebKit's defaults, a positive
// whole number of MiB (at least 64) replaces the limit. Anything else is
// an error and the default stays.
func WebMemoryFromEnv(getenv func(string) string) (WebMemory, error) {
	m := DefaultWebMemory
	v := strings.ToLower(strings.TrimSpace(getenv(WebMemoryEnv)))
	switch v {
	case "":
		return m, nil
	case "0", "off":
		return WebMemory{}, nil
	}
	n, err := strconv.ParseUint(v, 10, 32)
	if err != nil || n < 64 {
		return m, fmt.Errorf("%s=%q: want a whole number of MiB ≥ 64, or off", WebMemoryEnv, v)
	}
	m.LimitMiB = uint(n)
	return m, nil
}
