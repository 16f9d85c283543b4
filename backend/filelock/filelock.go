// Package filelock takes advisory locks on files, across processes: the
// window's hold on its data folder, the database's first-start lock (every
// first-start step runs once, whoever starts first; the others wait), and
// each process's stream-owner lock (a reply row still marked streaming
// belongs to a live process exactly while its owner's lock is held).
//
// The operating system drops a lock when its process ends, however it ends
// (kill -9, a crash, a power cut leaves no process at all), so no lock ever
// outlives its owner. On Unix it is flock(2); on Windows LockFileEx.
//
// Locks are taken on an open file description: two Locks of one path in the
// same process exclude each other just as in two processes.
package filelock

import (
	"errors"
	"fmt"
	"os"
)

// ErrLocked is returned by TryLock while another holder has the lock.
var ErrLocked = errors.New("file is locked by another holder")

// Lock is a held lock. Unlock releases it; a process that ends releases
// every lock it held.
type Lock struct {
	f *os.File
}

// Acquire blocks until it holds the exclusive lock of path (created with
// mode 0600 when missing).
func Acquire(path string) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := lockFile(f, true); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return &Lock{f: f}, nil
}

// TryLock takes the exclusive lock of path (created with mode 0600 when
// missing) without waiting: it fails with an error wrapping ErrLocked while
// another holder has it.
func TryLock(path string) (*Lock, error) {
	return tryLock(path, os.O_CREATE|os.O_RDWR)
}

// TryLockExisting is TryLock for a file that must already exist: a missing
// file is an error wrapping os.ErrNotExist (nobody holds it).
func TryLockExisting(path string) (*Lock, error) {
	return tryLock(path, os.O_RDWR)
}

func tryLock(path string, flag int) (*Lock, error) {
	f, err := os.OpenFile(path, flag, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := lockFile(f, false); err != nil {
		f.Close()
		if errors.Is(err, ErrLocked) {
			return nil, fmt.Errorf("lock %s: %w", path, ErrLocked)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return &Lock{f: f}, nil
}

// Path is the locked file's path.
func (l *Lock) Path() string { return l.f.Name() }

// Unlock releases the lock and closes the file. A second call does nothing.
func (l *Lock) Unlock() {
	if l == nil || l.f == nil {
		return
	}
	_ = unlockFile(l.f)
	l.f.Close()
	l.f = nil
}

// Remove deletes the locked file, then releases the lock (a holder that is
// done for good: a later TryLockExisting finds no file).
func (l *Lock) Remove() {
	if l == nil || l.f == nil {
		return
	}
	name := l.f.Name()
	l.Unlock() // first: Windows does not delete an open file
	_ = os.Remove(name)
}
