package app

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// SelfTestEnv names the environment variable that makes the window run a
// self-test once its page is ready, print one result line on stdout and
// quit (exit 0 when it passed). Values:
//
//	panic — a bound method called from the page dereferences a nil pointer;
//	        Wails recovers the panic, and the process must survive it. Before
//	        Wails v2.13 (and with a signal helper that touched SIGUSR1),
//	        WebKit's handlers made such a panic fatal or froze the GC.
//	bgpanic — a background job panics twice under the core's guard; the
//	        process must survive and the page show one toast
//	        (background.go).
//	webmemory — the web context the page runs in was built with the
//	        memory pressure settings LimitWebMemory gave
//	        (webview_memory.go).
//	webrelease — the web extension is loaded in the web process and runs
//	        WebKit's memory release when asked (webview_release.go).
//	webcrash — the web process is killed; the window must load its page
//	        again in a new one (ReloadOnWebProcessCrash).
//	navigate — the page is sent elsewhere (a file, a web page, a link, a
//	        new window); the window must stay on the app, and its own
//	        reloads must still work (GuardNavigation).
const SelfTestEnv = "PLAYCHAT_SELFTEST"

// selfTest returns the self-test the process was asked to run ("" for none).
func (a *App) selfTest() string {
	for _, kv := range a.opts.Environ {
		if v, ok := strings.CutPrefix(kv, SelfTestEnv+"="); ok {
			return v
		}
	}
	return ""
}

// runSelfTest runs the "panic" self-test: the page calls
// SystemService.SelfTestPanic through the real bridge, twice, a few seconds
// apart (so JavaScriptCore has installed its handlers), then a normal bound
// call (SelfTestReport) must still reach Go.
func (a *App) runSelfTest(ctx context.Context, name string) {
	if name == "bgpanic" {
		a.runBackgroundPanicSelfTest(ctx) // background.go
		return
	}
	if name == "webmemory" {
		if m, ok := webMemoryApplied(); ok {
			fmt.Fprintf(os.Stdout, "selftest: webmemory applied to the web context: %s\n", m)
		} else {
			fmt.Fprintln(os.Stdout, "selftest: webmemory not applied: the web context was built without the settings")
		}
		a.quit(ctx)
		return
	}
	if name == "webrelease" {
		a.runWebReleaseSelfTest(ctx)
		return
	}
	if name == "webcrash" {
		a.runWebCrashSelfTest(ctx)
		return
	}
	if name == "navigate" {
		a.runNavigateSelfTest(ctx)
		return
	}
	if name != "panic" {
		fmt.Fprintf(os.Stdout, "selftest: unknown self-test %q\n", name)
		a.quit(ctx) // a quit, not a close: never hidden to the tray
		return
	}
	// Wails recovers the panic and logs it; the panicking call's promise is
	// never settled, so the page proves it is alive with a second call.
	for range 2 {
		time.Sleep(2 * time.Second)
		runtime.WindowExecJS(ctx, `window.go.app.SystemService.SelfTestPanic()`)
	}
	time.Sleep(time.Second)
	runtime.WindowExecJS(ctx, `window.go.app.SystemService.SelfTestReport("the bridge answers after 2 panics")`)
	select {
	case msg := <-a.selfTestReports:
		fmt.Fprintf(os.Stdout, "selftest: panic recovered (%s)\n", msg)
	case <-time.After(10 * time.Second):
		fmt.Fprintln(os.Stdout, "selftest: no answer from the page after the panic")
	}
	a.quit(ctx) // a quit, not a close: never hidden to the tray
}

// SelfTestPanic panics with a nil-pointer dereference (a SIGSEGV inside Go)
// when the process runs the "panic" self-test (see SelfTestEnv); otherwise
// it returns an error and does nothing.
func (s *SystemService) SelfTestPanic() error {
	if s.app.selfTest() != "panic" {
		return fmt.Errorf("not in self-test mode")
	}
	var p *int
	return fmt.Errorf("unreachable: %d", *p) // the dereference panics
}

