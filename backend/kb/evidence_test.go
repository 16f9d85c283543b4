package kb

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

func TestZonesSeparateProseFromCode(t *testing.T) {
	md := "## `v-if` vs. `v-show` {#v-if-vs-v-show}\n\n" +
		"`v-if` は切り替えコストが高い。詳しくは [条件付きレンダリング](https://vuejs.org/guide/conditional) を参照。\n\n" +
		"<span class=\"composition-api\">`onMounted`</span> フック\n\n" +
		"```js\nconst number = ref(0)\nreturn number\n```\n\n" +
		"::: tip\n最後の段落 https://example.com/x\n:::\n"
	prose, code := zones(md, true)
	for _, want := range []string{"v-if", "v-show", "切り替えコスト", "条件付きレンダリング", "フック", "最後の段落"} {
		if !strings.Contains(prose, want) {
			t.Errorf("prose lacks %q:\n%s", want, prose)
		}
	}
	for _, not := range []string{"number", "return", "vuejs.org", "example.com", "{#", "span", "tip", "onmounted"} {
		if strings.Contains(prose, not) {
			t.Errorf("prose holds %q:\n%s", not, prose)
		}
	}
	for _, want := range []string{"number", "return", "onmounted", "v-if"} {
		if !strings.Contains(code, want) {
			t.Errorf("code lacks %q:\n%s", want, code)
		}
	}
	if _, code := zones(md, false); code != "" {
		t.Errorf("code without wantCode = %q", code)
	}
}

func TestLatinTermsMatchWholeWordsAndTheirInflections(t *testing.T) {
	for _, c := range []struct {
		text, word string
		want       bool
	}{
		{"call return early", "turn", false},
		{"take your turn", "turn", true},
		{"the mycomponent file", "my", false},
		{"caching results", "cache", true},
		{"results are cached", "caches", true},
		{"the cache is full", "cached", true},
		{"v-if と v-show", "if", true},
		{"props の受け渡し", "props", true},
		{"timeout", "time", false},
		{"he refuses", "uses", false},
	} {
		q := queryTerm{latin: true, forms: inflect(c.word)}
		if got := q.in(c.text); got != c.want {
			t.Errorf("%q in %q = %v, want %v (forms %v)", c.word, c.text, got, c.want, q.forms)
		}
	}
}

func TestCodeWordsAreThoseAQuestionWritesAsCode(t *testing.T) {
	for q, want := range map[string]string{
		"How can I run cargo test with --test-threads=1?": "test threads 1",
		"v-if and v-show":                     "v if show",
		"How do I turn off inheritAttrs?":     "inheritattrs",
		"what is Rc<T> for":                   "rc t",
		"use `entry` here":                    "entry",
		"turn 12: my favourite number is 7":   "",
		"Resultを返すべき場面":                       "result",
		"what's your name? I'm fine, thanks!": "",
	} {
		got := codeWords(q)
		for _, w := range strings.Fields(want) {
			if !got[w] {
				t.Errorf("codeWords(%q) = %v, lacks %q", q, got, w)
			}
		}
		if want == "" && len(got) > 0 {
			t.Errorf("codeWords(%q) = %v, want none", q, got)
		}
	}
}

func TestASectionMatchesOnlyWithEnoughEvidence(t *testing.T) {
	for _, c := range []struct {
		name string
		s    sectionEvidence
		want bool
	}{
		{"half the question, two terms", sectionEvidence{prose: 0.5, terms: 2, topical: true}, true},
		{"below half", sectionEvidence{prose: 0.49, terms: 3, topical: true}, false},
		{"one word met in passing", sectionEvidence{prose: 1, terms: 1, topical: true}, false},
		{"one word that names the section", sectionEvidence{prose: 1, head: 1, terms: 1, topical: true}, true},
		{"only verbs", sectionEvidence{prose: 1, terms: 2, head: 0.5}, false},
	} {
		if got := c.s.matches(); got != c.want {
			t.Errorf("%s: matches = %v, want %v", c.name, got, c.want)
		}
	}
}

// Issue 22: a message is not given documents for words they hold only in
// code, for one common word, or for verbs alone; a question whose words
// are in a document's prose is.
func TestLayerNeedsEvidenceInProse(t *testing.T) {
	f := newFixture(t, "")
	writeFile(t, filepath.Join(f.dir, "props.md"), "# props の型\n\n"+
		"props には型を指定できる。\n\n```js\nprops: { count: Number, turn: Number }\nreturn count\n```\n\n"+
		"`type: Number` のように書く。\n")
	writeFile(t, filepath.Join(f.dir, "team.md"), "# チームの紹介\n\n"+
		"メンバーの名前と好きな食べ物を書いておく。週末に集まって議論に時間をかける。\n")
	writeFile(t, filepath.Join(f.dir, "cache.md"), "# 算出プロパティのキャッシュ\n\n"+
		"算出プロパティはリアクティブな依存関係にもとづきキャッシュされる。メソッドは毎回実行される。\n")
	ctx := context.Background()
	if _, err := f.svc.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	for _, msg := range []string{
		"turn the number", // words only in code
		"名前は？",            // one common word met in passing
		"12かける7は？",        // a verb alone
	} {
		if text, err := f.svc.layerText(ctx, msg, "openai/gpt-4o-mini"); err != nil || text != "" {
			t.Errorf("%q got KB text (err %v):\n%s", msg, err, text)
		}
	}
	text, err := f.svc.layerText(ctx, "算出プロパティとメソッドはどちらがキャッシュされる？", "openai/gpt-4o-mini")
	if err != nil || !strings.Contains(text, "Source: cache.md") || strings.Contains(text, "props.md") {
		t.Errorf("the question about caching got (err %v):\n%s", err, text)
	}
}
