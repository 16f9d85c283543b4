//go:build !linux || !webkit2_41

package app

// LoadWebExtension does nothing where the web view is not WebKitGTK 4.1:
// WebView2 (Windows) has no such extensions.
func LoadWebExtension(string) error { return nil }

func requestWebRelease() {}

// ReloadOnWebProcessCrash does nothing where the web view is not
// WebKitGTK 4.1.
func ReloadOnWebProcessCrash() {}
