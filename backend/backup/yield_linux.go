package backup

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// backgroundNice is the nice value a backup runs at (the process's own is
// normally 0): a low priority, so that the chat turns running beside it
// (threads of the same process, hence of the same scheduling group) get
// the CPU first, and the backup takes what is left.
const backgroundNice = 10

// inBackground runs fn on an OS thread of its own whose scheduling priority
// is lowered to backgroundNice: everything a backup does (the database
// copy, the tar and gzip of the knowledge base) then yields the CPU to the
// window's work instead of competing with it as an equal. The thread is
// never unlocked, so it exits with fn and its priority reaches no other
// goroutine. A priority that cannot be set (already lower, or not allowed)
// leaves fn running as it would have.
func inBackground(fn func() error) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		tid := unix.Gettid()
		if cur, err := unix.Getpriority(unix.PRIO_PROCESS, tid); err == nil && 20-cur < backgroundNice {
			// (Linux's getpriority returns 20 - nice.)
			_ = unix.Setpriority(unix.PRIO_PROCESS, tid, backgroundNice)
		}
		errc <- fn()
	}()
	return <-errc
}