// SelfTestReport is called by the page after the self-test panics; message
// is printed with the result, proving the bridge still answers.
func (s *SystemService) SelfTestReport(message string) error {
	if s.app.selfTest() == "" {
		return fmt.Errorf("not in self-test mode")
	}
	select {
	case s.app.selfTestReports <- message:
	default:
	}
	return nil
}

// runWebReleaseSelfTest asks the web process for a release, as the end of
// a turn does, and prints the extension's report.
func (a *App) runWebReleaseSelfTest(ctx context.Context) {
	time.Sleep(time.Second) // the page's first scripts have run
	requestWebRelease()
	select {
	case r := <-a.webReleased:
		fmt.Fprintf(os.Stdout, "selftest: webrelease %s\n", r)
	case <-time.After(10 * time.Second):
		fmt.Fprintln(os.Stdout, "selftest: webrelease: no report from the web extension in 10 s")
	}
	a.quit(ctx)
}

// runWebCrashSelfTest kills the window's web process (SIGKILL, as a crash)
// and waits for the page to be loaded again in a new one.
func (a *App) runWebCrashSelfTest(ctx context.Context) {
	<-a.domReadies // the first load
	time.Sleep(time.Second)
	if err := killWebProcess(); err != nil {
		fmt.Fprintf(os.Stdout, "selftest: webcrash: %v\n", err)
		a.quit(ctx)
		return
	}
	select {
	case <-a.domReadies:
		fmt.Fprintln(os.Stdout, "selftest: webcrash: the page loaded again after its web process was killed")
	case <-time.After(20 * time.Second):
		fmt.Fprintln(os.Stdout, "selftest: webcrash: the page did not load again in 20 s")
	}
	a.quit(ctx)
}

// navigateAttempts are the self-test's ways of sending the page elsewhere.
// GuardNavigation refuses the web pages and the link (one line on stderr
// each); WebKit itself already stops a script's file: navigation and its
// window.open without a user gesture — the page must stay either way.
var navigateAttempts = []string{
	`location.href = "file:///etc/hostname"`,
	`location.assign("http://127.0.0.1:65000/a")`,
	`window.location = "https://example.invalid/b"`,
	`(() => { const a = document.createElement("a"); a.href = "http://127.0.0.1:65000/c"; document.body.append(a); a.click(); a.remove() })()`,
	`window.open("https://example.invalid/d", "_blank")`,
}

// runNavigateSelfTest sends the page elsewhere in every way of
// navigateAttempts, then has the page report where it is through a bound
// call (which only the app's page can make), then reloads it twice — as
// the page does and as Wails reloads the app — and waits for each load.
func (a *App) runNavigateSelfTest(ctx context.Context) {
	<-a.domReadies
	time.Sleep(time.Second)
	for _, js := range navigateAttempts {
		runtime.WindowExecJS(ctx, js)
		time.Sleep(700 * time.Millisecond)
	}
	runtime.WindowExecJS(ctx, `window.go.app.SystemService.SelfTestReport(location.href)`)
	select {
	case where := <-a.selfTestReports:
		fmt.Fprintf(os.Stdout, "selftest: navigate: the page stayed on %s\n", where)
	case <-time.After(10 * time.Second):
		fmt.Fprintln(os.Stdout, "selftest: navigate: the page did not answer: it is gone")
		a.quit(ctx)
		return
	}
	for _, reload := range []struct {
		how  string
		call func(context.Context)
	}{{"location.reload()", func(ctx context.Context) { runtime.WindowExecJS(ctx, `location.reload()`) }}, {"WindowReloadApp", runtime.WindowReloadApp}} {
		reload.call(ctx)
		select {
		case <-a.domReadies:
			fmt.Fprintf(os.Stdout, "selftest: navigate: the page loaded again after %s\n", reload.how)
		case <-time.After(20 * time.Second):
			fmt.Fprintf(os.Stdout, "selftest: navigate: the page did not load again after %s\n", reload.how)
		}
	}
	a.quit(ctx)
}
