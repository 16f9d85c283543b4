package kb

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// The issue 8 input: a document in half-width katakana is found by the word
// in full width, and the other way round, and so are decomposed spellings.
func TestSearchFindsEveryWidthAndCompositionVariant(t *testing.T) {
	spellings := map[string]string{
		"half-width": "ﾜｶﾞﾊｲ",
		"full-width": "ワガハイ",
		"decomposed": "ワカ\u3099ハイ",
		"half+kana":  "ﾜカﾞハｲ",
	}
	ctx := context.Background()
	for docName, docWord := range spellings {
		f := newFixture(t, "")
		writeFile(t, filepath.Join(f.dir, "neko.md"), "# 小説\n\n"+docWord+"は猫である。名前はまだ無い。\n")
		writeFile(t, filepath.Join(f.dir, "other.md"), "# 天気\n\n明日は晴れるでしょう。\n")
		if _, err := f.svc.Reconcile(ctx); err != nil {
			t.Fatal(err)
		}
		for queryName, queryWord := range spellings {
			hits, err := f.svc.Search(ctx, queryWord, 5)
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) == 0 || hits[0].Path != "neko.md" {
				t.Errorf("document in %s (%q), query in %s (%q): hits %+v, want neko.md first", docName, docWord, queryName, queryWord, hits)
				continue
			}
			if want := MarkOpen + docWord + MarkClose; !strings.Contains(hits[0].Excerpt, want) {
				t.Errorf("document in %s, query in %s: excerpt %q does not mark the document's own spelling %q", docName, queryName, hits[0].Excerpt, want)
			}
		}
	}
}
