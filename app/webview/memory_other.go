//go:build !linux || !webkit2_41

package webview

// limitMemory does nothing where the web view is not WebKitGTK 4.1
// (Windows, macOS, or a build without the webkit2_41 tag).
func limitMemory(Memory) error { return nil }

func memoryApplied() bool { return false }
