package session

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The one-message limit (MaxMessageBytes) for other apps' exports: a
// ChatGPT or Claude conversations.json is a whole account's history that
// nobody edits by hand, so one over-long message does not refuse the whole
// file. It is cut at the limit with a visible marker instead (like the
// placeholders that stand in for images), and the import report counts it
// (Batch.Truncated). A playchat session file is refused instead (Validate).

// cutMarkerFormat ends a message cut at the limit: what it was and why.
const cutMarkerFormat = "\n\n[message cut: it was %.1f MiB; playchat keeps at most %d MiB of one message]"

// cutSlack is room kept for the line that closes a code fence left open
// by the cut.
const cutSlack = 64

// CapMessage returns text unchanged when it fits in MaxMessageBytes, and
// otherwise its beginning, cut at a line break near the limit where one is
// close (else at a character boundary), a code fence left open closed again,
// and the marker "[message cut: it was 3.4 MiB; …]"; cut reports which. The
// result is valid UTF-8 when text is, and never longer than MaxMessageBytes.
func CapMessage(text string) (capped string, cut bool) {
	if len(text) <= MaxMessageBytes {
		return text, false
	}
	marker := fmt.Sprintf(cutMarkerFormat, float64(len(text))/(1<<20), MaxMessageBytes>>20)
	room := MaxMessageBytes - len(marker) - cutSlack
	end := room
	for end > 0 && !utf8.RuneStart(text[end]) {
		end--
	}
	// A line break in the last 4 KiB keeps the last line whole.
	if nl := strings.LastIndexByte(text[:end], '\n'); nl >= 0 && end-nl < 4096 {
		end = nl
	}
	kept := strings.TrimRight(text[:end], " \t\r\n")
	if closer := openFenceCloser(kept); closer != "" && len(closer) < cutSlack {
		kept += "\n" + closer
	}
	return kept + marker, true
}

// openFenceCloser returns the line that closes the fenced code block (```
// or ~~~, CommonMark rules, up to three spaces of indentation) still open at
// the end of text, or "" when none is.
func openFenceCloser(text string) string {
	var char byte
	n := 0 // length of the open fence's marker; 0: none open
	for line := range strings.SplitSeq(text, "\n") {
		t := strings.TrimLeft(line, " ")
		if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
			continue
		}
		c := t[0]
		k := 0
		for k < len(t) && t[k] == c {
			k++
		}
		if k < 3 {
			continue
		}
		switch {
		case n == 0:
			if c == '`' && strings.Contains(t[k:], "`") {
				continue // not a fence: an info string may not hold a backtick
			}
			char, n = c, k
		case c == char && k >= n && strings.TrimSpace(t[k:]) == "":
			n = 0
		}
	}
	if n == 0 {
		return ""
	}
	return strings.Repeat(string(char), n)
}
