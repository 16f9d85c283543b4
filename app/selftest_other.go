//go:build !linux

package app

import "errors"

func killWebProcess() error { return errors.New("the webcrash self-test runs on Linux only") }
