package webview

import (
	"fmt"
	"strconv"
	"strings"
)

// MemoryEnv overrides the web process's memory limit: a whole number of
// MiB from 64 to 65536, or "0" / "off" for WebKit's own defaults (see
// Memory, MemoryFromEnv).
const MemoryEnv = "PLAYCHAT_WEBVIEW_MEMORY_LIMIT_MB"

// Memory is what WebKit's memory pressure handler in the web process is
// told (WebKitMemoryPressureSettings, WebKitGTK ≥ 2.34): every Poll seconds
// the process measures its own footprint; above Conservative × LimitMiB it
// releases what it can rebuild (dead cached resources, unused font data,
// a garbage collection, free allocator pages given back to the OS — on
// glibc also malloc_trim), above Strict × LimitMiB it also drops compiled
// JavaScript and the rest of its rebuildable caches (WebCore's
// releaseMemory, critical). Nothing is ever killed: the kill threshold
// stays unset.
//
// The footprint is WebKit's own measure of the process's private memory
// (from /proc/self/smaps), not the RSS or PSS that top shows. WebKit's
// defaults derive the limit from the machine's RAM, capped at 3 GiB, so on
// most machines the handler first acts at about 1 GiB — far above anything
// a chat page needs, and the page's web process kept what 1,000 turns left
// behind: 140 MiB PSS after the first turn, 252 at turn 1,000 (issue 7's
// soak), where a fresh start showing the same chat needed ~165.
//
// What a turn leaves behind is released right away instead
// (release.go, idle_trim.go): once the window goes quiet after a turn,
// the web process runs the same release as a strict check at once. So the
// handler checks at WebKit's own pace, every 30 s. A page that has chatted stays above the light
// threshold, so each check makes a light release while the window is
// idle too. Measured over 1,000 turns (issue 7's soak): with a 5 s poll
// and no release after turns, the idle web process used about 0.5 % of
// one core more than WebKit's own idle work, and PSS after 1,000 turns
// was 1.09–1.23× a fresh start showing the same chat with one spike to
// 1.6× between checks; with the release after turns and a 30 s poll, it
// was 1.08–1.10× with no spike (three runs).
type Memory struct {
	LimitMiB     uint    // 0: WebKit's defaults, nothing set
	Conservative float64 // fraction of LimitMiB, in (0, 1)
	Strict       float64 // fraction of LimitMiB, in (Conservative, 1)
	PollSeconds  float64 // > 0
}

// DefaultMemory is the setting the window uses: a 200 MiB budget, light
// releases above 66 MiB of footprint, full ones above 100 MiB, checked
// every 30 s (WebKit's default interval).
var DefaultMemory = Memory{LimitMiB: 200, Conservative: 0.33, Strict: 0.5, PollSeconds: 30}

// Validate reports a setting WebKit would refuse (its setters ignore values
// out of range with a critical warning).
func (m Memory) Validate() error {
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

// MemoryLimitRange is the range of limits MemoryEnv accepts, in MiB:
// below 64 a chat page is always over the strict threshold, above 64 GiB
// the handler would never act.
var MemoryLimitRange = [2]uint{64, 65536}

// MemoryFromEnv is DefaultMemory with the limit MemoryEnv gives:
// "" keeps the default, "0" or "off" leaves WebKit's defaults, a whole
// number of MiB in MemoryLimitRange replaces the limit. Anything else
// is an error and the default stays.
func MemoryFromEnv(getenv func(string) string) (Memory, error) {
	m := DefaultMemory
	raw := strings.TrimSpace(getenv(MemoryEnv))
	switch strings.ToLower(raw) {
	case "":
		return m, nil
	case "0", "off":
		return Memory{}, nil
	}
	n, err := strconv.ParseUint(raw, 10, 32)
	if err != nil || uint(n) < MemoryLimitRange[0] || uint(n) > MemoryLimitRange[1] {
		return m, fmt.Errorf("%s=%q: want a whole number of MiB from %d to %d, or off",
			MemoryEnv, raw, MemoryLimitRange[0], MemoryLimitRange[1])
	}
	m.LimitMiB = uint(n)
	return m, nil
}

// String is the setting as the self-test and logs print it.
func (m Memory) String() string {
	if m.LimitMiB == 0 {
		return "WebKit's defaults"
	}
	return fmt.Sprintf("limit %d MiB, light releases above %g, full above %g, checked every %g s",
		m.LimitMiB, m.Conservative, m.Strict, m.PollSeconds)
}
