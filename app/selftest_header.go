package app

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// headerSizes are the window sizes the "header" self-test checks (issue 22:
// at the default 1200×820 with Notes open the ⚙ was gone; at 800×600 every
// header button could vanish).
var headerSizes = [][2]int{{1200, 820}, {800, 600}}

// SelfTestSizeEnv ("WxH") starts the window of the "header" self-test at
// that size and checks that size only: a window that starts at a size
// always has it, while a resize asked for later was sometimes dropped by
// GTK on a loaded machine (make test failed twice with the window still
// 1200 px wide).
const SelfTestSizeEnv = "PLAYCHAT_SELFTEST_SIZE"

// DefaultWindowSize is the window's size at start, in pixels.
var DefaultWindowSize = [2]int{1200, 820}

// WindowSize is the size the window starts at: DefaultWindowSize, or
// SelfTestSizeEnv's during the "header" self-test (a malformed value, or
// one under the 720×480 minimum, is ignored).
func WindowSize(getenv func(string) string) (width, height int) {
	if sz, ok := selfTestSize(getenv); ok {
		return sz[0], sz[1]
	}
	return DefaultWindowSize[0], DefaultWindowSize[1]
}

func selfTestSize(getenv func(string) string) ([2]int, bool) {
	if getenv(SelfTestEnv) != "header" {
		return [2]int{}, false
	}
	w, h, ok := strings.Cut(getenv(SelfTestSizeEnv), "x")
	wi, werr := strconv.Atoi(w)
	hi, herr := strconv.Atoi(h)
	if !ok || werr != nil || herr != nil || wi < 720 || hi < 480 {
		return [2]int{}, false
	}
	return [2]int{wi, hi}, true
}

// runHeaderSelfTest sizes the window to each of headerSizes and has the page
// open each panel in turn (none, the notes pane, Knowledge, Learned,
// Reminders, Memory, API logs, Settings) through the header itself — its
// button, or the "…" menu when it folded there. In every state Settings
// must be on screen and not covered, and every other tool reachable (on
// the bar or in the menu). It prints one line per size.
func (a *App) runHeaderSelfTest(ctx context.Context) {
	<-a.domReadies
	time.Sleep(time.Second)
	sizes := headerSizes
	if sz, ok := selfTestSize(a.env); ok {
		sizes = [][2]int{sz}
	}
	for _, sz := range sizes {
		a.plat().SetSize(sz[0], sz[1])
		time.Sleep(1500 * time.Millisecond)
		// PLAYCHAT_SELFTEST_HOLD_MS holds each state that long, for
		// screenshots taken from outside.
		hold, _ := strconv.Atoi(a.env("PLAYCHAT_SELFTEST_HOLD_MS"))
		a.plat().ExecJS("window.__selftestHold = " + strconv.Itoa(hold) + "; window.__selftestWidth = " + strconv.Itoa(sz[0]) + "; window.__selftestHeight = " + strconv.Itoa(sz[1]) + ";" + headerCheck)
		select {
		case msg := <-a.selfTestReports:
			fmt.Fprintf(os.Stdout, "selftest: header %dx%d: %s\n", sz[0], sz[1], msg)
		case <-time.After(30*time.Second + 16*time.Duration(hold)*time.Millisecond):
			fmt.Fprintf(os.Stdout, "selftest: header %dx%d: the page did not answer\n", sz[0], sz[1])
		}
	}
	a.quit()
}

