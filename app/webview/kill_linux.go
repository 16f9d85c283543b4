package webview

import (
	"fmt"
	"os"
	"strconv"
	"syscall"

	"playchat/internal/procstat"
)

// KillWebProcess kills (SIGKILL, as a crash would end it) the web process
// the window's WebKit started (the "webcrash" self-test). Errors: no such
// child process, or the kill failed.
func KillWebProcess() error {
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
		st, err := procstat.Read(pid)
		if err != nil || st.PPID != parent {
			continue
		}
		// comm in /proc/PID/stat is the same 15 bytes as /proc/PID/comm.
		if st.Comm == comm {
			return pid, nil
		}
	}
	return 0, fmt.Errorf("no child process %q", comm)
}
