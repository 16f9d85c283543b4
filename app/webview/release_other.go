//go:build !linux || !webkit2_41

package webview

// loadExtension does nothing where the web view is not WebKitGTK 4.1:
// WebView2 (Windows) has no such extensions.
func loadExtension(string) error { return nil }

// RequestRelease does nothing where the web view is not WebKitGTK 4.1.
func RequestRelease() {}

// reloadOnCrash does nothing where the web view is not WebKitGTK 4.1.
func reloadOnCrash() {}
