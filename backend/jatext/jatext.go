// Package jatext analyses Japanese (and mixed Latin) text for search: one
// normal form (NFKC, lower case) for whole strings, index terms from kagome's
// morphological analysis with the IPA dictionary, and the content words of
// a question. It is a leaf package with no storage: the knowledge base, chat
// history search and the word pool share it, and the dictionary is loaded
// once per process.
package jatext

import (
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/ikawaha/kagome-dict/dict"
	"github.com/ikawaha/kagome-dict/ipa"
	"github.com/ikawaha/kagome/v2/tokenizer"
	"golang.org/x/text/unicode/norm"
)

// The Japanese tokenizer: kagome v2 with the IPA dictionary. Loading it costs
// about 0.5–0.7 s and 90 MiB of heap (BUILDING.md pitfall 7), so it is loaded
// once per process, on the first text that needs it, never at start-up.
var (
	kagomeOnce sync.Once
	kagomeTk   *tokenizer.Tokenizer
	kagomeErr  error
	// kagomeBase holds the base form of every verb and adjective of the
	// dictionary, by morph id: the one feature indexing reads (書い → 書く).
	kagomeBase map[int]string
	// kagomeBaseSet holds every base form analyzeJa can give a morph: the
	// values of kagomeBase and those of the unknown-word entries that are
	// verbs or adjectives. MatchBaseSpans skips texts for words outside it.
	kagomeBaseSet map[string]bool
)

// Load loads the dictionary now (0.5–0.7 s on first use, then nothing), so
// a caller can take that cost off a user's path; Segment and QueryTerms load
// it themselves when needed. Its error is the dictionary's, kept for every
// later call.
func Load() error {
	_, err := tokenizerJa()
	return err
}

func tokenizerJa() (*tokenizer.Tokenizer, error) {
	kagomeOnce.Do(func() {
		// The full dictionary: terms are base forms (書い → 書く), which
		// live in the feature strings ipa.DictShrink leaves out.
		d := ipa.Dict()
		kagomeBase = baseForms(d)
		kagomeBaseSet = baseFormSet(d, kagomeBase)
		// The feature strings of all 390k entries (readings, conjugation
		// forms…) are about 55 MiB of heap that indexing never reads once
		// the base forms are copied out; this process is the dictionary's
		// only user (ipa.Dict is a per-process singleton).
		d.Contents = nil
		kagomeTk, kagomeErr = tokenizer.New(d, tokenizer.OmitBosEos())
		// Loading decompresses and decodes ~60 MiB that is garbage at
		// once: give it back to the OS instead of keeping it as headroom.
		debug.FreeOSMemory()
		if kagomeErr != nil {
			kagomeErr = fmt.Errorf("load the Japanese dictionary: %w", kagomeErr)
		}
	})
	return kagomeTk, kagomeErr
}

// baseForms copies the base form of every verb and adjective entry of d
// (IPA dictionary layout: the POS levels, then the contents row that holds
// dict.BaseFormIndex), cloned so the contents can be freed.
func baseForms(d *dict.Dict) map[int]string {
	out := make(map[int]string, 1<<15)
	meta, ok := d.ContentsMeta[dict.BaseFormIndex]
	if !ok {
		return out
	}
	for id, row := range d.Contents {
		if id >= len(d.POSTable.POSs) || len(d.POSTable.POSs[id]) == 0 {
			continue
		}
		pos := d.POSTable.POSs[id]
		if p0 := d.POSTable.NameList[pos[0]]; p0 != "動詞" && p0 != "形容詞" {
			continue
		}
		if i := int(meta) - len(pos); i >= 0 && i < len(row) {
			out[id] = strings.Clone(row[i])
		}
	}
	return out
}

// baseFormSet returns the set of base forms of known (the values of
// baseForms) and of d's unknown-word entries that are verbs or adjectives.
func baseFormSet(d *dict.Dict, known map[int]string) map[string]bool {
	out := make(map[string]bool, len(known)/2)
	for _, b := range known {
		out[b] = true
	}
	if i, ok := d.UnkDict.ContentsMeta[dict.BaseFormIndex]; ok {
		for _, row := range d.UnkDict.Contents {
			if len(row) > 0 && (row[0] == "動詞" || row[0] == "形容詞") && int(i) < len(row) {
				out[row[i]] = true
			}
		}
	}
	return out
}

// runKind classifies a rune for splitting text before tokenisation.
type runKind int

const (
	kindSep  runKind = iota // spaces, punctuation, symbols
	kindWord                // letters and digits of alphabetic scripts
	kindCJK                 // kanji, kana and the marks used inside Japanese words
)

