//go:build !windows && !linux

package mcpclient

import "syscall"

func setDeathSignal(*syscall.SysProcAttr) {}
