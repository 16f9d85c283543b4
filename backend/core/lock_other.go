//go:build !unix

package core

// lockDataDir is a no-op where flock is not available; the window's
// single-instance lock still keeps a second window away.
func lockDataDir(dir string) (func(), error) { return func() {}, nil }
