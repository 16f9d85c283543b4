package kb

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"playchat/backend/tokens"
)

func TestParseMarkdownTitleChunksAndComments(t *testing.T) {
	tests := []struct {
		name, in, title string
		chunks          int
		absent          string
	}{
		{"front matter title", "---\ntitle: 表題\npage: true\n---\n\n本文\n", "表題", 1, "page: true"},
		{"heading anchor stripped", "\ufeff# プラグイン {#plugins}\n\n本文\n", "プラグイン", 1, ""},
		{"code fence is not a heading", "```rust\n# fn main() {}\n```\n\n## 所有権とは？\n\n本文\n", "所有権とは？", 1, ""},
		{"comments removed", "<!--\n## What Is Ownership?\n-->\n\n## 所有権とは？\n<!-- English -->\n本文\n", "所有権とは？", 1, "English"},
		{"no heading: file name", "ただの文章\n", "memo", 1, ""},
		{"long sections split", "# 長\n\n" + strings.Repeat("あ", 1000) + "\n\n" + strings.Repeat("い", 1000) + "\n", "長", 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := parseMarkdown("dir/memo.md", []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if d.Title != tt.title || len(d.Chunks) != tt.chunks {
				t.Errorf("title %q, %d chunks; want %q, %d", d.Title, len(d.Chunks), tt.title, tt.chunks)
			}
			for _, c := range d.Chunks {
				if tt.absent != "" && strings.Contains(c.Text, tt.absent) {
					t.Errorf("chunk holds %q: %q", tt.absent, c.Text)
				}
				if n := utf8.RuneCountInString(c.Text); n > maxChunkRunes {
					t.Errorf("chunk of %d runes > %d", n, maxChunkRunes)
				}
			}
		})
	}
}

func TestHeadingPathsAndSmallSectionsMerge(t *testing.T) {
	in := "# 本\n\n序文。\n\n## 第一章\n\n" + strings.Repeat("一章の本文。", 80) + "\n\n### 節\n\n" + strings.Repeat("節の本文。", 80) + "\n"
	d, _ := parseMarkdown("x.md", []byte(in))
	var heads []string
	for _, c := range d.Chunks {
		heads = append(heads, c.Heading)
	}
	if got := strings.Join(heads, " | "); got != "本 | 本 › 第一章 › 節" {
		t.Errorf("headings = %q (the short intro merges into the next section)", got)
	}
}

func TestQueryTermsKeepContentWords(t *testing.T) {
	for q, want := range map[string]string{
		"Rustの所有権とは何ですか？":           "rust 所有 権",
		"v-ifとv-showはどう使い分ければいいですか": "v if show 使い分ける",
		"明日の会議を15時にリマインドして":         "会議 リマインド", // 明日 is a time word (名詞,副詞可能), 15 a bare number
		"ＶＵＥのコンポーネント":               "vue コンポーネント",
	} {
		terms, err := queryTermsJa(q)
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

func TestExcerptMarksMatchedTerms(t *testing.T) {
	terms, _ := queryTermsJa("所有権のルール")
	md := "## 所有権規則\n\n" + strings.Repeat("前置き。", 50) + "まず、**所有権**のルールについて見ていきましょう。" + strings.Repeat("後書き。", 50)
	got := excerpt(md, terms, 80)
	if !strings.Contains(got, "«所有権»") || !strings.Contains(got, "«ルール»") {
		t.Errorf("excerpt %q does not mark the terms", got)
	}
	if strings.Contains(got, "**") || utf8.RuneCountInString(got) > 80+2+8 {
		t.Errorf("excerpt %q: Markdown left or too long", got)
	}
}

func TestLayerShowsBestSectionsOfADocumentOverItsShare(t *testing.T) {
	f := newFixture(t, "")
	var b strings.Builder
	b.WriteString("# 旅行の手引き\n")
	for _, topic := range []string{"持ち物", "両替", "パスポートの更新", "空港までの移動", "ホテルの予約"} {
		b.WriteString("\n## " + topic + "\n\n")
		b.WriteString(strings.Repeat(topic+"についての詳しい説明が続きます。", 40))
		b.WriteString("\n")
	}
	writeFile(t, filepath.Join(f.dir, "travel.md"), b.String())
	f.set.update(func(s *Settings) { s.TokenBudget = 900 })
	ctx := context.Background()
	if _, err := f.svc.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	text, err := f.svc.layerText(ctx, "パスポートの更新はどうすればいい？", "openai/gpt-4o-mini")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(text, LayerHeader) || !strings.Contains(text, "web_search") {
		t.Errorf("layer does not open with the priority statement: %q", text[:min(200, len(text))])
	}
	if !strings.Contains(text, "## パスポートの更新") || strings.Contains(text, "## ホテルの予約") {
		t.Errorf("layer does not hold (only) the best section:\n%s", text)
	}
	if !strings.Contains(text, "best match") {
		t.Error("partial document not labelled as sections")
	}
	if n := tokens.ForModel("openai/gpt-4o-mini").Count(text); n > 900 {
		t.Errorf("layer is %d tokens, over its budget of 900", n)
	}
}
