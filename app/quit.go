package app

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// quitGrace is how long a window asked to quit by a signal may take to
// shut down (stop turns, store partial replies, close the database) before
// the process ends anyway.
const quitGrace = 10 * time.Second

// quitOnSignal makes SIGTERM/SIGINT quit. Wails' own handler closes the
// window as the close button does, which BeforeClose turns into "hide to
// the tray" while a tray runs — the app went on running until the
// fallback below killed it without its orderly shutdown (issue 21). So the
// signal marks the app as quitting (BeforeClose then lets it close) and
// asks Wails to quit. That also backs up Wails' handling, which asks the
// GTK main loop to shut down and so does nothing while that loop is
// blocked — in a modal dialog (a refused second window) or by a hung web
// process: a refused window exits at once with status 1; a running one
// gets quitGrace for the orderly shutdown (Shutdown stores partial
// replies), then the process ends with status 1.
func (a *App) quitOnSignal(ctx context.Context, refused bool) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	select {
	case <-sig:
	case <-ctx.Done():
		signal.Stop(sig)
		return
	}
	if refused {
		os.Exit(1)
	}
	a.quit()
	time.Sleep(quitGrace)
	os.Exit(1)
}
