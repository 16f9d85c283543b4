package discord

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func runes(s string) int { return utf8.RuneCountInString(s) }

// balanced says whether every fence a part opens is closed in that part.
func balanced(part string) bool {
	var cur *fence
	for _, l := range strings.Split(part, "\n") {
		cur, _ = classify([]rune(l), cur)
	}
	return cur == nil
}

func TestSplitCountsCodePointsNotBytes(t *testing.T) {
	parts := Split(strings.Repeat("あ", 2500), MaxMessageRunes)
	if len(parts) != 2 || runes(parts[0]) != 2000 || runes(parts[1]) != 500 {
		t.Fatalf("2,500 あ → %d parts of %v runes, want 2000 + 500", len(parts), lens(parts))
	}
	if parts[0]+parts[1] != strings.Repeat("あ", 2500) {
		t.Fatal("the parts do not join back to the text")
	}
}

func TestSplitEmojiAtTheLimit(t *testing.T) {
	one := strings.Repeat("a", 1999) + "😀"
	if got := Split(one, MaxMessageRunes); len(got) != 1 || got[0] != one {
		t.Fatalf("a×1999+😀 (2000 runes, %d bytes) → %d parts, want 1", len(one), len(got))
	}
	two := strings.Repeat("a", 2000) + "😀"
	got := Split(two, MaxMessageRunes)
	if len(got) != 2 || got[0] != strings.Repeat("a", 2000) || got[1] != "😀" {
		t.Fatalf("a×2000+😀 → %d parts %v, want a×2000 and 😀", len(got), lens(got))
	}
	for _, p := range got {
		if !utf8.ValidString(p) {
			t.Fatalf("part %q is not valid UTF-8", p)
		}
	}
}

func TestSplitEmptyGivesNil(t *testing.T) {
	for _, s := range []string{"", " ", "\n\n  \t\n"} {
		if got := Split(s, MaxMessageRunes); got != nil {
			t.Errorf("Split(%q) = %q, want nil", s, got)
		}
	}
	if got := Split("hi", 0); len(got) != 1 || got[0] != "hi" {
		t.Errorf("limit 0 (= MaxMessageRunes): got %q", got)
	}
}

func TestSplitPrefersParagraphThenLineThenSpace(t *testing.T) {
	words := func(n int) string { return strings.TrimSpace(strings.Repeat("word ", n)) }
	// Paragraph at ~1200 runes, lines and spaces after it up to the limit.
	p1 := words(120) + "\n" + words(120)
	p2 := words(100) + "\n" + words(100)
	parts := Split(p1+"\n\n"+p2, MaxMessageRunes)
	if len(parts) != 2 || parts[0] != p1 || parts[1] != p2 {
		t.Fatalf("paragraph cut: got %v runes, want %d + %d", lens(parts), runes(p1), runes(p2))
	}
	// No paragraph: the last line boundary wins over later spaces.
	l1, l2 := words(300), words(200)
	parts = Split(l1+"\n"+l2, MaxMessageRunes)
	if len(parts) != 2 || parts[0] != l1 || parts[1] != l2 {
		t.Fatalf("line cut: got %v runes, want %d + %d", lens(parts), runes(l1), runes(l2))
	}
	// One long line: cut at a space, never inside a word.
	parts = Split(words(500), MaxMessageRunes)
	if len(parts) != 2 || runes(parts[0]) > 2000 {
		t.Fatalf("space cut: got %v runes", lens(parts))
	}
	for _, p := range parts {
		if p != strings.TrimSpace(p) || strings.Contains(" "+p+" ", " wor ") || strings.HasPrefix(p, "ord") {
			t.Fatalf("space cut split a word or kept the space: %q…", p[:20])
		}
	}
	// A paragraph break early in the room does not make a tiny part.
	parts = Split("short\n\n"+words(500), MaxMessageRunes)
	if runes(parts[0]) < 1000 {
		t.Fatalf("an early paragraph break gave a first part of %d runes", runes(parts[0]))
	}
}

