package jatext

import "unicode/utf8"

// Nouns returns the nouns of text in order, repeats included, for the
// word pool (backend/tagging): Japanese nouns by kagome (common and proper
// nouns, サ変 stems, unknown words; not pronouns, numbers, dependent or
// adverbial nouns, not one-kana words nor the stop words of QueryTerms)
// and Latin words of at least two letters that are not English stop words
// or digits, each in Normalize's form. Its only error is the dictionary's
// failing to load.
func Nouns(text string) ([]string, error) {
	var out []string
	err := runs(text, func(kind runKind, run, _ string) error {
		if kind == kindWord {
			if len(run) >= 2 && !stopEn[run] && !allDigits(run) {
				out = append(out, run)
			}
			return nil
		}
		tk, err := tokenizerJa()
		if err != nil {
			return err
		}
		analyzeJa(tk, run, func(m morph) {
			if m.pos0 != "名詞" && !(m.unknown && m.pos0 == "") || !m.content() || stopJa[m.key()] {
				return
			}
			if utf8.RuneCountInString(m.surface) < 2 && isKana(m.surface) {
				return
			}
			out = append(out, m.surface)
		})
		return nil
	})
	return out, err
}
