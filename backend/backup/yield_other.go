//go:build !linux

package backup

// inBackground runs fn; only Linux lowers a thread's priority (see
// yield_linux.go).
func inBackground(fn func() error) error { return fn() }
