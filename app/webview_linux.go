//go:build linux && desktop

package app

/*
#cgo !webkit2_41 pkg-config: webkit2gtk-4.0
#cgo webkit2_41 pkg-config: webkit2gtk-4.1
#include <webkit2/webkit2.h>

static void playchat_tune_webview(void) {
	// One local page that never navigates: no memory cache of visited
	// pages or resources (WEBKIT_CACHE_MODEL_DOCUMENT_VIEWER disables the
	// page cache and keeps the resource caches minimal).
	webkit_web_context_set_cache_model(webkit_web_context_get_default(), WEBKIT_CACHE_MODEL_DOCUMENT_VIEWER);
}
*/
import "C"

// TuneWebView configures WebKitGTK's default web context for a chat app:
// the document-viewer cache model, which turns off the back/forward page
// cache and keeps the memory caches small (WebKitGTK API reference,
// webkit_web_context_set_cache_model). Call it before wails.Run creates the
// web view.
func TuneWebView() { C.playchat_tune_webview() }
