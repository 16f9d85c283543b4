package core

import (
	"context"
	"log/slog"
	"testing"
)

func TestTheCoresGuardReportsABackgroundPanicToTheEntryPoint(t *testing.T) {
	var reported []string
	c, err := Open(context.Background(), Options{DataDir: t.TempDir(), Logger: slog.New(slog.DiscardHandler),
		OnBackgroundPanic: func(job string, v any) { reported = append(reported, job+": "+v.(string)) }})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for range 2 {
		if !c.Guard.Do("selftest", func() { panic("boom") }) {
			t.Fatal("the core's guard did not recover the panic")
		}
	}
	if len(reported) != 1 || reported[0] != "selftest: boom" {
		t.Fatalf("reported %v, want one report of the job", reported)
	}
}