// Normalize is the one form text takes before it is analysed, indexed,
// queried or compared: Unicode NFKC over the whole string, then lower case.
// NFKC folds every width and composition variant to one spelling — half-width
// katakana with its separate voiced mark (ﾜｶﾞﾊｲ), full-width ASCII (ＶＵＥ),
// a base letter plus a combining mark (カ+U+3099) and compatibility characters
// (①, ㍻) — so the index and a query always meet. It must be applied to whole
// strings (or to the segments NormalizeAligned cuts), never rune by rune: a
// voiced mark composes with the letter before it.
func Normalize(s string) string {
	return strings.ToLower(norm.NFKC.String(s))
}

// NormalizeAligned normalises text as Normalize does and reports, for
// every rune of the result, the runes of text it came from: [from[i], to[i]).
// It lets a match found in normalised text be marked in the original.
func NormalizeAligned(text []rune) (out []rune, from, to []int) {
	s := string(text)
	out = make([]rune, 0, len(text))
	from = make([]int, 0, len(text))
	to = make([]int, 0, len(text))
	ri := 0
	for i := 0; i < len(s); {
		n := norm.NFKC.NextBoundaryInString(s[i:], true)
		if n <= 0 {
			n = len(s) - i
		}
		seg := s[i : i+n]
		nr := utf8.RuneCountInString(seg)
		if n == 1 && seg[0] < utf8.RuneSelf {
			out = append(out, unicode.ToLower(rune(seg[0])))
			from, to = append(from, ri), append(to, ri+1)
		} else {
			for _, r := range Normalize(seg) {
				out = append(out, r)
				from, to = append(from, ri), append(to, ri+nr)
			}
		}
		ri += nr
		i += n
	}
	return out, from, to
}

func kindOf(r rune) runKind {
	switch {
	case r < utf8.RuneSelf:
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '_' {
			return kindWord
		}
		return kindSep
	case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || r == 'ー' || r == '々' || r == '〆' || r == 'ヶ':
		return kindCJK
	case unicode.IsLetter(r) || unicode.IsDigit(r):
		return kindWord
	}
	return kindSep
}

// runs calls fn for each maximal run of word or CJK runes in s, after
// Normalize, with the separator text that came before it ("" when the run
// directly follows another, e.g. at a change of script). A combining mark
// left uncomposed by NFKC (ア+U+3099) stays inside the run it follows.
func runs(s string, fn func(kind runKind, run, gap string) error) error {
	var b, gap strings.Builder
	cur := kindSep
	flush := func() error {
		if b.Len() == 0 {
			return nil
		}
		run, g := b.String(), gap.String()
		b.Reset()
		gap.Reset()
		return fn(cur, run, g)
	}
	for _, r := range Normalize(s) {
		k := kindOf(r)
		if cur != kindSep && unicode.Is(unicode.Mn, r) {
			k = cur
		}
		if k != cur {
			if err := flush(); err != nil {
				return err
			}
			cur = k
		}
		if k != kindSep {
			b.WriteRune(r)
		} else {
			gap.WriteRune(r)
		}
	}
	return flush()
}

// tightGap reports whether two runs separated by gap read as one word
// (v-if, index.md, Vueの).
func tightGap(gap string) bool {
	return gap == "" || gap == "-" || gap == "."
}

// morph is one token of kagome's analysis, reduced to what indexing needs.
type morph struct {
	surface, base, pos0, pos1 string
	// unknown is true for a word the dictionary does not hold (kagome's
	// unknown-word grouping: a run of one script).
	unknown bool
}

func analyzeJa(tk *tokenizer.Tokenizer, run string, fn func(m morph)) {
	for _, t := range tk.Analyze(run, tokenizer.Normal) {
		m := morph{surface: t.Surface, unknown: t.Class == tokenizer.UNKNOWN}
		m.pos0, _ = t.FeatureAt(0)
		m.pos1, _ = t.FeatureAt(1)
		if m.pos0 == "動詞" || m.pos0 == "形容詞" {
			b, ok := kagomeBase[t.ID]
			if t.Class != tokenizer.KNOWN {
				b, ok = t.BaseForm()
			}
			if ok && b != "*" {
				m.base = b
			}
		}
		fn(m)
	}
}

// indexable reports whether a morpheme goes into the index: particles,
// auxiliaries and symbols carry no topic and are never queried.
func (m morph) indexable() bool {
	switch m.pos0 {
	case "助詞", "助動詞", "記号", "フィラー":
		return false
	}
	return !m.junk()
}

