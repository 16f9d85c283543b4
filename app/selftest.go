package app

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"playchat/app/webview"
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
//	        memory pressure settings webview.Prepare gave
//	        (webview/memory.go).
//	webrelease — the web extension is loaded in the web process and runs
//	        WebKit's memory release when asked (webview/release.go).
//	webcrash — the web process is killed; the window must load its page
//	        again in a new one (webview.Prepare's crash reload).
//	navigate — the page is sent elsewhere (a file, a web page, a link, a
//	        new window); the window must stay on the app, and its own
//	        reloads must still work (webview/guard.go).
//	remote — the page itself (past every sanitiser) tries to load from
//	        the address in SelfTestURLEnv in every way a page can; the
//	        caller counts what reaches it (the Content-Security-Policy and
//	        the web extension's request filter must stop all of it).
const SelfTestEnv = "PLAYCHAT_SELFTEST"

// SelfTestURLEnv gives the "remote" self-test the address to load from
// (an http:// listener of the caller's).
const SelfTestURLEnv = "PLAYCHAT_SELFTEST_URL"

// selfTest returns the self-test the process was asked to run ("" for none).
func (a *App) selfTest() string { return a.env(SelfTestEnv) }

// env returns the value of the environment variable name the app was
// started with ("" when unset).
func (a *App) env(name string) string {
	for _, kv := range a.opts.Environ {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}

// runSelfTest runs the "panic" self-test: the page calls
// SelfTestService.SelfTestPanic through the real bridge, twice, a few seconds
// apart (so JavaScriptCore has installed its handlers), then a normal bound
// call (SelfTestReport) must still reach Go.
func (a *App) runSelfTest(ctx context.Context, name string) {
	if name == "bgpanic" {
		a.runBackgroundPanicSelfTest(ctx) // background.go
		return
	}
	if name == "webmemory" {
		if m, ok := webview.MemoryApplied(); ok {
			fmt.Fprintf(os.Stdout, "selftest: webmemory applied to the web context: %s\n", m)
		} else {
			fmt.Fprintln(os.Stdout, "selftest: webmemory not applied: the web context was built without the settings")
		}
		a.quit()
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
	if name == "remote" {
		a.runRemoteSelfTest(ctx)
		return
	}
	if name == "header" {
		a.runHeaderSelfTest(ctx) // selftest_header.go
		return
	}
	if name == "navigate" {
		a.runNavigateSelfTest(ctx)
		return
	}
	if name != "panic" {
		fmt.Fprintf(os.Stdout, "selftest: unknown self-test %q\n", name)
		a.quit() // a quit, not a close: never hidden to the tray
		return
	}
	// Wails recovers the panic and logs it; the panicking call's promise is
	// never settled, so the page proves it is alive with a second call.
	for range 2 {
		time.Sleep(2 * time.Second)
		a.plat().ExecJS(`window.go.app.SelfTestService.SelfTestPanic()`)
	}
	time.Sleep(time.Second)
	a.plat().ExecJS(`window.go.app.SelfTestService.SelfTestReport("the bridge answers after 2 panics")`)
	select {
	case msg := <-a.selfTestReports:
		fmt.Fprintf(os.Stdout, "selftest: panic recovered (%s)\n", msg)
	case <-time.After(10 * time.Second):
		fmt.Fprintln(os.Stdout, "selftest: no answer from the page after the panic")
	}
	a.quit() // a quit, not a close: never hidden to the tray
}

// SelfTestService is the page's side of the self-tests. It is bound only
// in a process started with SelfTestEnv set (see App.Services), so it is
// not part of the API of a normal start nor of the generated bindings: the
// self-tests' own scripts call it as window.go.app.SelfTestService.
type SelfTestService struct{ app *App }

// SelfTestPanic panics with a nil-pointer dereference (a SIGSEGV inside Go)
// when the process runs the "panic" self-test (see SelfTestEnv); otherwise
// it returns an error and does nothing.
func (s *SelfTestService) SelfTestPanic() error {
	if s.app.selfTest() != "panic" {
		return fmt.Errorf("not in self-test mode")
	}
	var p *int
	return fmt.Errorf("unreachable: %d", *p) // the dereference panics
}

// SelfTestReport is called by the page after the self-test panics; message
// is printed with the result, proving the bridge still answers.
func (s *SelfTestService) SelfTestReport(message string) error {
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
	webview.RequestRelease()
	select {
	case r := <-a.webReleased:
		fmt.Fprintf(os.Stdout, "selftest: webrelease %s\n", r)
	case <-time.After(10 * time.Second):
		fmt.Fprintln(os.Stdout, "selftest: webrelease: no report from the web extension in 10 s")
	}
	a.quit()
}

// runWebCrashSelfTest kills the window's web process (SIGKILL, as a crash)
// and waits for the page to be loaded again in a new one.
func (a *App) runWebCrashSelfTest(ctx context.Context) {
	<-a.domReadies // the first load
	time.Sleep(time.Second)
	if err := webview.KillWebProcess(); err != nil {
		fmt.Fprintf(os.Stdout, "selftest: webcrash: %v\n", err)
		a.quit()
		return
	}
	select {
	case <-a.domReadies:
		fmt.Fprintln(os.Stdout, "selftest: webcrash: the page loaded again after its web process was killed")
	case <-time.After(20 * time.Second):
		fmt.Fprintln(os.Stdout, "selftest: webcrash: the page did not load again in 20 s")
	}
	a.quit()
}

// navigateAttempts are the self-test's ways of sending the page elsewhere.
// The navigation guard (webview/guard.go) refuses the web pages and the
// link (one line on stderr each); WebKit itself already stops a script's
// file: navigation and its window.open without a user gesture — the page
// must stay either way.
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
		a.plat().ExecJS(js)
		time.Sleep(700 * time.Millisecond)
	}
	a.plat().ExecJS(`window.go.app.SelfTestService.SelfTestReport(location.href)`)
	select {
	case where := <-a.selfTestReports:
		fmt.Fprintf(os.Stdout, "selftest: navigate: the page stayed on %s\n", where)
	case <-time.After(10 * time.Second):
		fmt.Fprintln(os.Stdout, "selftest: navigate: the page did not answer: it is gone")
		a.quit()
		return
	}
	for _, reload := range []struct {
		how  string
		call func()
	}{{"location.reload()", func() { a.plat().ExecJS(`location.reload()`) }}, {"WindowReloadApp", func() { a.plat().ReloadApp() }}} {
		reload.call()
		select {
		case <-a.domReadies:
			fmt.Fprintf(os.Stdout, "selftest: navigate: the page loaded again after %s\n", reload.how)
		case <-time.After(20 * time.Second):
			fmt.Fprintf(os.Stdout, "selftest: navigate: the page did not load again after %s\n", reload.how)
		}
	}
	a.quit()
}

