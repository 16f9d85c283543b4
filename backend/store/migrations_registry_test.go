package store

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestEveryMigrationStepIsRegisteredOnce reads the package's files: every
// step declared (var stepX = step{MigrationX, …}) is in steps exactly once,
// and every name in steps is unique — a step written but never listed would
// otherwise be skipped without a sound.
func TestEveryMigrationStepIsRegisteredOnce(t *testing.T) {
	registered := map[string]int{}
	for _, s := range steps {
		registered[s.name]++
	}
	for name, n := range registered {
		if n != 1 {
			t.Errorf("step %s is registered %d times", name, n)
		}
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	list, err := os.ReadFile("migrations.go")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\t(step\w+),`).FindAllStringSubmatch(string(list), -1) {
		listed[m[1]] = true
	}
	decl := regexp.MustCompile(`(?m)^var (step\w+) = step\{`)
	declared := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range decl.FindAllStringSubmatch(string(src), -1) {
			declared++
			if !listed[m[1]] {
				t.Errorf("%s declares %s, which steps (migrations.go) does not list", f, m[1])
			}
		}
	}
	if declared < 13 || declared != len(listed) {
		t.Errorf("found %d step declarations and %d listed: the scan is broken", declared, len(listed))
	}
}
