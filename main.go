// Command playchat is a desktop LLM chat app with a memory. Without
// arguments it opens the window; `playchat ask|sessions …` runs the same
// core from a terminal (see cli/).
package main

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	_ "time/tzdata" // local times everywhere, even without the OS zone database

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"playchat/app"
	"playchat/app/webview"
	"playchat/backend/config"
	"playchat/backend/core"
	"playchat/cli"
)

//go:embed all:frontend/dist
var assets embed.FS

//go:embed build/appicon.png
var icon []byte

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	app.Version, cli.Version = version, version
	app.Icon = icon
	if cli.IsCommand(os.Args[1:]) {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := cli.Run(ctx, os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Environ: os.Environ()})
		stop()
		os.Exit(code)
	}
	// Without a display GTK cannot start: say so in one line.
	if err := cli.CheckDisplay(runtime.GOOS, os.Environ()); checkDisplay && err != nil {
		fmt.Fprintln(os.Stderr, "playchat:", err)
		os.Exit(1)
	}
	if err := runWindow(); err != nil {
		fmt.Fprintln(os.Stderr, "playchat:", err)
		os.Exit(1)
	}
}

// runWindow opens the window and returns when it closes. A display that is
// set but cannot be opened makes Wails panic ("failed to init GTK"); that
// panic becomes an error, any other keeps its stack trace.
func runWindow() (err error) {
	defer func() {
		if v := recover(); v != nil {
			if err = cli.WindowPanic(v); err == nil {
				panic(v)
			}
		}
	}()
	// The web view's engineering (app/webview): the crash reload, the
	// navigation guard, the web process's memory limit and the web
	// extension, set before Wails builds the web view, on the thread that
	// will run GTK. What fails is reported on stderr; the window opens
	// anyway.
	runtime.LockOSThread()
	web := webview.Prepare(os.Getenv, os.Stderr)
	a := app.New(core.Options{Environ: os.Environ()})
	winW, winH := app.WindowSize(os.Getenv)   // 1200×820 (a self-test may start it at another size)
	startHidden := a.StartHidden(os.Args[1:]) // --hidden (autostart) with a tray to show it from
	return wails.Run(&options.App{
		Title:            "playchat",
		Width:            winW,
		Height:           winH,
		MinWidth:         720,
		MinHeight:        480,
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 250, A: 1},
		OnStartup:        a.Startup,
		OnDomReady:       a.DomReady,
		OnShutdown:       a.Shutdown,
		OnBeforeClose:    a.BeforeClose, // hides to the tray (CLOSE_TO_TRAY)
		StartHidden:      startHidden,
		Bind:             a.Services(),
		ErrorFormatter:   app.FormatError,
		// Software rendering unless PLAYCHAT_WEBVIEW_GPU=1 (app/webview/gpu.go: memory).
		Linux: &linux.Options{ProgramName: "playchat", Icon: icon, WebviewGpuPolicy: web.GPUPolicy},
		// Files and folders dropped on the Knowledge panel (an element with
		// --wails-drop-target: drop) go to KBService.ImportDropped.
		DragAndDrop: &options.DragAndDrop{EnableFileDrop: true},
		// A second launch focuses the running window instead of opening
		// another one on the same database.
		SingleInstanceLock: &options.SingleInstanceLock{
			UniqueId:               instanceID(os.Environ()),
			OnSecondInstanceLaunch: a.SecondInstance,
		},
	})
}

// instanceID names the single-instance lock after the data dir, so two
// windows never share a database but different data dirs can run side by
// side.
func instanceID(environ []string) string {
	dir, err := config.DataDir(environ)
	if err != nil {
		dir = "default"
	}
	sum := sha256.Sum256([]byte(dir))
	return "dev.playchat.desktop." + hex.EncodeToString(sum[:6])
}
