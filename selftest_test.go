package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestRecoveredPanicAfterDomReadyKeepsTheWindowAlive runs the built desktop
// binary (PLAYCHAT_BIN) in its "panic" self-test: once the page is ready, a
// bound method called from the page dereferences a nil pointer twice; Wails
// recovers the panics and the page's next bound call must still answer. It
// needs a display, so it runs from scripts/e2e.sh under Xvfb and skips
// elsewhere.
func TestRecoveredPanicAfterDomReadyKeepsTheWindowAlive(t *testing.T) {
	bin := os.Getenv("PLAYCHAT_BIN")
	if bin == "" || os.Getenv("DISPLAY") == "" {
		t.Skip("needs PLAYCHAT_BIN (the built app) and a display; scripts/e2e.sh runs it under Xvfb")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Env = append(os.Environ(),
		"PLAYCHAT_SELFTEST=panic",
		"PLAYCHAT_DATA_DIR="+dir+"/data",
		"XDG_DATA_HOME="+dir+"/xdg/data", "XDG_CACHE_HOME="+dir+"/xdg/cache", "XDG_CONFIG_HOME="+dir+"/xdg/config",
	)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the app ended with %v after the recovered panic:\n%s", err, tail(string(out), 40))
	}
	if !strings.Contains(string(out), "selftest: panic recovered") {
		t.Fatalf("the page did not answer after the panic:\n%s", tail(string(out), 40))
	}
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
