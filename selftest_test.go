package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRecoveredPanicAfterDomReadyKeepsTheWindowAlive runs the built desktop
// binary (PLAYCHAT_BIN) in its "panic" self-test: once the page is ready, a
// bound method called from the page dereferences a nil pointer twice; Wails
// recovers the panics and the page's next bound call must still answer. It
// needs a display, so `make e2e` runs it under Xvfb; without PLAYCHAT_BIN
// (plain `go test ./...`) it skips.
func TestRecoveredPanicAfterDomReadyKeepsTheWindowAlive(t *testing.T) {
	wantOutput(t, runSelfTest(t, "panic"), "selftest: panic recovered", "the page did not answer after the panic")
}

// TestRecoveredBackgroundPanicShowsOneToast runs the built binary in its
// "bgpanic" self-test (issue 14): a background job panics twice under the
// core's guard; the process must survive both and the page show exactly one
// toast naming the job.
func TestRecoveredBackgroundPanicShowsOneToast(t *testing.T) {
	wantOutput(t, runSelfTest(t, "bgpanic"), "selftest: bgpanic recovered", "the background panic was not recovered with one toast")
}

// TestWebMemorySettingsReachTheWebContext runs the built binary in its
// "webmemory" self-test (issue 7): the default web context, which Wails'
// web view uses, must have been built with the memory pressure settings
// the app gave before wails.Run.
func TestWebMemorySettingsReachTheWebContext(t *testing.T) {
	for env, want := range map[string]string{
		"":    "selftest: webmemory applied to the web context: limit 200 MiB, light releases above 0.33, full above 0.5, checked every 30 s",
		"512": "selftest: webmemory applied to the web context: limit 512 MiB,",
		"off": "selftest: webmemory not applied",
	} {
		out := runSelfTest(t, "webmemory", "PLAYCHAT_WEBVIEW_MEMORY_LIMIT_MB="+env)
		if !strings.Contains(out, want) {
			t.Errorf("PLAYCHAT_WEBVIEW_MEMORY_LIMIT_MB=%q: want %q in:\n%s", env, want, tail(out, 40))
		}
	}
}

// runSelfTest runs PLAYCHAT_BIN with PLAYCHAT_SELFTEST=name (and env, KEY=VALUE
// entries) in fresh data and XDG dirs and returns its output; the process must exit 0. Without
// PLAYCHAT_BIN (plain `go test ./...`) the test is skipped.
func runSelfTest(t *testing.T, name string, env ...string) string {
	t.Helper()
	bin := os.Getenv("PLAYCHAT_BIN")
	if bin == "" {
		t.Skip("needs PLAYCHAT_BIN (the built app) and a display; `make e2e` runs it under Xvfb")
	}
	if os.Getenv("DISPLAY") == "" {
		t.Fatal("PLAYCHAT_BIN is set but there is no DISPLAY: run it under xvfb-run")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	dir := t.TempDir()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Env = append(os.Environ(),
		"PLAYCHAT_SELFTEST="+name,
		"PLAYCHAT_DATA_DIR="+dir+"/data",
		"XDG_DATA_HOME="+dir+"/xdg/data", "XDG_CACHE_HOME="+dir+"/xdg/cache", "XDG_CONFIG_HOME="+dir+"/xdg/config",
	)
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the app ended with %v in self-test %s:\n%s", err, name, tail(string(out), 40))
	}
	return string(out)
}

