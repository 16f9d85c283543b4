// Package webview is the window's web view engineering on Linux (WebKitGTK
// 4.1, built with the webkit2_41 tag): the web process's memory limit
// (memory.go), the C web extension embedded from webext/ that filters the
// page's requests and releases memory after turns (release.go), the
// release once the window goes quiet (idle_trim.go), the navigation guard
// (guard.go), the reload after a web process crash, the GPU policy
// (gpu.go) and the page's memory statistics (memstats.go). Elsewhere, or
// without the tag, everything but the pure decisions does nothing.
//
// main calls Prepare once before wails.Run; package app uses the rest
// (IdleTrim, WatchReleases, StartMemStats, the self-tests' MemoryApplied,
// RequestRelease and KillWebProcess) and owns nothing of WebKit's.
//
// The C side — a wrapper of WebKitWebContext's constructor and emission
// hooks — is per process, so two things here are too: what Prepare did
// (prepared, set once before the window starts, read only afterwards) and
// the channel the cgo export hands the extension's reports to
// (releaseReports).
package webview

import (
	"fmt"
	"io"
	"sync"

	"github.com/wailsapp/wails/v2/pkg/options/linux"
)

// Prepared is what Prepare set up for the window.
type Prepared struct {
	// GPUPolicy goes into options.Linux's WebviewGpuPolicy: never unless
	// GPUEnv asks for acceleration (GPUPolicy).
	GPUPolicy linux.WebviewGpuPolicy
	// Memory is the web process's memory setting Prepare asked WebKit for
	// (MemoryFromEnv; a zero LimitMiB: WebKit's own defaults). Whether
	// the web context got it is MemoryApplied's answer.
	Memory Memory
}

var (
	prepareOnce sync.Once
	prepared    Prepared
)

// Prepare sets the web view up before Wails builds it, in this order: the
// page is loaded again after a web process crash (at most 3 times a
// minute), every navigation away from the app's own page is refused
// (NavigationAllowed), the web process gets the memory limit MemoryEnv
// gives (MemoryFromEnv; DefaultMemory when unset), and the web extension
// is written under ExtensionDir and loaded into the web process. getenv
// reads the environment (os.Getenv). Nothing here is fatal: a step that
// fails is reported on stderr as one "playchat: …" line and the window
// works without it — a malformed MemoryEnv (the default stays), a WebKit
// without memory pressure settings, a binary built without the extension
// (go build instead of make), an unwritable cache directory.
//
// Call it once, before wails.Run, on the goroutine that runs it, after
// runtime.LockOSThread (Wails runs GTK on that thread; WebKit's
// initialisation, triggered here, records it as its main thread). The
// C side is installed once per process: later calls return the first
// call's result and do nothing else.
func Prepare(getenv func(string) string, stderr io.Writer) Prepared {
	prepareOnce.Do(func() {
		prepared = prepare(getenv, stderr, installers{
			reloadOnCrash:   reloadOnCrash,
			guardNavigation: guardNavigation,
			limitMemory:     limitMemory,
			extensionDir:    ExtensionDir,
			loadExtension:   loadExtension,
		})
	})
	return prepared
}

// installers are Prepare's steps that reach WebKit (the tests pass fakes).
type installers struct {
	reloadOnCrash   func()
	guardNavigation func()
	limitMemory     func(Memory) error
	extensionDir    func() (string, error)
	loadExtension   func(dir string) error
}

// prepare is Prepare's decisions, with the steps that reach WebKit in in.
func prepare(getenv func(string) string, stderr io.Writer, in installers) Prepared {
	in.reloadOnCrash()
	// The window never shows anything but the app: a navigation elsewhere
	// (a dropped file or link the page did not keep) is refused.
	in.guardNavigation()
	// WebKit's memory pressure handler, told to keep the web process near
	// what the page needs (memory.go).
	m, err := MemoryFromEnv(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "playchat: %v; using %d MiB\n", err, m.LimitMiB)
	}
	if err := in.limitMemory(m); err != nil {
		fmt.Fprintln(stderr, "playchat: web view memory limit not set:", err)
	}
	// The web process's extension: it refuses the page any request outside
	// the app and, with the memory limit, releases memory as soon as a turn
	// is over (release.go).
	if dir, err := in.extensionDir(); err != nil {
		fmt.Fprintln(stderr, "playchat: the web view's extension is not loaded:", err)
	} else if err := in.loadExtension(dir); err != nil {
		fmt.Fprintln(stderr, "playchat: the web view's extension is not loaded:", err)
	}
	return Prepared{GPUPolicy: GPUPolicy(getenv), Memory: m}
}

// MemoryApplied returns the memory setting Prepare asked for and whether
// the web context was built with it (the "webmemory" self-test). Read it
// once the window runs: Prepare has returned by then.
func MemoryApplied() (Memory, bool) { return prepared.Memory, memoryApplied() }
