package filelock

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// helperEnv makes the test binary, started again by a test, hold a lock
// and wait (TestMain): a second process for the cross-process cases.
const helperEnv = "FILELOCK_TEST_HOLD"

func TestMain(m *testing.M) {
	if path := os.Getenv(helperEnv); path != "" {
		l, err := Acquire(path)
		if err != nil {
			os.Stdout.WriteString("error " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Stdout.WriteString("locked\n")
		// Hold until stdin closes or the parent kills us.
		buf := make([]byte, 1)
		os.Stdin.Read(buf)
		l.Unlock()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestTryLockIsExclusiveWithinAProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.lock")
	l, err := TryLock(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := TryLock(path); !errors.Is(err, ErrLocked) {
		t.Fatalf("second TryLock: %v, want ErrLocked", err)
	}
	l.Unlock()
	l2, err := TryLock(path)
	if err != nil {
		t.Fatalf("after Unlock: %v", err)
	}
	l2.Unlock()
	l2.Unlock() // a second Unlock does nothing
}

func TestAcquireWaitsForTheHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.lock")
	l, err := Acquire(path)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() {
		l2, err := Acquire(path)
		if err == nil {
			l2.Unlock()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("Acquire returned while the lock was held: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	l.Unlock()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
}

func TestTryLockExistingOfAMissingFile(t *testing.T) {
	_, err := TryLockExisting(filepath.Join(t.TempDir(), "gone.lock"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("got %v, want ErrNotExist", err)
	}
}

func TestRemoveDeletesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.lock")
	l, err := TryLock(path)
	if err != nil {
		t.Fatal(err)
	}
	l.Remove()
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("file still there: %v", err)
	}
}

// holder starts this test binary as a second process that holds path's lock.
func holder(t *testing.T, path string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	buf := make([]byte, 64)
	n, _ := out.Read(buf)
	if !strings.HasPrefix(string(buf[:n]), "locked") {
		t.Fatalf("helper: %q", buf[:n])
	}
	return cmd
}

func TestALockHeldByAnotherProcessIsSeenAndDiesWithIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "owner.lock")
	cmd := holder(t, path)
	if _, err := TryLockExisting(path); !errors.Is(err, ErrLocked) {
		t.Fatalf("while the other process lives: %v, want ErrLocked", err)
	}
	// kill -9: the kernel drops the lock with the process.
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	l, err := TryLockExisting(path)
	if err != nil {
		t.Fatalf("after the holder was killed: %v", err)
	}
	l.Unlock()
}
