package mcpclient

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"playchat/internal/procstat"
)

// ownerEnv marks every process a stdio server starts (and, by inheritance,
// what those start) with the playchat that owns it: "PID:START", START being
// the owner's start time in clock ticks since boot (/proc/PID/stat field
// 22), so a reused pid is never taken for the owner.
const ownerEnv = "PLAYCHAT_MCP_OWNER"

// ownerMark is this process's value of ownerEnv ("" when /proc is not readable).
func ownerMark() string {
	start, err := startTicks(os.Getpid())
	ns := pidNamespace()
	if err != nil || ns == "" {
		return ""
	}
	return fmt.Sprintf("%d:%d:%s", os.Getpid(), start, ns)
}

// pidNamespace names this process's pid namespace, e.g. "4026531836"
// (from the link "pid:[4026531836]"); "" when it cannot be read.
func pidNamespace() string {
	l, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(strings.TrimPrefix(l, "pid:["), "]")
}

// startTicks reads a process's start time (clock ticks since boot) from
// /proc/PID/stat.
func startTicks(pid int) (uint64, error) {
	st, err := procstat.Read(pid)
	return st.StartTicks, err
}

// ownerAlive reports whether mark ("PID:START:NS") names a running
// process. A mark it cannot read, or from another pid namespace, counts as
// alive: not ours to judge, so it is left alone.
func ownerAlive(mark string) bool {
	f := strings.Split(mark, ":")
	if len(f) != 3 || f[2] != pidNamespace() {
		return true
	}
	pid, err1 := strconv.Atoi(f[0])
	start, err2 := strconv.ParseUint(f[1], 10, 64)
	if err1 != nil || err2 != nil {
		return true
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
