package jatext

import "sort"

// Span is a match in a rune slice: runes [Start, End) of the text searched.
type Span struct{ Start, End int }

// MatchSpans returns the non-overlapping matches of the forms in text,
// compared after Normalize (so ﾜｶﾞﾊｲ in text matches the form ワガハイ), as
// spans of text's own runes, in order. The longest form wins at each place,
// and matches that touch (所有 + 権) merge into one span. Empty forms are
// ignored.
func MatchSpans(text []rune, forms []string) []Span {
	norm, from, to := NormalizeAligned(text)
	var fs [][]rune
	seen := map[string]bool{}
	for _, f := range forms {
		if f = Normalize(f); f != "" && !seen[f] {
			seen[f] = true
			fs = append(fs, []rune(f))
		}
	}
	sort.Slice(fs, func(i, j int) bool { return len(fs[i]) > len(fs[j]) })
	var out []Span
	for i := 0; i < len(norm); {
		matched := 0
		for _, f := range fs {
			if i+len(f) <= len(norm) && runesEqual(norm[i:i+len(f)], f) {
				matched = len(f)
				break
			}
		}
		if matched == 0 {
			i++
			continue
		}
		sp := Span{from[i], to[i+matched-1]}
		if n := len(out); n > 0 && out[n-1].End >= sp.Start {
			out[n-1].End = max(out[n-1].End, sp.End)
		} else {
			out = append(out, sp)
		}
		i += matched
	}
	return out
}

func runesEqual(a, b []rune) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
