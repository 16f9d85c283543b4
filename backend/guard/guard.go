// Package guard keeps a panic in a background job from ending the process:
// the panic is recovered, logged with its stack, and reported once per job
// name (so the window shows one toast per failing job, not one per panic).
package guard

import (
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
)

// Reporter is told about the first panic of each job name: job is the name
// given to Go or Do, value is what was passed to panic (for a runtime error,
// a runtime.Error). It runs on the panicking goroutine after the panic is
// logged, and must not block for long.
type Reporter func(job string, value any)

// Guard recovers panics of background jobs. It is safe for concurrent use.
//
// A nil *Guard is valid and guards nothing: Go starts fn on a plain
// goroutine and Do calls fn directly, so a panic propagates as it would
// without the guard (tests of a package may leave the guard out).
type Guard struct {
	log    *slog.Logger
	report Reporter

	mu       sync.Mutex
	reported map[string]bool // job names already passed to report
	panics   map[string]int  // job name → panics recovered so far
}

// New returns a Guard that logs recovered panics to log (nil: slog.Default())
// at error level with the stack, and passes the first panic of each job name
// to report (nil: none).
func New(log *slog.Logger, report Reporter) *Guard {
	if log == nil {
		log = slog.Default()
	}
	return &Guard{log: log, report: report, reported: map[string]bool{}, panics: map[string]int{}}
}

// Go runs fn on a new goroutine under Do: a panic in fn is recovered,
// logged and reported, and the goroutine ends.
func (g *Guard) Go(job string, fn func()) {
	if g == nil {
		go fn()
		return
	}
	go g.Do(job, fn)
}

// Do calls fn and returns whether it panicked. A panic is recovered, logged
// at error level as "background job panicked" with job, panic (the value,
// formatted with %v), count (the job's panics so far, from 1) and stack
// (runtime/debug.Stack of the panicking goroutine), and the first panic of
// each job name is passed to the Reporter. fn's own deferred calls run
// before the recovery, as with any panic. A nil Guard calls fn unguarded and
// returns false.
func (g *Guard) Do(job string, fn func()) (recovered bool) {
	if g == nil {
		fn()
		return false
	}
	defer func() {
		if v := recover(); v != nil {
			recovered = true
			g.handle(job, v, debug.Stack())
		}
	}()
	fn()
	return false
}

// Panics returns how many panics of job were recovered so far.
func (g *Guard) Panics(job string) int {
	if g == nil {
		return 0
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.panics[job]
}

func (g *Guard) handle(job string, v any, stack []byte) {
	g.mu.Lock()
	g.panics[job]++
	count := g.panics[job]
	first := !g.reported[job]
	g.reported[job] = true
	g.mu.Unlock()
	g.log.Error("background job panicked", "job", job, "panic", fmt.Sprintf("%v", v),
		"count", count, "stack", string(stack))
	if first && g.report != nil {
		g.report(job, v)
	}
}