// headerCheck runs in the page: for each panel state, whether Settings is
// shown (inside the window, the topmost element at its centre) and every
// tool reachable; reports "all reachable in a page of W px (…)" or the
// failures.
const headerCheck = `(async () => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
  const tools = ['open-search', 'open-notes', 'open-kb', 'open-learned', 'open-reminders', 'open-memory', 'open-logs']
  const shown = (el) => {
    if (!el) return false
    const r = el.getBoundingClientRect()
    if (r.width < 4 || r.height < 4 || r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) return false
    // Inside the top bar (not spilling over the notes pane beside it) …
    // (the … menu drops down over whatever is below: it may go past it).
    const bar = el.closest('[role="menu"]') ? null : el.closest('header')
    if (bar) {
      const b = bar.getBoundingClientRect()
      if (r.left < b.left - 0.5 || r.right > b.right + 0.5) return false
    }
    // … and, on the bar, inside the tools' own box (not cut off).
    const nav = el.closest('[data-testid="header-tools"]')
    if (nav) {
      const n = nav.getBoundingClientRect()
      if (r.left < n.left - 0.5 || r.right > n.right + 0.5) return false
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
    return !!hit && (hit === el || el.contains(hit))
  }
  const onBar = (id) => document.querySelector('header [data-testid="' + id + '"]:not([role="menuitem"])')
  const more = () => document.querySelector('[data-testid="header-more"]')
  async function withMenu(fn) {
    const m = more()
    if (!m || !shown(m)) return false
    m.click()
    await sleep(150)
    const r = await fn()
    if (document.querySelector('[data-testid="header-more-menu"]')) { more()?.click(); await sleep(100) }
    return r
  }
  async function reach(id) {
    if (shown(onBar(id))) return 'bar'
    const ok = await withMenu(async () => shown(document.querySelector('[data-testid="header-more-menu"] [data-testid="' + id + '"]')))
    return ok ? 'menu' : 'none'
  }
  async function press(id) {
    const b = onBar(id)
    if (shown(b)) { b.click(); await sleep(400); return true }
    return withMenu(async () => {
      const it = document.querySelector('[data-testid="header-more-menu"] [data-testid="' + id + '"]')
      if (!shown(it)) return false
      it.click()
      await sleep(400)
      return true
    })
  }
  // The page takes the window's new size (WindowSetSize). On a loaded
  // machine GTK has dropped that request once (CI: the page stayed at
  // 1200 px), so it is asked again every 2 s, for up to 20 s, and a window
  // that never takes the size is reported as that, not checked at the
  // wrong width.
  for (let i = 0; i < 200 && innerWidth !== window.__selftestWidth; i++) {
    if (i % 20 === 19) window.runtime?.WindowSetSize(window.__selftestWidth, window.__selftestHeight)
    await sleep(100)
  }
  if (innerWidth !== window.__selftestWidth) {
    window.go.app.SelfTestService.SelfTestReport('FAILED: the window stayed ' + innerWidth + ' px wide, not ' + window.__selftestWidth)
    return
  }
  const fails = []
  const folded = new Set()
  const why = (el) => {
    if (!el) return 'no element'
    const r = el.getBoundingClientRect()
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
    return 'at ' + [r.left, r.top, r.right, r.bottom].map(Math.round).join(',') + ' in ' + innerWidth + 'x' + innerHeight +
      ', on top: ' + (hit ? hit.tagName + '.' + String(hit.className).split(' ').join('.') : 'nothing')
  }
  async function check(state) {
    if (window.__selftestHold) { console.log('selftest state: ' + state); await sleep(window.__selftestHold) }
    if (!shown(onBar('open-settings'))) fails.push(state + ': Settings is not on screen (' + why(onBar('open-settings')) + ')')
    for (const id of tools) {
      const where = await reach(id)
      if (where === 'none') fails.push(state + ': ' + id + ' cannot be reached')
      if (where === 'menu') folded.add(id)
    }
  }
  await check('no panel')
  for (const id of ['open-notes', 'open-kb', 'open-learned', 'open-reminders', 'open-memory', 'open-logs', 'open-settings']) {
    if (!(await press(id))) { fails.push(id + ': could not be opened'); continue }
    await check(id + ' open')
    if (!(await press(id))) fails.push(id + ': could not be closed')
  }
  const msg = fails.length ? 'FAILED: ' + fails.join('; ') : 'all reachable in a page of ' + innerWidth + ' px (folded into …: ' + ([...folded].join(', ') || 'none') + ')'
  window.go.app.SelfTestService.SelfTestReport(msg)
})()`