// maxUnknownKanaRunes is the longest all-hiragana unknown word kept as a
// term. Real words the dictionary lacks are short (ぴえん); a longer
// hiragana run kagome could not split is a stretch of endings and
// interjections (うかあっはいはいはい), not a word anyone searches for.
const maxUnknownKanaRunes = 5

// junk reports whether an unknown word is a fragment, not a word: one that
// begins with a character no Japanese word begins with (a small kana, the
// long-vowel mark, a combining mark: ょうかあっはいはいはい, cut off from
// the syllable before it), or a long all-hiragana run. Neither is indexed nor
// queried. Unknown katakana, kanji and Latin words (names, new terms) stay.
func (m morph) junk() bool {
	if !m.unknown || m.surface == "" {
		return false
	}
	first, _ := utf8.DecodeRuneInString(m.surface)
	if strings.ContainsRune("ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶー", first) || unicode.Is(unicode.Mn, first) {
		return true
	}
	return isHiragana(m.surface) && utf8.RuneCountInString(m.surface) > maxUnknownKanaRunes
}

// key is the form a morpheme is indexed and queried under: the dictionary
// form of inflected words (書い → 書く), the surface otherwise.
func (m morph) key() string {
	if m.base != "" {
		return m.base
	}
	return m.surface
}

// Segment turns text into space-separated index terms (for an FTS5 table
// tokenised by unicode61), each followed by one space: alphabetic words
// lower-cased as they are, Japanese runs segmented by kagome into the
// dictionary forms of their content morphemes. Its only error is the
// dictionary's failing to load.
func Segment(text string) (string, error) {
	var b strings.Builder
	b.Grow(len(text))
	err := runs(text, func(kind runKind, run, _ string) error {
		if kind == kindWord {
			b.WriteString(run)
			b.WriteByte(' ')
			return nil
		}
		tk, err := tokenizerJa()
		if err != nil {
			return err
		}
		analyzeJa(tk, run, func(m morph) {
			if m.indexable() {
				b.WriteString(m.key())
				b.WriteByte(' ')
			}
		})
		return nil
	})
	return b.String(), err
}

// Term is one term of a query: Key as it is stored in the index, and
// the forms to look for in raw text (for excerpts and coverage).
type Term struct {
	// Key is the normalised form the index holds (the dictionary form of an
	// inflected word).
	Key string
	// Forms are the spellings to find in normalised text: Key and, for a
	// Japanese word, its surface in the question.
	Forms []string
	// Next is true when the term directly follows the previous one in the
	// query (a compound such as 所有 + 権), for phrase matching.
	Next bool
	// Verb is true for a Japanese verb or adjective (実行する, 難しい): it
	// says what is done or how, not what the question is about.
	Verb bool
}

// Words too general to say what a question is about. Their IDF is low anyway;
// dropping them keeps the lexical gate (coverage) from being diluted by them.
var stopJa = map[string]bool{
	"する": true, "ある": true, "いる": true, "なる": true, "できる": true, "れる": true, "られる": true,
	"教える": true, "知る": true, "思う": true, "言う": true, "いう": true, "くださる": true, "下さる": true,
	"わかる": true, "分かる": true, "いく": true, "くる": true, "みる": true, "おく": true, "しまう": true,
	"こと": true, "もの": true, "ため": true, "よう": true, "方": true, "時": true, "とき": true,
	"場合": true, "何": true, "なに": true, "方法": true, "意味": true, "ところ": true, "感じ": true,
	"ない": true, "いい": true, "よい": true, "良い": true, "どう": true, "それ": true, "これ": true,
}

// English words too general to say what a question is about: function
// words (articles, pronouns, auxiliaries, prepositions, conjunctions,
// question words), the pieces contractions leave (what's → what s, don't →
// don t) and the words of greetings and thanks, which the Japanese analysis
// drops as interjections (こんにちは, ありがとう). One joined to the word
// before it by a hyphen or a dot is part of a name (v-if, v-for) and stays.
var stopEn = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "to": true, "in": true, "on": true, "for": true,
	"is": true, "are": true, "be": true, "and": true, "or": true, "how": true, "what": true, "why": true,
	"do": true, "does": true, "i": true, "it": true, "with": true, "can": true, "use": true,
	"am": true, "was": true, "were": true, "been": true, "being": true, "has": true, "have": true, "had": true,
	"did": true, "will": true, "would": true, "shall": true, "should": true, "could": true, "may": true,
	"might": true, "must": true, "not": true, "no": true, "yes": true, "if": true, "then": true, "than": true,
	"so": true, "but": true, "at": true, "by": true, "from": true, "as": true, "about": true, "into": true,
	"all": true, "any": true, "some": true, "each": true, "which": true, "who": true, "whom": true,
	"whose": true, "when": true, "where": true, "there": true, "here": true, "this": true, "that": true,
	"these": true, "those": true, "my": true, "your": true, "our": true, "their": true, "his": true,
	"her": true, "its": true, "me": true, "you": true, "we": true, "they": true, "them": true, "him": true,
	"she": true, "he": true, "us": true, "s": true, "t": true, "m": true, "d": true, "ll": true, "re": true,
	"ve": true, "don": true, "doesn": true, "didn": true, "isn": true, "aren": true, "very": true,
	"just": true, "also": true, "too": true, "please": true, "thanks": true, "thank": true, "hello": true,
	"hi": true, "hey": true, "ok": true, "okay": true,
}

