package backup

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// threadNice is the nice value of the calling goroutine's OS thread.
func threadNice(t *testing.T) int {
	t.Helper()
	p, err := unix.Getpriority(unix.PRIO_PROCESS, unix.Gettid())
	if err != nil {
		t.Fatal(err)
	}
	return 20 - p
}

// A backup's work runs at backgroundNice, and the priority stays with its
// thread: the caller's thread, and the threads that run goroutines after
// it, keep the process's.
func TestInBackgroundLowersOnlyItsThread(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before := threadNice(t)
	if before >= backgroundNice {
		t.Skipf("the test runs at nice %d already", before)
	}
	var inside int
	if err := inBackground(func() error { inside = threadNice(t); return nil }); err != nil {
		t.Fatal(err)
	}
	if inside != backgroundNice {
		t.Errorf("backup thread at nice %d, want %d", inside, backgroundNice)
	}
	if got := threadNice(t); got != before {
		t.Errorf("caller's thread now at nice %d, was %d", got, before)
	}
	for range 20 { // the locked thread exited with its goroutine
		done := make(chan int)
		go func() { done <- threadNice(t) }()
		if got := <-done; got != before {
			t.Fatalf("a later goroutine runs at nice %d, want %d", got, before)
		}
	}
}
