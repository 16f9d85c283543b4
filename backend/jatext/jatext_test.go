package jatext

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/width"

	"playchat/internal/testcorpus"
)

// halfWidth spells s the way old Japanese systems and some PDFs do:
// half-width katakana with the voiced marks as separate characters (ガ → ｶﾞ).
func halfWidth(s string) string { return width.Narrow.String(norm.NFD.String(s)) }

func TestQueryTermsKeepContentWords(t *testing.T) {
	for q, want := range map[string]string{
		"Rustの所有権とは何ですか？":           "rust 所有 権",
		"v-ifとv-showはどう使い分ければいいですか": "v if show 使い分ける",
		"明日の会議を15時にリマインドして":         "会議 リマインド", // 明日 is a time word (名詞,副詞可能), 15 a bare number
		"ＶＵＥのコンポーネント":               "vue コンポーネント",
		// English function words, contraction pieces and greetings go;
		// one joined to a name by a hyphen stays (v-if, v-for).
		"turn 12: my favourite number is 7": "turn favourite number",
		"what's your name?":                 "name",
		"hello! thanks for the help":        "help",
		"v-ifとv-forを一緒に使う":                  "v if for 一緒 使う",
	} {
		terms, err := QueryTerms(q)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, t := range terms {
			keys = append(keys, t.Key)
		}
		if got := strings.Join(keys, " "); got != want {
			t.Errorf("terms(%q) = %q, want %q", q, got, want)
		}
	}
}

func TestIndexTermsAreTheSameForEveryWidthAndComposition(t *testing.T) {
	for _, in := range []string{"ﾜｶﾞﾊｲは猫である。", "ワカ\u3099ハイは猫である。", "ワガハイは猫である。"} {
		got, err := Segment(in)
		if err != nil {
			t.Fatal(err)
		}
		if want := "ワガハイ 猫 "; got != want {
			t.Errorf("Segment(%q) = %q, want %q", in, got, want)
		}
	}
	for _, in := range []string{"ＶＵＥのコンポーネント", "vueのｺﾝﾎﾟｰﾈﾝﾄ", "Vueのコンポーネント"} {
		got, err := Segment(in)
		if err != nil {
			t.Fatal(err)
		}
		if want := "vue コンポーネント "; got != want {
			t.Errorf("Segment(%q) = %q, want %q", in, got, want)
		}
	}
}

// Every document of the corpus (a sample, to keep the test short) gets the
// same index terms and the same query terms in half-width katakana and in
// decomposed form (NFD) as in the form it was written in.
func TestCorpusIndexTermsDoNotDependOnWidthOrComposition(t *testing.T) {
	dir := corpusDir(t)
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".md" {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	step := max(1, len(files)/25)
	checked := 0
	for i := 0; i < len(files); i += step {
		raw, err := os.ReadFile(files[i])
		if err != nil {
			t.Fatal(err)
		}
		text := string(raw)
		want, err := Segment(text)
		if err != nil {
			t.Fatal(err)
		}
		for name, variant := range map[string]string{"half-width": halfWidth(text), "NFD": norm.NFD.String(text)} {
			if variant == text {
				continue
			}
			got, err := Segment(variant)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%s in %s: index terms differ from the original's\n got %.300q\nwant %.300q", files[i], name, got, want)
			}
		}
		checked++
	}
	if checked < 10 {
		t.Fatalf("checked %d corpus documents, want at least 10", checked)
	}
	q := "コンポーネントのプロパティをバリデーションするには？"
	want, _ := QueryTerms(q)
	got, _ := QueryTerms(halfWidth(q))
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("query terms of the half-width question %v, of the original %v", got, want)
	}
	for i := range want {
		if got[i].Key != want[i].Key {
			t.Errorf("query term %d = %q in half-width, %q in the original", i, got[i].Key, want[i].Key)
		}
	}
}