// wantOutput fails t with why and the output's last lines unless out
// contains want.
func wantOutput(t *testing.T, out, want, why string) {
	t.Helper()
	if !strings.Contains(out, want) {
		t.Errorf("%s: want %q in:\n%s", why, want, tail(out, 40))
	}
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// TestWebReleaseRunsInTheWebProcess runs the "webrelease" self-test (issue
// 7): the embedded web extension must be loaded into the web process and
// run WebKit's own memory release when the app asks, as it does after each
// turn; with the memory limit off, no release is asked for (the extension
// is still loaded, for its request filter).
func TestWebReleaseRunsInTheWebProcess(t *testing.T) {
	out := runSelfTest(t, "webrelease")
	if !regexp.MustCompile(`selftest: webrelease webkit in [0-9.]+ ms, web process RSS [0-9]+ → [0-9]+ MiB`).MatchString(out) {
		t.Errorf("want WebKit's release reported by the extension in:\n%s", tail(out, 40))
	}
	wantOutput(t, runSelfTest(t, "webrelease", "PLAYCHAT_WEBVIEW_MEMORY_LIMIT_MB=off"),
		"selftest: webrelease: no report from the web extension", "with the limit off no release may run")
}

// TestWebProcessCrashReloadsThePage runs the "webcrash" self-test: when the
// window's web process dies (SIGKILL), the page must load again in a new
// one instead of the window showing its last picture for good.
func TestWebProcessCrashReloadsThePage(t *testing.T) {
	out := runSelfTest(t, "webcrash")
	wantOutput(t, out, "selftest: webcrash: the page loaded again after its web process was killed", "the page did not load again")
	wantOutput(t, out, "playchat: the window's web process crashed; loading the page again", "the crash was not reported on stderr")
}

// TestWebNavigationStaysOnTheApp runs the "navigate" self-test (issue 21):
// the page is sent to a file, web pages, a link and a new window; the UI
// process must refuse the web pages and the link (one line on stderr each,
// naming only the scheme), the page must still be the app afterwards, and
// its own reloads must work. (The file and the window WebKit already stops
// when a script asks; a dropped file's load is refused by the same hook,
// which scripts/e2e-drops.sh checks with real drops.)
func TestWebNavigationStaysOnTheApp(t *testing.T) {
	out := runSelfTest(t, "navigate")
	wantOutput(t, out, "selftest: navigate: the page stayed on wails://wails/", "the page was navigated away")
	wantOutput(t, out, "selftest: navigate: the page loaded again after location.reload()", "the page's own reload was refused")
	wantOutput(t, out, "selftest: navigate: the page loaded again after WindowReloadApp", "Wails' reload of the app was refused")
	if n := strings.Count(out, "playchat: the window refused to load a http: URI"); n != 2 {
		t.Errorf("want the http: navigation and the http: link refused (2 lines), got %d:\n%s", n, tail(out, 40))
	}
	wantOutput(t, out, "playchat: the window refused to load a https: URI", "the https: navigation was not refused")
	if strings.Contains(out, "hostname") || strings.Contains(out, "example.invalid") || strings.Contains(out, "65000") {
		t.Errorf("a refusal printed the address:\n%s", tail(out, 40))
	}
}

// TestTheWindowLoadsNothingFromTheNetwork runs the "remote" self-test
// (issue 21): the page itself, past every sanitiser, tries to load from a
// local listener in every way a page can (images, backgrounds, styles,
// fonts, media, frames, scripts, fetch, beacons, sockets); not one request
// may reach it — the Content-Security-Policy and the web extension's
// request filter stop them.
func TestTheWindowLoadsNothingFromTheNetwork(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.Path)
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	out := runSelfTest(t, "remote", "PLAYCHAT_SELFTEST_URL="+srv.URL)
	if !regexp.MustCompile(`selftest: remote: the page tried 2[0-9] ways to load from the listener`).MatchString(out) {
		t.Errorf("the page did not run its loads:\n%s", tail(out, 40))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 0 {
		t.Errorf("%d requests reached the listener: %v", len(got), got)
	}
}

// TestTheHeaderKeepsSettingsAndEveryToolAtEverySize runs the built binary
// in its "header" self-test (issue 22): at 1200×820 and at 800×600, with no
// panel and with each panel open in turn, Settings is on screen and every
// other tool is reachable on the bar or in the "…" menu.
func TestTheHeaderKeepsSettingsAndEveryToolAtEverySize(t *testing.T) {
	// One start per size: the window starts at it (app.SelfTestSizeEnv).
	for _, size := range []string{"1200x820", "800x600"} {
		out := runSelfTest(t, "header", "PLAYCHAT_SELFTEST_SIZE="+size)
		w, _, _ := strings.Cut(size, "x")
		wantOutput(t, out, "selftest: header "+size+": all reachable in a page of "+w+" px", "the header lost a tool at "+size)
	}
	// A new user's first screen with a default model whose models load:
	// the picker's label grows after the tools were fitted, and at
	// 1200×820 "Memory" was cut to "Mem" instead of folding into "…".
	models := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"object":"list","data":[{"id":"fake-model","object":"model"}]}`))
	}))
	defer models.Close()
	out := runSelfTest(t, "header", "PLAYCHAT_SELFTEST_SIZE=1200x820", "OPENAI_BASE_URL="+models.URL+"/v1",
		"OPENAI_API_KEY=k", "DEFAULT_MODEL=openai/fake-model")
	wantOutput(t, out, "selftest: header 1200x820: all reachable in a page of 1200 px",
		"with a default model, the header cut a tool off instead of folding it")
}
