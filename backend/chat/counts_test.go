package chat

import (
	"strings"
	"testing"
)

// countingCounter counts how often it is asked.
type countingCounter struct{ calls int }

func (c *countingCounter) Count(text string) int { c.calls++; return len(text) / 4 }
func (c *countingCounter) Name() string          { return "test" }

func TestALongTextsTokenCountIsRememberedAndTheCacheStaysBounded(t *testing.T) {
	inner := &countingCounter{}
	cc := newCountCache()
	c := cc.wrap(inner)
	long := strings.Repeat("x", 1<<20)
	for i := 0; i < 3; i++ {
		if n := c.Count(long); n != 1<<18 {
			t.Fatalf("count %d", n)
		}
	}
	if inner.calls != 1 {
		t.Errorf("a 1 MiB text was counted %d times, want once", inner.calls)
	}
	short := "a short message"
	c.Count(short)
	c.Count(short)
	if inner.calls != 3 || len(cc.n) != 1 {
		t.Errorf("a short text: %d calls, %d cached", inner.calls, len(cc.n))
	}
	// Forty different 1 MiB texts: only the newest 32 MiB stay.
	for i := 0; i < 40; i++ {
		c.Count(strings.Repeat(string(rune('a'+i%26)), 1<<20-i))
	}
	if cc.bytes > countCacheBytes || len(cc.n) > 32 || len(cc.n) != len(cc.order) {
		t.Errorf("the cache holds %d texts of %d bytes", len(cc.n), cc.bytes)
	}
}