// A run of hiragana kagome cannot split (here cut off from the syllable
// before it) is not a word: it is neither indexed nor queried. Real unknown
// words — short hiragana slang, katakana names — still are.
func TestFragmentUnknownWordsAreNotTerms(t *testing.T) {
	for _, in := range []string{"ょうかあっはいはいはい", "うかあっはいはいはい", "ーっと"} {
		got, err := Segment(in)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(got, "ょうか") || strings.Contains(got, "はいはいはい") || strings.HasPrefix(got, "ー") {
			t.Errorf("Segment(%q) = %q: a fragment became an index term", in, got)
		}
		terms, err := QueryTerms(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, qt := range terms {
			if strings.Contains(qt.Key, "はいはい") || strings.HasPrefix(qt.Key, "ょ") || strings.HasPrefix(qt.Key, "ー") {
				t.Errorf("QueryTerms(%q) kept the fragment %q", in, qt.Key)
			}
		}
	}
	for in, want := range map[string]string{
		"ぴえんと言った":    "ぴえん",
		"ワガハイは猫である。": "ワガハイ",
		"ﾍﾟｺﾘｰﾇの話":   "ペコリーヌ",
	} {
		got, err := Segment(in)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(" "+got, " "+want+" ") {
			t.Errorf("Segment(%q) = %q, want the unknown word %q kept", in, got, want)
		}
	}
}

func TestNormalizeAlignedMapsBackToTheOriginalRunes(t *testing.T) {
	text := []rune("前ﾜｶﾞﾊｲ①Ａ")
	out, from, to := NormalizeAligned(text)
	if string(out) != "前ワガハイ1a" {
		t.Fatalf("normalised %q, want %q", string(out), "前ワガハイ1a")
	}
	// ガ came from ｶ + ﾞ (runes 2 and 3 of the original).
	if from[2] != 2 || to[2] != 4 {
		t.Errorf("ガ maps to runes [%d, %d), want [2, 4)", from[2], to[2])
	}
	if from[len(out)-1] != len(text)-1 || to[len(out)-1] != len(text) {
		t.Errorf("last rune maps to [%d, %d), want [%d, %d)", from[len(out)-1], to[len(out)-1], len(text)-1, len(text))
	}
}

// corpusDir is the real Japanese Markdown corpus (testcorpus.Dir).
func corpusDir(t testing.TB) string { return testcorpus.Dir(t) }

// Issue 22: a search for 書く found 書いた but did not mark it.
func TestMatchBaseSpansMarksInflectedForms(t *testing.T) {
	for _, tc := range []struct {
		text  string
		bases []string
		want  []string
	}{
		{"昨日は手紙を書いた。今日も書きます", []string{"書く"}, []string{"書いた", "書きます"}},
		{"とても美しかった景色", []string{"美しい"}, []string{"美しかった"}},
		{"書類を読む", []string{"書く"}, nil},
		{"ＡＢＣ 走った", []string{"走る"}, []string{"走った"}},
	} {
		text := []rune(tc.text)
		spans, err := MatchBaseSpans(text, tc.bases)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, sp := range spans {
			got = append(got, string(text[sp.Start:sp.End]))
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("MatchBaseSpans(%q, %v) = %q, want %q", tc.text, tc.bases, got, tc.want)
		}
	}
}

// A verb or adjective is marked (it says what is done, not what about); a
// noun, a サ変 noun (実行) and an alphabetic word are not.
func TestQueryTermsMarkVerbsAndAdjectives(t *testing.T) {
	terms, err := QueryTerms("テストを順番に実行して使い分けたいけど難しい Cargo")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, tm := range terms {
		got[tm.Key] = tm.Verb
	}
	want := map[string]bool{"テスト": false, "順番": false, "実行": false, "使い分ける": true, "難しい": true, "cargo": false}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("term %s: verb %v (present %v), want %v; all %v", k, g, ok, v, got)
		}
	}
}

// MatchBaseSpans skips a text when none of its words is in kagomeBaseSet:
// every base form the analysis gives a morpheme of real text (known words
// and unknown ones) must be in it, and a noun is not.
func TestEveryBaseFormOfTheAnalysisIsInTheBaseFormSet(t *testing.T) {
	dir := corpusDir(t)
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".md" {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	tk, err := tokenizerJa()
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"ググった。バズった。ぴえんだった。エモかった。書きまくった"}
	for i := 0; i < len(files); i += max(1, len(files)/25) {
		raw, err := os.ReadFile(files[i])
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(raw))
	}
	bases := 0
	for _, text := range texts {
		err := runs(text, func(kind runKind, run, _ string) error {
			if kind != kindCJK {
				return nil
			}
			analyzeJa(tk, run, func(m morph) {
				if m.base != "" {
					bases++
					if !kagomeBaseSet[m.base] {
						t.Errorf("base form %q (of %q) is not in the set", m.base, m.surface)
					}
				}
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if bases < 100 {
		t.Fatalf("only %d base forms in the texts", bases)
	}
	if kagomeBaseSet["猫"] || !kagomeBaseSet["書く"] {
		t.Fatalf("猫 in the set %v, 書く %v; want false, true", kagomeBaseSet["猫"], kagomeBaseSet["書く"])
	}
	if spans, err := MatchBaseSpans([]rune("猫が鳴いた"), []string{"猫"}); err != nil || spans != nil {
		t.Fatalf("MatchBaseSpans for a noun = %v, %v", spans, err)
	}
}
