package webview

import (
	"encoding/json"
	"strings"
	"testing"
)

// fakePage records the page's side of StartMemStats.
type fakePage struct {
	js       []string
	handlers map[string]func(data ...any)
}

func (p *fakePage) ExecJS(js string) { p.js = append(p.js, js) }

func (p *fakePage) OnEvent(name string, fn func(data ...any)) func() {
	if p.handlers == nil {
		p.handlers = map[string]func(data ...any){}
	}
	p.handlers[name] = fn
	return func() { delete(p.handlers, name) }
}

func memStatsEnv(v string) func(string) string {
	return func(k string) string {
		if k == MemStatsEnv {
			return v
		}
		return ""
	}
}

func TestMemStatsOffCostsNothing(t *testing.T) {
	for _, v := range []string{"", "0", "-3", "x"} {
		p := &fakePage{}
		var out strings.Builder
		StartMemStats(memStatsEnv(v), p, &out)
		if len(p.js) != 0 || len(p.handlers) != 0 {
			t.Errorf("%s=%q: armed the page (%v, %d handlers)", MemStatsEnv, v, p.js, len(p.handlers))
		}
	}
}

func TestMemStatsPrintsThePagesReportWithTheGoHeap(t *testing.T) {
	p := &fakePage{}
	var out strings.Builder
	StartMemStats(memStatsEnv("5"), p, &out)
	if len(p.js) != 1 || p.js[0] != "window.__playchatMemStats = 5;" {
		t.Fatalf("page script %q", p.js)
	}
	fn := p.handlers[memStatsEvent]
	if fn == nil {
		t.Fatalf("no handler on %s", memStatsEvent)
	}
	fn(map[string]any{"domNodes": 1234})
	line, ok := strings.CutPrefix(out.String(), "MEMSTATS ")
	if !ok || !strings.HasSuffix(line, "\n") {
		t.Fatalf("line %q", out.String())
	}
	var got []map[string]any
	if err := json.Unmarshal([]byte(line), &got); err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	if len(got) != 2 || got[0]["domNodes"] != float64(1234) {
		t.Fatalf("report %v", got)
	}
	if _, ok := got[1]["goHeapInuse"]; !ok {
		t.Fatalf("no Go heap figures in %v", got[1])
	}
}
