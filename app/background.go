package app

import (
	"context"
	"fmt"
	"os"
	"time"
)

// EventBackgroundPanic: a background job (knowledge-base indexing, a memory
// summary, a reminder delivery, …) panicked for the first time since start
// (data: BackgroundPanic). The panic was recovered and logged with its
// stack; the window shows one toast per job. Later panics of the same job
// are only logged.
const EventBackgroundPanic = "app:background-panic"

// BackgroundPanic is EventBackgroundPanic's data.
type BackgroundPanic struct {
	// Job names the background job, e.g. "kb.index", "memory.summarize",
	// "reminders.fire" (see backend/guard).
	Job string `json:"job"`
	// Message is the panic value as text (English, for bug reports).
	Message string `json:"message"`
}

// reportBackgroundPanic is core.Options.OnBackgroundPanic: it tells the
// window about the first panic of each job.
func (a *App) reportBackgroundPanic(job string, v any) {
	if p := a.plat(); p != nil {
		p.Emit(EventBackgroundPanic, BackgroundPanic{Job: job, Message: fmt.Sprint(v)})
	}
}

// bgPanicJob is the job name the "bgpanic" self-test panics in.
const bgPanicJob = "selftest.bgpanic"

// runBackgroundPanicSelfTest runs the "bgpanic" self-test (see SelfTestEnv):
// a background job panics twice under the core's guard, a few seconds
// after the page is ready; the process must stay up, and the page must
// show exactly one toast for the job. It prints the result, keeps the
// window open 3 s more (for a screenshot) and quits.
func (a *App) runBackgroundPanicSelfTest(ctx context.Context) {
	defer a.quit() // a quit, not a close: never hidden to the tray
	c, err := a.backend()
	if err != nil {
		fmt.Fprintf(os.Stdout, "selftest: bgpanic: the backend did not start: %v\n", err)
		return
	}
	time.Sleep(2 * time.Second)
	for range 2 {
		done := make(chan struct{})
		c.Guard.Go(bgPanicJob, func() {
			defer close(done)
			var p *int
			_ = *p // a nil-pointer dereference, as a real bug would be
		})
		<-done
	}
	time.Sleep(2 * time.Second) // the event reaches the page and the toast renders
	// Count the toasts that name the job (other toasts may be up too).
	a.plat().ExecJS(`window.go.app.SelfTestService.SelfTestReport(String(` +
		`[...document.querySelectorAll('[data-testid="toast"]')].filter((e) => e.textContent.includes('` + bgPanicJob + `')).length))`)
	select {
	case n := <-a.selfTestReports:
		ok := n == "1" && c.Guard.Panics(bgPanicJob) == 2
		verdict := "recovered"
		if !ok {
			verdict = "FAILED"
		}
		fmt.Fprintf(os.Stdout, "selftest: bgpanic %s (%d panics of %s, %s toast(s) shown, want 1)\n",
			verdict, c.Guard.Panics(bgPanicJob), bgPanicJob, n)
	case <-time.After(10 * time.Second):
		fmt.Fprintln(os.Stdout, "selftest: bgpanic: no answer from the page after the panics")
	}
	time.Sleep(3 * time.Second)
}
