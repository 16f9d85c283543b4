//go:build bindings

package main

// checkDisplay is false in the binding generator's build: it needs no
// display (see display_check.go).
const checkDisplay = false
