package app

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// killWebProcess kills (SIGKILL, as a crash would end it) the web process
// the window's WebKit started.
func killWebProcess() error {
	pid, err := childNamed(os.Getpid(), "WebKitWebProces")
	if err != nil {
		return err
	}
	return syscall.Kill(pid, syscall.SIGKILL)
}

// childNamed returns the first child process of parent whose command name
// (/proc/PID/comm, at most 15 bytes) is comm.
func childNamed(parent int, comm string) (int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		rest := string(stat[bytes.LastIndexByte(stat, ')')+1:])
		fields := strings.Fields(rest)
		name, _ := os.ReadFile("/proc/" + e.Name() + "/comm")
		if len(fields) > 1 && fields[1] == strconv.Itoa(parent) && strings.TrimSpace(string(name)) == comm {
			return pid, nil
		}
	}
	return 0, fmt.Errorf("no child process %q", comm)
}
