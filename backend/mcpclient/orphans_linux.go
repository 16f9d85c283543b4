package mcpclient

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// ownerEnv marks every process a stdio server starts (and, by inheritance,
// what those start) with the playchat that owns it: "PID:START", START being
// the owner's start time in clock ticks since boot (/proc/PID/stat field
// 22), so a reused pid is never taken for the owner.
const ownerEnv = "PLAYCHAT_MCP_OWNER"

// ownerMark is this process's value of ownerEnv ("" when /proc is not readable).
func ownerMark() string {
	start, err := startTicks(os.Getpid())
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d:%d", os.Getpid(), start)
}

// startTicks reads a process's start time (clock ticks since boot) from
// /proc/PID/stat. The command name in field 2 may hold spaces and
// parentheses, so the fields are counted from its last ')'.
func startTicks(pid int) (uint64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state); field 22 (starttime) is f[19].
	if len(f) < 20 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f)+2)
	}
	return strconv.ParseUint(f[19], 10, 64)
}

// ownerAlive reports whether mark ("PID:START") names a running process.
func ownerAlive(mark string) bool {
	p, s, ok := strings.Cut(mark, ":")
	pid, err1 := strconv.Atoi(p)
	start, err2 := strconv.ParseUint(s, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		return true // not ours to judge: leave it
	}
	got, err := startTicks(pid)
	return err == nil && got == start
}

// SweepOrphans kills the processes left by stdio servers of a playchat that
// is no longer running — a playchat killed with SIGKILL or crashed cannot
// end its servers' trees, and the kernel's parent-death signal reaches only
// each server's own process, not what it started (npx → node, a shell's
// children). Only processes of this user carrying ownerEnv with a dead
// owner are killed. It returns how many were killed.
func SweepOrphans() (int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	key := []byte(ownerEnv + "=")
	killed := 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !bytes.Contains(env, key) {
			continue // gone, another user's, or not a server's
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if mark, ok := bytes.CutPrefix(kv, key); ok {
				if !ownerAlive(string(mark)) && syscall.Kill(pid, syscall.SIGKILL) == nil {
					killed++
				}
				break
			}
		}
	}
	return killed, nil
}
