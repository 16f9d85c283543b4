//go:build !linux || !webkit2_41

package app

// LimitWebMemory does nothing where the web view is not WebKitGTK 4.1
// (Windows, macOS, or a build without the webkit2_41 tag).
func LimitWebMemory(WebMemory) error { return nil }

func webMemoryApplied() (WebMemory, bool) { return WebMemory{}, false }
