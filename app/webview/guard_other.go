//go:build !linux || !webkit2_41

package webview

// guardNavigation does nothing where the web view is not WebKitGTK 4.1:
// there the page's own drop guard (frontend/src/utils/dropGuard.ts) keeps
// drops from navigating the window.
func guardNavigation() {}
