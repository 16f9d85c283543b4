package tokens

import (
	"strings"
	"unicode/utf8"
)

// Truncate returns s whole when it counts at most n tokens with c;
// otherwise the longest prefix of s that, with marker appended, counts at
// most n tokens, cut at the best boundary available, followed by marker.
// It returns "" when not even one character fits (n ≤ 0, or the marker
// alone uses the room).
//
// The boundaries, best first: the end of a paragraph (a blank line), the
// end of a line, the end of a sentence (". ", "! ", "? " and the Japanese
// "。", "！", "？", "．"), the end of a word (a space), then any character.
// A boundary is used only when the prefix up to it keeps at least
// MinKeepRatio of what would fit when cutting at any character; so a
// single long line (a pasted page without a newline, a note of one
// paragraph) is cut at a sentence rather than lost, and a long paragraph
// is never dropped for the sake of a clean paragraph break. White space
// before the cut is trimmed.
//
// The cut is found by binary search over character positions, counting at
// most about log2(len(s)) prefixes. Every cutter in the app (the context
// builder's layer cut, the local knowledge base's section cut, the memory
// summariser's message cut) uses this one helper.
func Truncate(c Counter, s string, n int, marker string) string {
	if n <= 0 {
		return ""
	}
	// No token is shorter than a byte, so a text of at most n bytes fits;
	// a short text is simply counted.
	if len(s) <= n || (len(s) <= shortText && c.Count(s) <= n) {
		return s
	}
	limit := n - c.Count(marker)
	// A real tokenizer may count a prefix and the marker together as a
	// token more than apart: then the room is shrunk by the excess and the
	// cut made again (at most a few times).
	for try := 0; try < 4 && limit > 0; try++ {
		end := fitPrefix(c, s, limit)
		if end == len(s) {
			return s
		}
		// The whole text may still fit n (it needs the marker's room only
		// when cut). It is counted only when short or not much longer than
		// what fits limit, so a long page is never counted whole.
		if try == 0 && len(s) > shortText && len(s) <= 2*end && c.Count(s) <= n {
			return s
		}
		if end == 0 {
			return ""
		}
		text := strings.TrimRight(s[:bestBoundary(s, end)], " \t\r\n\u3000")
		if text == "" {
			return ""
		}
		out := text + marker
		over := c.Count(out) - n
		if over <= 0 {
			return out
		}
		limit -= over
	}
	return ""
}

// shortText is the size, in bytes, up to which Truncate counts a text whole
// to learn whether it fits.
const shortText = 4096

// MinKeepRatio is the least share (of the bytes that would fit cutting at
// any character) that a cut at a paragraph, line, sentence or word
// boundary must keep to be chosen over a finer boundary: 2/3.
const MinKeepRatio = 2.0 / 3

// fitPrefix returns the largest byte offset, on a rune boundary, whose
// prefix of s counts at most limit tokens (0 when none does). It gallops
// from about 4 bytes a token, doubling, then bisects: counting costs what
// the prefixes cost, not the whole of s (a real tokenizer is slow on a
// 100,000-character page).
func fitPrefix(c Counter, s string, limit int) int {
	snap := func(i int) int {
		for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
			i--
		}
		return i
	}
	lo, hi := 0, snap(min(len(s), max(4*limit, 16))) // the prefix lo fits
	for c.Count(s[:hi]) <= limit {
		if hi == len(s) {
			return hi
		}
		lo, hi = hi, snap(min(len(s), 2*hi))
	}
	// The prefix hi does not fit. Bisect until the gap is a rune, or under
	// 1/256 of what fits when that is over 64 bytes (a cut at a boundary
	// drops more than that anyway; it halves the counts on a long page).
	for hi-lo > max(1, min(lo/256, 64)) {
		mid := snap((lo + hi) / 2)
		if mid <= lo {
			_, size := utf8.DecodeRuneInString(s[lo:])
			if mid = lo + size; mid >= hi {
				break
			}
		}
		if c.Count(s[:mid]) <= limit {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// sentenceEnds are the marks after which a sentence ends. The ASCII ones
// count only when followed by white space (so "3.14" and "e.g." inside a
// word are not cut); the full-width ones always do.
var (
	asciiSentenceEnds = ".!?"
	wideSentenceEnds  = "。！？．"
)

// bestBoundary returns the byte offset to cut full at, at most end (the
// longest prefix that fits), following Truncate's order of boundaries.
func bestBoundary(full string, end int) int {
	s := full[:end]
	floor := int(float64(len(s)) * MinKeepRatio)
	ok := func(i int) bool { return i > 0 && i >= floor }
	// Paragraph: cut before the blank line.
	if i := strings.LastIndex(s, "\n\n"); ok(i) {
		return i
	}
	// Line.
	if i := strings.LastIndexByte(s, '\n'); ok(i) {
		return i
	}
	// Sentence: keep the mark.
	if i := lastSentenceEnd(full, end); ok(i) {
		return i
	}
	// Word.
	if i := strings.LastIndexAny(s, " \t\u3000"); ok(i) {
		return i
	}
	return len(s)
}

// lastSentenceEnd returns the offset (≤ end) just after the last sentence
// mark in full[:end] that ends a sentence, or -1.
func lastSentenceEnd(full string, end int) int {
	s := full[:end]
	for i := len(s); i > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
		switch {
		case strings.ContainsRune(wideSentenceEnds, r):
			return i + size
		case r < utf8.RuneSelf && strings.ContainsRune(asciiSentenceEnds, r):
			next := i + size
			if next == len(full) || full[next] == ' ' || full[next] == '\n' || full[next] == '\t' {
				return next
			}
		}
	}
	return -1
}
