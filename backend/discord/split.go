package discord

import (
	"strings"
	"unicode"
)

// MaxMessageRunes is the most code points (runes, not bytes) Discord
// accepts in the content of one message.
const MaxMessageRunes = 2000

// Split cuts text into messages of at most limit code points (runes, never
// bytes; limit < 1 means MaxMessageRunes). It cuts at a paragraph ("\n\n")
// boundary when possible, else at a line boundary, else after a sentence end
// (。！？ and ! ?, when no space comes later), else at a space, else
// hard — preferring the last such boundary in the second half of the room a
// part has, and never inside a rune (a hard cut also steps back over
// combining marks, variation selectors, skin-tone modifiers, zero-width
// joiners, "\r\n" and regional-indicator pairs when that is cheap). The
// whitespace at a cut and blank lines that start a part are dropped; a part
// keeps no trailing whitespace.
//
// A cut inside a fenced code block (``` or ~~~, up to three spaces of
// indentation, CommonMark rules) closes the fence ("\n```") at the end of
// the part and reopens it with its info string ("```go\n") at the start of
// the next, so every part renders as balanced markdown. A fence whose
// reopen+close lines would take more than a third of limit is not repaired.
// Every part is ≤ limit runes INCLUDING the added fence lines. Empty or
// all-whitespace text gives nil.
func Split(text string, limit int) []string {
	ps := split(text, limit)
	if len(ps) == 0 {
		return nil
	}
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.reopen + p.body + p.close
	}
	return out
}

// piece is one part of a Split: reopen ("```go\n" or "") + body (a
// trimmed slice of the original text) + close ("\n```" or "").
type piece struct {
	reopen, body, close string
}

// fence is an open fenced code block.
type fence struct {
	char rune   // '`' or '~'
	n    int    // length of the opening marker (≥ 3)
	open string // the opener line without indentation: marker + info string, e.g. "```go"
}

func (f *fence) closeLine() string { return strings.Repeat(string(f.char), f.n) }

// repairable says whether f is closed and reopened at a cut: its reopen
// line plus its close line fit three times in limit, so a part always has
// room left for text.
func repairable(f *fence, limit int) bool {
	if f == nil {
		return false
	}
	overhead := len([]rune(f.open)) + 1 + 1 + f.n
	return 3*overhead <= limit
}

// closeCost is how many runes closing f at a cut adds ("\n" + marker).
func closeCost(f *fence, limit int) int {
	if !repairable(f, limit) {
		return 0
	}
	return 1 + f.n
}

func split(text string, limit int) []piece {
	if limit < 1 {
		limit = MaxMessageRunes
	}
	rs := []rune(text)
	var out []piece
	var open *fence // the fence open where rs[pos:] starts
	pos := skipBlankLines(rs, 0)
	for pos < len(rs) {
		rest := rs[pos:]
		prefix := ""
		if repairable(open, limit) {
			prefix = open.open + "\n"
		}
		budget := limit - len([]rune(prefix))
		tail := trimRightSpace(rest)
		if len(tail) == 0 {
			break
		}
		if len(tail) <= budget {
			out = append(out, piece{reopen: prefix, body: string(tail)})
			break
		}
		c, next, st := cut(rest, budget, open, limit)
		if body := trimRightSpace(rest[:c]); len(body) > 0 {
			p := piece{reopen: prefix, body: string(body)}
			if repairable(st, limit) {
				p.close = "\n" + st.closeLine()
			}
			out = append(out, p)
		}
		open = st
		pos = skipBlankLines(rs, pos+next)
	}
	return out
}