// QueryTerms extracts the content words of a question: nouns (not
// pronouns or dependent nouns), independent verbs and adjectives, unknown
// words and alphabetic words, in order, without repeats. Its only error is
// the dictionary's failing to load.
func QueryTerms(q string) ([]Term, error) {
	var out []Term
	seen := map[string]bool{}
	adjacent, prevWord := false, false
	add := func(key string, verb bool, forms ...string) {
		if key == "" || seen[key] {
			adjacent = false
			return
		}
		seen[key] = true
		out = append(out, Term{Key: key, Forms: uniq(append([]string{key}, forms...)), Next: adjacent, Verb: verb})
		adjacent = true
	}
	err := runs(q, func(kind runKind, run, gap string) error {
		adjacent = adjacent && tightGap(gap)
		if kind == kindWord {
			joined := prevWord && gap != "" && tightGap(gap)
			prevWord = true
			if (!stopEn[run] || joined) && !allDigits(run) {
				add(run, false)
			} else {
				adjacent = false
			}
			return nil
		}
		prevWord = false
		tk, err := tokenizerJa()
		if err != nil {
			return err
		}
		analyzeJa(tk, run, func(m morph) {
			if !m.content() || stopJa[m.key()] {
				adjacent = false
				return
			}
			add(m.key(), m.pos0 == "動詞" || m.pos0 == "形容詞", m.surface)
		})
		return nil
	})
	return out, err
}

// content reports whether a morpheme says what a question is about.
func (m morph) content() bool {
	if m.junk() {
		return false
	}
	switch m.pos0 {
	case "名詞":
		switch m.pos1 {
		case "非自立", "代名詞", "数", "副詞可能":
			return false
		case "接尾":
			return utf8.RuneCountInString(m.surface) > 1 || !isKana(m.surface)
		}
		return true
	case "動詞", "形容詞":
		return m.pos1 == "自立"
	case "未知語":
		return true
	}
	return m.pos0 == "" // unknown words without features
}

func isKana(s string) bool {
	for _, r := range s {
		if !unicode.In(r, unicode.Hiragana, unicode.Katakana) {
			return false
		}
	}
	return true
}

func uniq(ss []string) []string {
	out := ss[:0]
	seen := map[string]bool{}
	for _, s := range ss {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// TrigramTerms extracts the terms of a question for the trigram
// tokenizer, without a dictionary: every 3-rune window of each CJK run that
// is not all hiragana (those are particles and endings), and whole
// alphabetic words of 3 or more characters, hyphens and dots included
// (v-show, crates.io).
func TrigramTerms(q string) []Term {
	var out []Term
	seen := map[string]bool{}
	add := func(t string) {
		if !seen[t] {
			seen[t] = true
			out = append(out, Term{Key: t, Forms: []string{t}})
		}
	}
	norm := Normalize(q)
	for _, w := range strings.FieldsFunc(norm, func(r rune) bool {
		return !(kindOf(r) == kindWord || r == '-' || r == '.')
	}) {
		w = strings.Trim(w, "-.")
		if utf8.RuneCountInString(w) >= 3 && !stopEn[w] && !allDigits(w) {
			add(w)
		}
	}
	_ = runs(norm, func(kind runKind, run, _ string) error {
		if kind != kindCJK {
			return nil
		}
		rs := []rune(run)
		for i := 0; i+3 <= len(rs); i++ {
			if g := string(rs[i : i+3]); !isHiragana(g) {
				add(g)
			}
		}
		return nil
	})
	return out
}

func allDigits(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

func isHiragana(s string) bool {
	for _, r := range s {
		if !unicode.Is(unicode.Hiragana, r) {
			return false
		}
	}
	return true
}
