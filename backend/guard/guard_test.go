package guard

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

type reports struct {
	mu   sync.Mutex
	jobs []string
	vals []any
}

func (r *reports) add(job string, v any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.jobs = append(r.jobs, job)
	r.vals = append(r.vals, v)
}

func newGuard(t *testing.T) (*Guard, *bytes.Buffer, *reports) {
	t.Helper()
	var buf bytes.Buffer
	r := &reports{}
	return New(slog.New(slog.NewTextHandler(&buf, nil)), r.add), &buf, r
}

func TestDoRecoversAPanicAndLogsItWithItsStack(t *testing.T) {
	g, buf, r := newGuard(t)
	ran := false
	recovered := g.Do("kb.reindex", func() {
		defer func() { ran = true }() // fn's own defers still run
		var m map[string]int
		m["x"] = 1 // a runtime panic (assignment to a nil map)
	})
	if !recovered || !ran {
		t.Fatalf("recovered = %v, fn's defer ran = %v; want both true", recovered, ran)
	}
	log := buf.String()
	for _, want := range []string{"level=ERROR", "background job panicked", "job=kb.reindex",
		"assignment to entry in nil map", "stack=", "guard_test.go"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if len(r.jobs) != 1 || r.jobs[0] != "kb.reindex" {
		t.Fatalf("reports = %v, want one for kb.reindex", r.jobs)
	}
	if _, ok := r.vals[0].(error); !ok {
		t.Errorf("reported value %T, want the runtime error", r.vals[0])
	}
}

func TestDoReturnsFalseWhenFnDoesNotPanic(t *testing.T) {
	g, buf, r := newGuard(t)
	if g.Do("quiet", func() {}) {
		t.Fatal("Do reported a panic for a job that returned normally")
	}
	if buf.Len() != 0 || len(r.jobs) != 0 {
		t.Fatalf("a normal job logged %q and reported %v", buf.String(), r.jobs)
	}
}

func TestEachJobIsReportedOnceButEveryPanicIsLogged(t *testing.T) {
	g, buf, r := newGuard(t)
	for range 3 {
		g.Do("memory.summarize", func() { panic("boom") })
	}
	g.Do("reminders.fire", func() { panic(errors.New("bad")) })
	if got := strings.Join(r.jobs, ","); got != "memory.summarize,reminders.fire" {
		t.Fatalf("reported jobs = %q, want each job once", got)
	}
	if n := strings.Count(buf.String(), "background job panicked"); n != 4 {
		t.Fatalf("logged %d panics, want 4", n)
	}
	if !strings.Contains(buf.String(), "count=3") {
		t.Errorf("the third panic of a job is not logged with count=3:\n%s", buf.String())
	}
	if g.Panics("memory.summarize") != 3 || g.Panics("reminders.fire") != 1 || g.Panics("other") != 0 {
		t.Errorf("Panics = %d, %d, %d; want 3, 1, 0", g.Panics("memory.summarize"), g.Panics("reminders.fire"), g.Panics("other"))
	}
}

func TestGoRecoversOnItsOwnGoroutine(t *testing.T) {
	var buf bytes.Buffer
	done := make(chan string, 2)
	g := New(slog.New(slog.NewTextHandler(&buf, nil)), func(job string, v any) { done <- job })
	g.Go("kb.watch", func() { panic("in the watcher") })
	if job := <-done; job != "kb.watch" {
		t.Fatalf("reported %q, want kb.watch", job)
	}
	// The process is still here; a normal job still runs.
	ran := make(chan bool)
	g.Go("kb.watch", func() { ran <- true })
	if !<-ran {
		t.Fatal("a later job did not run")
	}
}

func TestANilGuardRunsFnUnguarded(t *testing.T) {
	var g *Guard
	ran := false
	if g.Do("x", func() { ran = true }) || !ran {
		t.Fatal("a nil guard did not run fn, or reported a panic")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a nil guard recovered a panic; it should propagate")
		}
	}()
	g.Do("x", func() { panic("propagates") })
}

func TestANilReporterAndLoggerAreAllowed(t *testing.T) {
	g := New(slog.New(slog.DiscardHandler), nil)
	if !g.Do("x", func() { panic("no reporter") }) {
		t.Fatal("the panic was not recovered")
	}
	if New(nil, nil).log == nil {
		t.Fatal("New(nil, nil) has no logger")
	}
}
