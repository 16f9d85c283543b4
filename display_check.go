//go:build !bindings

package main

// checkDisplay is true in every build but the one `wails generate module`
// compiles (tag "bindings"), which runs main() headless only to write the
// TypeScript bindings and never opens a window.
const checkDisplay = true
