//go:build linux && webkit2_41

package app

/*
#include <glib.h>
*/
import "C"

import "embed"

// webExtensionFS holds webext/: the extension's C source and, when make
// built it, libplaychat-webext.so.
//
//go:embed webext
var webExtensionFS embed.FS

// playchatWebReleased is called on GTK's main thread with the extension's
// report (webview_memory_linux.go's emission hook); it never blocks.
//
//export playchatWebReleased
func playchatWebReleased(how *C.char, ms C.double, beforeKiB, afterKiB C.gint64) {
	r := WebRelease{How: C.GoString(how), Millis: float64(ms), RSSBeforeKiB: int64(beforeKiB), RSSAfterKiB: int64(afterKiB)}
	select {
	case webReleaseReports <- r:
	default: // nobody reads: the report is dropped
	}
}