func TestSplitLongFencedBlockReopensLanguage(t *testing.T) {
	var b strings.Builder
	b.WriteString("Here is the code:\n\n```go\n")
	for i := range 300 {
		fmt.Fprintf(&b, "\tfmt.Println(\"line %03d of the generated example\")\n", i)
	}
	b.WriteString("```\n\nThat is all.")
	text := b.String()
	parts := Split(text, MaxMessageRunes)
	if len(parts) < 5 {
		t.Fatalf("a %d-rune block gave %d parts", runes(text), len(parts))
	}
	for i, p := range parts {
		if runes(p) > MaxMessageRunes {
			t.Errorf("part %d has %d runes", i, runes(p))
		}
		if !balanced(p) {
			t.Errorf("part %d has unbalanced fences:\n%s", i, p)
		}
		if i > 0 && !strings.HasPrefix(p, "```go\n\tfmt.Println") {
			t.Errorf("part %d does not reopen the go fence: %.40q", i, p)
		}
		if i < len(parts)-1 && !strings.HasSuffix(p, "\")\n```") {
			t.Errorf("part %d does not end with a whole line and a closing fence: …%q", i, p[len(p)-30:])
		}
	}
	if !strings.HasSuffix(parts[len(parts)-1], "```\n\nThat is all.") {
		t.Errorf("the last part lost the text after the block")
	}
	// Every code line is in exactly one part.
	joined := strings.Join(parts, "\n")
	for i := range 300 {
		if n := strings.Count(joined, fmt.Sprintf("line %03d ", i)); n != 1 {
			t.Fatalf("code line %d appears %d times", i, n)
		}
	}
}

func TestSplitTildeFenceAndLongerMarker(t *testing.T) {
	body := strings.Repeat("x = 1\n", 40)
	for _, open := range []string{"~~~python", "````js"} {
		closeLine := strings.Repeat(open[:1], strings.LastIndexByte(open, open[0])+1)
		parts := Split(open+"\n"+body+closeLine, 100)
		if len(parts) < 2 {
			t.Fatalf("%s: %d parts", open, len(parts))
		}
		for i, p := range parts {
			if runes(p) > 100 || !balanced(p) {
				t.Errorf("%s part %d (%d runes) unbalanced or too long:\n%s", open, i, runes(p), p)
			}
			if i > 0 && !strings.HasPrefix(p, open+"\n") {
				t.Errorf("%s part %d does not reopen with %q", open, i, open)
			}
		}
	}
}

func TestSplitHardCutKeepsEmojiSequences(t *testing.T) {
	family := "👨\u200d👩\u200d👧" // 5 runes
	text := strings.Repeat("a", 1997) + family
	parts := Split(text, MaxMessageRunes)
	if len(parts) != 2 || parts[0] != strings.Repeat("a", 1997) || parts[1] != family {
		t.Fatalf("ZWJ sequence split: %v runes", lens(parts))
	}
	flags := strings.Repeat("b", 1999) + "🇯🇵"
	parts = Split(flags, MaxMessageRunes)
	if len(parts) != 2 || parts[1] != "🇯🇵" {
		t.Fatalf("flag split: %v runes", lens(parts))
	}
	heart := strings.Repeat("c", 1999) + "❤\ufe0f"
	parts = Split(heart, MaxMessageRunes)
	if len(parts) != 2 || parts[1] != "❤\ufe0f" {
		t.Fatalf("variation selector split from its emoji: %v runes", lens(parts))
	}
}

