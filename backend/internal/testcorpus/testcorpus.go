// Package testcorpus finds the real Japanese Markdown documents that tests
// read (../shared/corpus beside the project root).
package testcorpus

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the corpus folder, found by walking up from the test's
// working directory to a "shared/corpus" holding "vue-docs-ja";
// PLAYCHAT_KB_CORPUS overrides. It skips the test when there is none.
func Dir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("PLAYCHAT_KB_CORPUS"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		c := filepath.Join(d, "shared", "corpus")
		if fi, err := os.Stat(filepath.Join(c, "vue-docs-ja")); err == nil && fi.IsDir() {
			return c
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	t.Skip("../shared/corpus not found above " + wd + " (set PLAYCHAT_KB_CORPUS): corpus tests skipped")
	return ""
}
