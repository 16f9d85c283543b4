package testcorpus

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Copies writes n documents into dir for benchmarks that need a large
// knowledge base: the corpus's Markdown documents (Dir), copied under new
// names, 500 to a folder (domain000, domain001, …). Each copy starts with
// a line naming it, so that every copy is a document of its own (another
// hash). The same n gives the same files.
func Copies(t testing.TB, dir string, n int) {
	t.Helper()
	corpus := Dir(t)
	var src []string
	for _, root := range []string{filepath.Join(corpus, "vue-docs-ja", "src"), filepath.Join(corpus, "rust-book-ja", "src")} {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(p) == ".md" {
				src = append(src, p)
			}
			return nil
		})
	}
	if len(src) == 0 {
		t.Fatal("no corpus documents")
	}
	cache := map[string][]byte{}
	for i := range n {
		p := src[i%len(src)]
		data, ok := cache[p]
		if !ok {
			var err error
			if data, err = os.ReadFile(p); err != nil {
				t.Fatal(err)
			}
			cache[p] = data
		}
		d := filepath.Join(dir, fmt.Sprintf("domain%03d", i/500))
		if i%500 == 0 {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		doc := append([]byte(fmt.Sprintf("<!-- copy %d -->\n", i)), data...)
		if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("%05d-%s", i, filepath.Base(p))), doc, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
