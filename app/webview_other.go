//go:build !(linux && desktop)

package app

// TuneWebView does nothing outside the Linux desktop build.
func TuneWebView() {}
