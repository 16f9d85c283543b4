package tokens

import (
	"strings"
	"testing"
)

const mark = "\n[cut]"

func TestTruncateKeepsTextThatFitsWhole(t *testing.T) {
	for _, s := range []string{"short text", strings.Repeat("long text. ", 5000)} {
		for _, c := range []Counter{Estimate, ForModel("gpt-4o")} {
			if got := Truncate(c, s, c.Count(s), mark); got != s {
				t.Fatalf("%s: a text of exactly n tokens was cut to %d bytes", c.Name(), len(got))
			}
		}
	}
}

func TestTruncateNeverExceedsTheBudgetAndEndsWithTheMarker(t *testing.T) {
	inputs := []string{
		strings.Repeat("word ", 3000),
		strings.Repeat("a", 10000),
		strings.Repeat("吾輩は猫である。名前はまだ無い。", 300),
		strings.Repeat("line\n", 2000),
	}
	for _, c := range []Counter{Estimate, ForModel("gpt-4o")} {
		for _, s := range inputs {
			for _, n := range []int{20, 100, 1000} {
				got := Truncate(c, s, n, mark)
				if !strings.HasSuffix(got, mark) {
					t.Fatalf("%s n=%d: no marker: %q", c.Name(), n, got[max(0, len(got)-20):])
				}
				if k := c.Count(got); k > n {
					t.Fatalf("%s n=%d: counts %d tokens", c.Name(), n, k)
				}
				if !strings.HasPrefix(s, strings.TrimSuffix(got, mark)) {
					t.Fatalf("%s n=%d: the result is not a prefix", c.Name(), n)
				}
			}
		}
	}
}

// The pinned-note fault (issue 8, fault 5): a page of one long line with a
// header line before it was cut to the header alone, because the only cut
// considered was a line boundary.
func TestALongSingleLineIsCutAtASentenceNotDroppedToItsHeader(t *testing.T) {
	body := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 250) // ~11,000 chars, no newline
	s := "# Pinned note: fox\n\n" + body
	got := Truncate(Estimate, s, 1000, mark)
	kept := strings.TrimSuffix(got, mark)
	if len(kept) < 3000 {
		t.Fatalf("kept only %d bytes of a 1000-token budget: %q", len(kept), kept[:min(len(kept), 80)])
	}
	if !strings.HasSuffix(kept, "dog.") {
		t.Fatalf("not cut at a sentence end: …%q", kept[len(kept)-20:])
	}
}

func TestJapaneseIsCutAfterItsSentenceMark(t *testing.T) {
	s := strings.Repeat("吾輩は猫である。名前はまだ無い！どこで生れたかとんと見当がつかぬ？", 100)
	got := strings.TrimSuffix(Truncate(Estimate, s, 500, mark), mark)
	if got == "" {
		t.Fatal("nothing kept")
	}
	last := []rune(got)[len([]rune(got))-1]
	if !strings.ContainsRune("。！？", last) {
		t.Fatalf("Japanese text cut mid-sentence: …%q", string([]rune(got)[len([]rune(got))-10:]))
	}
}

func TestParagraphAndLineBoundariesAreUsedWhenTheyKeepEnough(t *testing.T) {
	para := strings.Repeat("Some sentence here. ", 10) // 200 bytes
	s := strings.Repeat(para+"\n\n", 50)
	got := strings.TrimSuffix(Truncate(Estimate, s, 600, mark), mark)
	if !strings.HasPrefix(s[len(strings.TrimRight(got, " ")):], " \n\n") {
		t.Fatalf("not cut at a paragraph end: …%q", got[len(got)-30:])
	}
	lines := strings.Repeat("a line of text\n", 500)
	got = strings.TrimSuffix(Truncate(Estimate, lines, 300, mark), mark)
	if !strings.HasSuffix(got, "a line of text") {
		t.Fatalf("not cut at a line end: …%q", got[len(got)-20:])
	}
}

func TestADotInsideAWordIsNoSentenceEnd(t *testing.T) {
	// Only "3.14159…" style dots: no sentence end, no space — cut by characters.
	s := strings.Repeat("3.14159", 500)
	got := strings.TrimSuffix(Truncate(Estimate, s, 100, mark), mark)
	if len(got) < 300 {
		t.Fatalf("kept %d bytes: a dot inside a number was taken for a sentence end", len(got))
	}
}

func TestTruncateReturnsEmptyWhenNothingFits(t *testing.T) {
	if got := Truncate(Estimate, strings.Repeat("x", 100), Estimate.Count(mark), mark); got != "" {
		t.Fatalf("Truncate = %q, want \"\" when only the marker fits", got)
	}
	if got := Truncate(Estimate, "abc", 0, mark); got != "" {
		t.Fatalf("Truncate with n=0 = %q", got)
	}
}

// BenchmarkTruncate cuts a 100,000-character mixed Japanese/English page
// (a large KB document or pinned note) to 2,000 tokens.
func BenchmarkTruncate(b *testing.B) {
	s := strings.Repeat("所有権（ownership）は Rust の中心的な機能です。The borrow checker enforces it.\n", 1500)[:100000]
	for _, c := range []Counter{Estimate, ForModel("gpt-4o")} {
		b.Run(c.Name(), func(b *testing.B) {
			c.Count("warm up")
			for b.Loop() {
				Truncate(c, s, 2000, mark)
			}
		})
	}
}
