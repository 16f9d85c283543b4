//go:build linux && webkit2_41

package webview

/*
#include <glib.h>
*/
import "C"

import "embed"

// extensionFS holds webext/: the extension's C source and, when make
// built it, libplaychat-webext.so.
//
//go:embed webext
var extensionFS embed.FS

// playchatWebReleased is called on GTK's main thread with the extension's
// report (memory_linux.go's emission hook); it never blocks.
//
//export playchatWebReleased
func playchatWebReleased(how *C.char, ms C.double, beforeKiB, afterKiB C.gint64) {
	r := Release{How: C.GoString(how), Millis: float64(ms), RSSBeforeKiB: int64(beforeKiB), RSSAfterKiB: int64(afterKiB)}
	select {
	case releaseReports <- r:
	default: // nobody reads: the report is dropped
	}
}
