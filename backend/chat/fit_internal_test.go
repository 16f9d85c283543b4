package chat

import (
	"fmt"
	"strings"
	"testing"

	"playchat/backend/attach"
	"playchat/backend/store"
)

// fitPart finds the same part as trying every cut would: the longest that
// fits, for pages and for lines (and pieces of a long line), whatever the
// room, with a real tokenizer.
func TestFitPartFindsTheLongestPartThatFits(t *testing.T) {
	counter := counterFor("openai/gpt-4o")
	var pdf, log strings.Builder
	for p := 1; p <= 30; p++ {
		if p == 7 || p == 8 {
			continue // pages without text
		}
		if pdf.Len() > 0 {
			pdf.WriteString("\n\n")
		}
		fmt.Fprintf(&pdf, "[page %d]\n%s", p, strings.Repeat(fmt.Sprintf("word%d ", p), 10+p*3))
	}
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&log, "line %d %s\n", i, strings.Repeat("x", i%40))
	}
	log.WriteString(strings.Repeat("one very long line without a newline ", 200))
	docs := []store.MessageFile{
		{Name: "r.pdf", Kind: attach.KindPDF, MIME: "application/pdf", Pages: 32, Text: pdf.String()},
		{Name: "a.log", Kind: attach.KindText, MIME: "text/plain", Text: log.String()},
	}
	for _, doc := range docs {
		cuts := partCuts(doc)
		sizes := make([]int, len(cuts)-1) // every part's size, to try every cut
		for i := range sizes {
			g := doc
			if doc.Pages > 1 {
				g.SentPages = cuts[i].n
			} else {
				g.SentChars = cuts[i].n
			}
			sizes[i] = counter.Count(fileBlock(g))
		}
		for _, room := range []int{1, 30, 60, 200, 777, 1500, 3000, counter.Count(fileBlock(doc)) - 1} {
			want := -1
			for i, n := range sizes {
				if n <= room {
					want = i
				}
			}
			f := doc
			used, ok := fitPart(counter, room, &f)
			if ok != (want >= 0) {
				t.Fatalf("%s room %d: ok = %v, want %v", doc.Name, room, ok, want >= 0)
			}
			if !ok {
				if f.SentPages != 0 || f.SentChars != 0 {
					t.Fatalf("%s room %d: a part was set though none fits", doc.Name, room)
				}
				continue
			}
			got := f.SentChars
			if doc.Pages > 1 {
				got = f.SentPages
			}
			if got != cuts[want].n || used != counter.Count(fileBlock(f)) || used > room {
				t.Fatalf("%s room %d: part %d (%d tokens), want %d", doc.Name, room, got, used, cuts[want].n)
			}
		}
	}
	// The pages sent run up to the page before the next one with text.
	f := docs[0]
	f.SentPages = 8
	if b := fileBlock(f); !strings.Contains(b, `part="pages 1-8 of 32"`) || strings.Contains(b, "[page 9]") || !strings.Contains(b, "[page 6]") {
		t.Fatalf("pages 1-8: %.200s", b)
	}
}
