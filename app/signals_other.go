//go:build !linux

package app

func fixSignalHandlers() {}
