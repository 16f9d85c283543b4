//go:build !linux

package webview

import "errors"

// KillWebProcess is Linux only: elsewhere it returns an error.
func KillWebProcess() error { return errors.New("the webcrash self-test runs on Linux only") }
