package jatext

import (
	"errors"
	"sort"
)

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

// maxBaseMatchRunes bounds the text MatchBaseSpans analyses: a longer text
// is searched in its first maxBaseMatchRunes runes only (kagome reads about
// a megabyte a second; an excerpt needs the first match).
const maxBaseMatchRunes = 20000

// MatchBaseSpans returns the spans of text's Japanese words whose
// dictionary form is one of bases — the inflected forms MatchSpans cannot
// see (書いた for 書く, 美しかった for 美しい) — each with the auxiliaries that
// follow it (書いた, 書きます), as spans of text's own runes, in order. Only
// the first maxBaseMatchRunes runes are read. Its only error is the
// dictionary's.
func MatchBaseSpans(text []rune, bases []string) ([]Span, error) {
	want := map[string]bool{}
	for _, b := range bases {
		if b = Normalize(b); b != "" {
			want[b] = true
		}
	}
	if len(want) == 0 || len(text) == 0 {
		return nil, nil
	}
	if len(text) > maxBaseMatchRunes {
		text = text[:maxBaseMatchRunes]
	}
	norm, from, to := NormalizeAligned(text)
	var out []Span
	pos := 0 // rune offset in norm of the run being analysed
	checked := false
	err := runs(string(norm), func(kind runKind, run, gap string) error {
		pos += len([]rune(gap))
		start := pos
		pos += len([]rune(run))
		if kind == kindWord {
			return nil
		}
		tk, err := tokenizerJa()
		if err != nil {
			return err
		}
		if !checked {
			// Only a verb's or adjective's base form can match: for other
			// words (nouns, the usual query) there is nothing to analyse.
			checked = true
			for b := range want {
				if !kagomeBaseSet[b] {
					delete(want, b)
				}
			}
			if len(want) == 0 {
				return errNoBaseForm
			}
		}
		at := start
		extend := false
		analyzeJa(tk, run, func(m morph) {
			n := len([]rune(m.surface))
			switch {
			case m.base != "" && want[m.base]:
				out = append(out, Span{from[at], to[at+n-1]})
				extend = true
			case extend && m.pos0 == "助動詞":
				out[len(out)-1].End = to[at+n-1]
			default:
				extend = false
			}
			at += n
		})
		return nil
	})
	if errors.Is(err, errNoBaseForm) {
		return nil, nil
	}
	return out, err
}

// errNoBaseForm stops MatchBaseSpans when none of its words is a base form.
var errNoBaseForm = errors.New("no base form to look for")
