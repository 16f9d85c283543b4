//go:build linux && webkit2_41

package webview

import "C"

import (
	"fmt"
	"os"
)

// playchatNavigationAllowed is guard_linux.go's decide-policy hook
// asking, on GTK's main thread, whether the web view may navigate to uri
// (newWindow != 0: in a new window). A refusal is reported on stderr.
//
//export playchatNavigationAllowed
func playchatNavigationAllowed(uri *C.char, newWindow C.int) C.int {
	ok, report := navigationVerdict(C.GoString(uri), newWindow != 0)
	if ok {
		return 1
	}
	fmt.Fprintln(os.Stderr, report)
	return 0
}
