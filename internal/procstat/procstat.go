// Package procstat reads the fields of a Linux process's /proc/PID/stat
// that playchat uses: its parent and its start time. The format is proc(5)'s:
// "pid (comm) state ppid … starttime …", where comm (field 2) may hold
// spaces and parentheses, so the fields after it are counted from its last
// ')'. On systems without /proc, Read returns the open error.
package procstat

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Stat is the part of /proc/PID/stat that playchat reads.
type Stat struct {
	// PID is field 1.
	PID int
	// Comm is field 2 without its parentheses: the command name, at most
	// 15 bytes (the kernel cuts it).
	Comm string
	// State is field 3, e.g. 'R', 'S', 'Z'.
	State byte
	// PPID is field 4: the parent's pid.
	PPID int
	// StartTicks is field 22: when the process started, in clock ticks
	// (sysconf(_SC_CLK_TCK)) after boot. With PID it names a process even
	// when its pid is reused later.
	StartTicks uint64
}

// Read parses /proc/PID/stat; its error is the read's (the process has
// gone: an fs.ErrNotExist) or Parse's.
func Read(pid int) (Stat, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Stat{}, err
	}
	return Parse(b)
}

// Parse parses the text of a /proc/PID/stat file. It fails on a text
// without "(comm)" or with fewer than 22 fields.
func Parse(b []byte) (Stat, error) {
	open := bytes.IndexByte(b, '(')
	closing := bytes.LastIndexByte(b, ')')
	if open < 0 || closing < open {
		return Stat{}, fmt.Errorf("procstat: no command name in %q", truncate(b))
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:open])))
	if err != nil {
		return Stat{}, fmt.Errorf("procstat: pid: %w", err)
	}
	// f[0] is field 3 (state), so field n is f[n-3].
	f := strings.Fields(string(b[closing+1:]))
	if len(f) < 20 {
		return Stat{}, fmt.Errorf("procstat: %d fields, want at least 22", len(f)+2)
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return Stat{}, fmt.Errorf("procstat: ppid: %w", err)
	}
	start, err := strconv.ParseUint(f[19], 10, 64)
	if err != nil {
		return Stat{}, fmt.Errorf("procstat: starttime: %w", err)
	}
	return Stat{PID: pid, Comm: string(b[open+1 : closing]), State: f[0][0], PPID: ppid, StartTicks: start}, nil
}

func truncate(b []byte) []byte {
	if len(b) > 80 {
		return b[:80]
	}
	return b
}
