// Package testcorpus finds the real documents that tests read: the Japanese
// Markdown corpus and the Japan Meteorological Agency forecast documents.
//
// Each is found in two places. The full set lives beside the project root
// (../shared/corpus, ../shared/fixtures/jma) on the machines it was
// developed on; a trimmed copy is committed under testdata/ so that the
// tests run in a plain clone too: testdata/corpus holds the whole Vue
// documentation and the chapters of the Rust book the tests name (145 of
// the full corpus's 225 documents, with their licences), testdata/jma every
// forecast document. The full set is used when present (opt-in: the
// evaluation figures of make bench are measured on it); an environment
// variable overrides both.
package testcorpus

import (
	"os"
	"path/filepath"
	"testing"
)

// MinDocs is the fewest Markdown documents Dir's folder holds: the trimmed
// copy has 145, the full corpus 225. A test that checks the whole corpus
// was read compares against it.
const MinDocs = 140

// Dir returns the corpus folder (holding vue-docs-ja/ and rust-book-ja/):
// PLAYCHAT_KB_CORPUS when set, else the first "shared/corpus" found walking
// up from the test's working directory, else the repository's
// testdata/corpus. It fails the test when none exists.
func Dir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("PLAYCHAT_KB_CORPUS"); d != "" {
		return d
	}
	return find(t, []string{"shared", "corpus"}, []string{"testdata", "corpus"}, "vue-docs-ja")
}

// JMADir returns the folder of JMA forecast documents
// (forecast-<place>-<office>-<date>-<time>.json and otiai10-*.json; see its
// README.md): PLAYCHAT_JMA_FIXTURES when set, else the first
// "shared/fixtures/jma" above the working directory, else the repository's
// testdata/jma. It fails the test when none exists.
func JMADir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("PLAYCHAT_JMA_FIXTURES"); d != "" {
		return d
	}
	return find(t, []string{"shared", "fixtures", "jma"}, []string{"testdata", "jma"}, "README.md")
}

// find walks up from the working directory twice: first for the full set
// (shared), then for the committed copy (testdata beside a go.mod); mark is
// an entry the folder must hold.
func find(t testing.TB, shared, testdata []string, mark string) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range [][]string{shared, testdata} {
		for d := wd; ; d = filepath.Dir(d) {
			c := filepath.Join(append([]string{d}, rel...)...)
			if _, err := os.Stat(filepath.Join(c, mark)); err == nil {
				if rel[0] != "testdata" {
					return c
				}
				if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
					return c
				}
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	t.Fatalf("neither %s nor %s found above %s", filepath.Join(shared...), filepath.Join(testdata...), wd)
	return ""
}