// remoteLoads is the "remote" self-test's page script: every way a page
// can ask for something from U (the listener), each tried on its own, then
// a bound call with how many were tried. Markup goes in with innerHTML,
// past the app's sanitisers: only the window's backstops are tested.
const remoteLoads = `(async (U) => {
  const tries = [
    () => document.body.insertAdjacentHTML("beforeend", '<img src="' + U + '/img">'),
    () => document.body.insertAdjacentHTML("beforeend", '<img srcset="' + U + '/srcset 1x">'),
    () => document.body.insertAdjacentHTML("beforeend", '<table background="' + U + '/table"><tr><td background="' + U + '/td">x</td></tr></table>'),
    () => document.body.insertAdjacentHTML("beforeend", '<div style="width:9px;height:9px;background:url(' + U + '/style)"></div>'),
    () => document.body.insertAdjacentHTML("beforeend", '<div style="width:9px;height:9px;mask:url(' + U + '/mask);-webkit-mask-image:url(' + U + '/mask2)"></div>'),
    () => document.body.insertAdjacentHTML("beforeend", '<style>@import url(' + U + '/import.css); .pc-x { background: url(' + U + '/style-element) }</style><div class="pc-x">x</div>'),
    () => document.body.insertAdjacentHTML("beforeend", '<link rel="stylesheet" href="' + U + '/link.css"><link rel="prefetch" href="' + U + '/prefetch"><link rel="icon" href="' + U + '/icon">'),
    () => document.body.insertAdjacentHTML("beforeend", '<video poster="' + U + '/poster" src="' + U + '/video"></video><audio src="' + U + '/audio" autoplay></audio>'),
    () => document.body.insertAdjacentHTML("beforeend", '<iframe src="' + U + '/iframe"></iframe><object data="' + U + '/object"></object><embed src="' + U + '/embed">'),
    () => document.body.insertAdjacentHTML("beforeend", '<svg width="9" height="9"><image href="' + U + '/svg-image" width="9" height="9"/></svg>'),
    () => document.body.insertAdjacentHTML("beforeend", '<input type="image" src="' + U + '/input-image">'),
    () => { const s = document.createElement("script"); s.src = U + "/script.js"; document.head.append(s) },
    () => { new Image().src = U + "/new-image" },
    () => fetch(U + "/fetch").catch(() => {}),
    () => { const x = new XMLHttpRequest(); x.open("GET", U + "/xhr"); x.send() },
    () => navigator.sendBeacon(U + "/beacon", "x"),
    () => new EventSource(U + "/event-source"),
    () => new WebSocket(U.replace(/^http/, "ws") + "/websocket"),
    () => new Worker(U + "/worker.js"),
    () => import(U + "/module.js").catch(() => {}),
    () => new FontFace("pc-remote", "url(" + U + "/font)").load().catch(() => {}),
  ]
  let n = 0
  for (const t of tries) {
    n++
    try { t() } catch (e) { /* refused at once: counted as tried */ }
  }
  await new Promise((r) => setTimeout(r, 3000))
  window.go.app.SelfTestService.SelfTestReport(String(n))
})`

// runRemoteSelfTest runs remoteLoads against SelfTestURLEnv and prints how
// many ways were tried; the caller's listener says whether any got through.
func (a *App) runRemoteSelfTest(ctx context.Context) {
	<-a.domReadies
	u := a.env(SelfTestURLEnv)
	if !strings.HasPrefix(u, "http://") {
		fmt.Fprintf(os.Stdout, "selftest: remote: %s must be an http:// address\n", SelfTestURLEnv)
		a.quit()
		return
	}
	time.Sleep(time.Second)
	a.plat().ExecJS(remoteLoads + "(" + strconv.Quote(strings.TrimRight(u, "/")) + ")")
	select {
	case n := <-a.selfTestReports:
		fmt.Fprintf(os.Stdout, "selftest: remote: the page tried %s ways to load from the listener\n", n)
	case <-time.After(15 * time.Second):
		fmt.Fprintln(os.Stdout, "selftest: remote: the page did not answer")
	}
	a.quit()
}
