// Package testnet holds network helpers for tests.
package testnet

import (
	"net"
	"testing"
)

// FreePort returns a TCP port on 127.0.0.1 that nothing listened on a
// moment ago (the kernel's pick for port 0), for a server a test starts on
// a port of its choosing.
func FreePort(tb testing.TB) int {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
