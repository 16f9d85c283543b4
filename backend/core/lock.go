package core

import (
	"errors"
	"fmt"
	"path/filepath"

	"playchat/backend/filelock"
)

// LockFileName is the file in the data dir the window (and `playchat
// discord run`) holds locked while it runs.
const LockFileName = "playchat.lock"

// lockDataDir takes the exclusive lock of <dir>/playchat.lock and returns its
// release. It fails with ErrAlreadyRunning while another process holds it;
// the operating system drops the lock when a process dies, so a crash never
// leaves the data dir locked.
func lockDataDir(dir string) (func(), error) {
	l, err := filelock.TryLock(filepath.Join(dir, LockFileName))
	if errors.Is(err, filelock.ErrLocked) {
		return nil, fmt.Errorf("%w (data dir %s)", ErrAlreadyRunning, dir)
	}
	if err != nil {
		return nil, fmt.Errorf("lock the data dir: %w", err)
	}
	return l.Unlock, nil
}
