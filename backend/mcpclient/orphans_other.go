//go:build !linux

package mcpclient

// ownerEnv is set only on Linux (orphans_linux.go); elsewhere a server's tree
// ends with playchat by other means (a job object on Windows).
const ownerEnv = ""

func ownerMark() string { return "" }

// SweepOrphans does nothing outside Linux: on Windows the job object kills
// a server's tree when playchat dies; other Unixes have no way to find the
// tree of a dead owner that is both cheap and safe.
func SweepOrphans() (int, error) { return 0, nil }