// TestSplitProperties checks, over many random texts (fixed seed), that
// every part is ≤ limit runes and valid UTF-8, that fences are balanced in
// every part, that added fences come in close/reopen pairs, and that the
// parts without the added fences are the text in order, only the
// whitespace at the cuts left out.
func TestSplitProperties(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	wordsPool := []string{"a", "the", "playchat", "あいうえお", "天気", "😀", "👍🏽", "x", "supercalifragilistic", strings.Repeat("z", 70), "@everyone", "e\u0301"}
	gen := func() string {
		var b strings.Builder
		for range rng.Intn(60) {
			switch k := rng.Intn(10); {
			case k < 6: // a line of words
				for w := range 1 + rng.Intn(25) {
					if w > 0 {
						b.WriteString([]string{" ", " ", "  ", "\t"}[rng.Intn(4)])
					}
					b.WriteString(wordsPool[rng.Intn(len(wordsPool))])
				}
				b.WriteString("\n")
			case k < 8:
				b.WriteString([]string{"\n", "\n\n", " \n", "\r\n"}[rng.Intn(4)])
			default: // a fenced block
				open := []string{"```go", "```", "~~~", "````js", "  ```py"}[rng.Intn(5)]
				b.WriteString(open + "\n")
				for range rng.Intn(40) {
					b.WriteString(strings.Repeat(" ", rng.Intn(6)) + wordsPool[rng.Intn(len(wordsPool))] + " := " + wordsPool[rng.Intn(len(wordsPool))] + "\n")
				}
				m := strings.TrimLeft(open, " ")
				b.WriteString(strings.Repeat(m[:1], strings.LastIndexByte(m, m[0])+1) + "\n")
			}
		}
		return b.String()
	}
	for iter := range 600 {
		text := gen()
		limit := 50 + rng.Intn(350)
		ps := split(text, limit)
		got := Split(text, limit)
		if strings.TrimSpace(text) == "" {
			if got != nil {
				t.Fatalf("iter %d: blank text gave %d parts", iter, len(got))
			}
			continue
		}
		if len(got) != len(ps) {
			t.Fatalf("iter %d: Split and split disagree", iter)
		}
		at := 0
		for i, p := range ps {
			whole := got[i]
			if whole != p.reopen+p.body+p.close {
				t.Fatalf("iter %d part %d: Split is not reopen+body+close", iter, i)
			}
			if n := runes(whole); n > limit {
				t.Fatalf("iter %d part %d: %d runes > limit %d", iter, i, n, limit)
			}
			if !utf8.ValidString(whole) || whole == "" {
				t.Fatalf("iter %d part %d: invalid or empty", iter, i)
			}
			if !balanced(whole) {
				t.Fatalf("iter %d part %d (limit %d): unbalanced fences:\n%s", iter, i, limit, whole)
			}
			if (i > 0 && ps[i-1].close != "") != (p.reopen != "") {
				t.Fatalf("iter %d part %d: a close is not followed by a reopen (or the reverse)", iter, i)
			}
			j := strings.Index(text[at:], p.body)
			if j < 0 {
				t.Fatalf("iter %d part %d: body is not in the text after the previous part", iter, i)
			}
			if gap := text[at : at+j]; strings.TrimFunc(gap, unicode.IsSpace) != "" {
				t.Fatalf("iter %d part %d: text left out between parts: %q", iter, i, gap)
			}
			at += j + len(p.body)
		}
		if strings.TrimFunc(text[at:], unicode.IsSpace) != "" {
			t.Fatalf("iter %d: text after the last part left out: %q", iter, text[at:])
		}
	}
}

// TestSplitTinyLimitsStillFit checks that limits too small for fence
// repair still give parts of at most limit runes and lose no text.
func TestSplitTinyLimitsStillFit(t *testing.T) {
	text := "```go\nfunc main() {}\n```\n\n👨\u200d👩\u200d👧 あいう e\u0301 🇯🇵\n" + strings.Repeat("x", 40)
	for limit := 1; limit <= 40; limit++ {
		parts := split(text, limit)
		var bodies strings.Builder
		for i, p := range parts {
			if n := runes(p.reopen + p.body + p.close); n > limit || n == 0 {
				t.Fatalf("limit %d part %d has %d runes", limit, i, n)
			}
			bodies.WriteString(p.body)
		}
		strip := func(s string) string { return strings.Join(strings.Fields(s), "") }
		if strip(bodies.String()) != strip(text) {
			t.Fatalf("limit %d: the parts do not hold the text", limit)
		}
	}
}

func lens(parts []string) []int {
	out := make([]int, len(parts))
	for i, p := range parts {
		out[i] = runes(p)
	}
	return out
}

// Japanese runs on without spaces: a long paragraph is cut after a
// sentence end (。), not in the middle of a word.
func TestSplitCutsJapaneseAfterASentenceEnd(t *testing.T) {
	sentence := "日本語の文章はスペースなしで続きます。"     // 19 runes
	text := strings.Repeat(sentence, 150) // 2,850 runes, no space or newline
	parts := Split(text, MaxMessageRunes)
	if len(parts) != 2 {
		t.Fatalf("%d parts, want 2", len(parts))
	}
	if !strings.HasSuffix(parts[0], "。") || !strings.HasPrefix(parts[1], "日本語") {
		t.Fatalf("cut mid-sentence: …%q | %q…", string([]rune(parts[0])[len([]rune(parts[0]))-5:]), string([]rune(parts[1])[:5]))
	}
	if n := utf8.RuneCountInString(parts[0]); n > MaxMessageRunes || n < MaxMessageRunes-len([]rune(sentence)) {
		t.Fatalf("first part has %d runes", n)
	}
	if parts[0]+parts[1] != text {
		t.Fatal("the parts do not join back into the text")
	}
}
