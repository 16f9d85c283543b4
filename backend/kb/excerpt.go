package kb

import (
	"sort"
	"strings"

	"playchat/backend/jatext"
	"playchat/backend/kb/markdown"
)

// excerptRunes is the length of an excerpt, in runes, before marks.
const excerptRunes = 160

// Excerpt marks around a matched term.
const (
	MarkOpen  = "«"
	MarkClose = "»"
)

// plainText flattens Markdown for an excerpt: code fence lines, HTML tags
// and heading/emphasis markers go, whitespace runs become one space.
func plainText(md string) string {
	var b strings.Builder
	b.Grow(len(md))
	for line := range strings.SplitSeq(md, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") || strings.HasPrefix(t, ":::") {
			continue
		}
		t = strings.TrimLeft(t, "#>")
		inTag := false
		for _, r := range t {
			switch {
			case r == '<':
				inTag = true
			case r == '>' && inTag:
				inTag = false
			case inTag, r == '*', r == '`':
			default:
				b.WriteRune(r)
			}
		}
		b.WriteByte(' ')
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// dropOwnHeading removes a section's own heading line (its first line, when
// that is an ATX heading, or its first two when they are a setext heading): a hit shows the heading beside the excerpt, so
// keeping it would print it twice (所有権 所有権（ownership）は…).
func dropOwnHeading(md string) string {
	md = strings.TrimLeft(md, "\n")
	first, rest, _ := strings.Cut(md, "\n")
	if markdown.HeadingLevel(first) > 0 {
		return rest
	}
	// A setext heading: its text, then a line of = or -.
	under, after, _ := strings.Cut(rest, "\n")
	if u := strings.TrimSpace(under); strings.TrimSpace(first) != "" && u != "" &&
		(strings.Trim(u, "=") == "" || strings.Trim(u, "-") == "") {
		return after
	}
	return md
}

// span is a match of a term in a rune slice, [start, end).
type span struct{ start, end int }

// findSpans returns the non-overlapping matches of the terms' forms in text
// (compared after jatext.Normalize, so ﾜｶﾞﾊｲ matches ワガハイ), longest match
// first at each place, as spans of text's own runes.
func findSpans(text []rune, terms []jatext.Term) []span {
	norm, from, to := jatext.NormalizeAligned(text)
	var forms [][]rune
	for _, t := range terms {
		for _, f := range t.Forms {
			if f = jatext.Normalize(f); f != "" {
				forms = append(forms, []rune(f))
			}
		}
	}
	sort.Slice(forms, func(i, j int) bool { return len(forms[i]) > len(forms[j]) })
	var out []span
	for i := 0; i < len(norm); {
		matched := 0
		for _, f := range forms {
			if i+len(f) <= len(norm) && equalRunes(norm[i:i+len(f)], f) {
				matched = len(f)
				break
			}
		}
		if matched > 0 {
			sp := span{from[i], to[i+matched-1]}
			if n := len(out); n > 0 && out[n-1].end >= sp.start {
				out[n-1].end = max(out[n-1].end, sp.end) // adjacent terms (所有 + 権) read as one mark
			} else {
				out = append(out, sp)
			}
			i += matched
			continue
		}
		i++
	}
	return out
}

func equalRunes(a, b []rune) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// excerpt picks the window of about width runes of md's plain text holding
// the most distinct matched terms and marks every match «like this». With no
// match it returns the section's opening.
func excerpt(md string, terms []jatext.Term, width int) string {
	text := []rune(plainText(dropOwnHeading(md)))
	if len(text) == 0 {
		text = []rune(plainText(md))
	}
	if len(text) == 0 {
		return ""
	}
	spans := findSpans(text, terms)
	start := 0
	if len(spans) > 0 {
		best := -1
		for i, sp := range spans {
			st := max(0, sp.start-width/5)
			distinct := map[string]bool{}
			for _, o := range spans[i:] {
				if o.end > st+width {
					break
				}
				distinct[string(text[o.start:o.end])] = true
			}
			if len(distinct) > best {
				best, start = len(distinct), st
			}
		}
	}
	end := min(len(text), start+width)
	if end-start < width {
		start = max(0, end-width)
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	pos := start
	for _, sp := range spans {
		if sp.start < start || sp.end > end {
			continue
		}
		b.WriteString(string(text[pos:sp.start]))
		b.WriteString(MarkOpen)
		b.WriteString(string(text[sp.start:sp.end]))
		b.WriteString(MarkClose)
		pos = sp.end
	}
	b.WriteString(string(text[pos:end]))
	if end < len(text) {
		b.WriteString("…")
	}
	return b.String()
}