// cut chooses where the part that starts at rest[0] ends: its body is
// rest[:c] (before trimming), the next part starts at rest[next:], and st is
// the fence open at c (nil when none). len(rest) > budget.
func cut(rest []rune, budget int, open *fence, limit int) (c, next int, st *fence) {
	w := min(len(rest), budget)
	states := make([]*fence, w+1)  // fence open after rest[:c]
	lineStart := make([]int, w+1)  // start of the line c is in
	fenceLine := make([]bool, w+1) // c is inside (not at the start of) a fence line
	cur := open
	for s := 0; s <= w; {
		e := s
		for e < len(rest) && rest[e] != '\n' {
			e++
		}
		nf, isFence := classify(rest[s:e], cur)
		for i := s; i < e && i <= w; i++ {
			states[i], lineStart[i], fenceLine[i] = cur, s, isFence && i > s
		}
		if e <= w {
			states[e], lineStart[e] = nf, s
		}
		cur = nf
		s = e + 1
	}
	fits := func(c int) bool { return c >= 1 && c+closeCost(states[c], limit) <= budget }
	// midOK: a cut inside a line must not cut a fence line, nor leave a
	// partial line that reads as one.
	midOK := func(c int) bool {
		s := lineStart[c]
		if c == s || rest[c] == '\n' {
			return true
		}
		if fenceLine[c] {
			return false
		}
		_, isFence := classify(rest[s:c], states[s])
		return !isFence
	}
	half := budget / 2
	var para, line, sentence, space int
	for i := 1; i <= w; i++ {
		if !fits(i) {
			continue
		}
		switch rest[i] {
		case '\n':
			line = i
			if blankLineFollows(rest, i+1) {
				para = i
			}
		case ' ', '\t':
			if midOK(i) {
				space = i
			}
		case '。', '．', '！', '？', '!', '?':
			// After a sentence end: Japanese runs on without spaces.
			if j := i + 1; j <= w && fits(j) && midOK(j) && !joins(rest, j) {
				sentence = j
			}
		}
	}
	switch {
	case para >= half && para > 0:
		return para, para + 1, states[para]
	case line >= half && line > 0:
		return line, line + 1, states[line]
	case sentence >= half && sentence > space:
		return sentence, sentence, states[sentence]
	case space >= half && space > 0:
		n := space
		for n < len(rest) && (rest[n] == ' ' || rest[n] == '\t') {
			n++
		}
		return space, n, states[space]
	}
	// Hard cut: the last fitting place that splits no cluster, within a
	// few runes; else the last fitting place.
	last := 0
	for i := w; i >= 1; i-- {
		if !fits(i) {
			continue
		}
		if last == 0 {
			last = i
		}
		if last-i > 32 {
			break
		}
		if midOK(i) && !joins(rest, i) {
			return i, i, states[i]
		}
	}
	if last == 0 {
		last = 1 // cannot happen: repairable leaves room for text
	}
	return last, last, states[last]
}

// classify reads one line (without its "\n") given the fence open before
// it: it returns the fence open after it and whether the line opens or
// closes a fence (CommonMark: up to 3 spaces of indentation, ≥ 3 backticks
// or tildes; a backtick opener's info string holds no backtick; a closer is
// the opener's character, at least as long, followed by spaces only).
func classify(line []rune, cur *fence) (*fence, bool) {
	i := 0
	for i < len(line) && i < 4 && line[i] == ' ' {
		i++
	}
	if i > 3 || i >= len(line) || (line[i] != '`' && line[i] != '~') {
		return cur, false
	}
	ch := line[i]
	n := 0
	for i+n < len(line) && line[i+n] == ch {
		n++
	}
	if n < 3 {
		return cur, false
	}
	after := strings.TrimSpace(string(line[i+n:]))
	if cur != nil {
		if ch == cur.char && n >= cur.n && after == "" {
			return nil, true
		}
		return cur, false
	}
	if ch == '`' && strings.ContainsRune(after, '`') {
		return cur, false
	}
	return &fence{char: ch, n: n, open: string(line[i:i+n]) + after}, true
}

// blankLineFollows says whether the line starting at rest[i] holds only
// whitespace and is followed by another line (so a "\n" before i ends a
// paragraph).
func blankLineFollows(rest []rune, i int) bool {
	for ; i < len(rest); i++ {
		switch rest[i] {
		case '\n':
			return true
		case ' ', '\t', '\r':
		default:
			return false
		}
	}
	return false
}

// skipBlankLines returns the start of the first line at or after pos that
// is not blank (len(rs) when all are), keeping that line's indentation.
func skipBlankLines(rs []rune, pos int) int {
	start := pos
	for i := pos; i < len(rs); i++ {
		switch rs[i] {
		case '\n':
			start = i + 1
		case ' ', '\t', '\r', '\f', '\v':
		default:
			return start
		}
	}
	return len(rs)
}

func trimRightSpace(rs []rune) []rune {
	n := len(rs)
	for n > 0 && unicode.IsSpace(rs[n-1]) {
		n--
	}
	return rs[:n]
}

// joins says whether cutting before rest[i] would split what reads as one
// character: a combining mark, variation selector, skin-tone modifier or
// zero-width joiner (before or after the cut), "\r\n", or a pair of
// regional indicators (a flag).
func joins(rest []rune, i int) bool {
	if i <= 0 || i >= len(rest) {
		return false
	}
	r, prev := rest[i], rest[i-1]
	switch {
	case prev == '\r' && r == '\n',
		prev == '\u200d', r == '\u200d',
		r >= '\ufe00' && r <= '\ufe0f',
		r >= 0xe0100 && r <= 0xe01ef,
		r >= 0x1f3fb && r <= 0x1f3ff,
		r >= 0xe0020 && r <= 0xe007f, // tag characters (subdivision flags)
		unicode.In(r, unicode.Mn, unicode.Me):
		return true
	}
	if isRegional(r) && isRegional(prev) {
		n := 0
		for j := i - 1; j >= 0 && isRegional(rest[j]); j-- {
			n++
		}
		return n%2 == 1
	}
	return false
}

func isRegional(r rune) bool { return r >= 0x1f1e6 && r <= 0x1f1ff }
