package kb

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// ftsInStep fails unless the FTS table holds exactly one row per section.
func ftsInStep(t *testing.T, f *fixture) int {
	t.Helper()
	var chunks, fts int
	if err := f.db.Bun().QueryRow(`SELECT count(*) FROM local_knowledge_chunks`).Scan(&chunks); err != nil {
		t.Fatal(err)
	}
	if err := f.db.Bun().QueryRow(`SELECT count(*) FROM local_knowledge_fts`).Scan(&fts); err != nil {
		t.Fatal(err)
	}
	if chunks != fts || chunks == 0 {
		t.Fatalf("%d sections but %d FTS rows", chunks, fts)
	}
	return chunks
}

// A first index writes new documents in bulk (insertFresh) and a later pass
// mixes new, changed, failed and removed ones in its batches (writeDoc):
// both keep every section and its FTS row in step and searchable.
func TestBatchedWritesKeepSectionsAndFTSInStep(t *testing.T) {
	f := newFixture(t, "")
	// word(p, i) is a made-up katakana word, one for each prefix and i.
	word := func(p string, i int) string {
		syl := []string{"カ", "キ", "ク", "ケ", "コ", "サ", "シ", "ス", "セ", "ソ"}
		return p + syl[i/100] + syl[i/10%10] + syl[i%10] + "ン"
	}
	doc := func(i int, word string) string {
		return fmt.Sprintf("# 文書 %d\n\n%sについての説明です。\n\n## 詳細\n\n番号 %d の本文。\n", i, word, i)
	}
	for i := range 300 {
		writeFile(t, filepath.Join(f.dir, fmt.Sprintf("d%d/doc%03d.md", i/50, i)), doc(i, word("ゾ", i)))
	}
	ctx := context.Background()
	rep, err := f.svc.Reconcile(ctx)
	if err != nil || rep.Indexed != 300 {
		t.Fatalf("first pass: %+v, %v", rep, err)
	}
	perDoc := ftsInStep(t, f) / 300
	for i := range 40 { // changed
		writeFile(t, filepath.Join(f.dir, fmt.Sprintf("d%d/doc%03d.md", i/50, i)), doc(i, word("ヌ", i)))
	}
	for i := 300; i < 340; i++ { // new
		writeFile(t, filepath.Join(f.dir, fmt.Sprintf("new/doc%03d.md", i)), doc(i, word("ホ", i)))
	}
	writeFile(t, filepath.Join(f.dir, "new/binary.md"), "a\x00b")    // fails
	if err := os.RemoveAll(filepath.Join(f.dir, "d5")); err != nil { // removed: 250–299
		t.Fatal(err)
	}
	rep, err = f.svc.Reconcile(ctx)
	if err != nil || rep.Indexed != 80 || rep.Removed != 50 || rep.Failed != 1 {
		t.Fatalf("second pass: %+v, %v", rep, err)
	}
	if n := ftsInStep(t, f); n != perDoc*(300-50+40) {
		t.Fatalf("%d sections, want %d", n, perDoc*(300-50+40))
	}
	for _, c := range []struct {
		q, want string
	}{
		{word("ヌ", 7), "d0/doc007.md"}, {word("ホ", 333), "new/doc333.md"}, {word("ゾ", 100), "d2/doc100.md"},
	} {
		if got := f.searchPaths(t, c.q, 1); len(got) != 1 || got[0] != c.want {
			t.Errorf("search %q = %v, want %s", c.q, got, c.want)
		}
		if got := f.searchPaths(t, c.q, 5); len(got) != 1 {
			t.Errorf("search %q = %v, want only %s", c.q, got, c.want)
		}
	}
	for _, q := range []string{word("ゾ", 7), word("ゾ", 260)} { // replaced, removed
		if got := f.searchPaths(t, q, 5); len(got) != 0 {
			t.Errorf("search %q = %v, want nothing", q, got)
		}
	}
}
