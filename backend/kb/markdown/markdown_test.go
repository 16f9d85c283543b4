package markdown

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/japanese"

	"playchat/backend/apperr"
	"playchat/internal/testcorpus"
)

func mustParse(t *testing.T, name, in string) Doc {
	t.Helper()
	d, err := Parse(name, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func allText(d Doc) string {
	var parts []string
	for _, c := range d.Chunks {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, "\n")
}

func headings(d Doc) string {
	var hs []string
	for _, c := range d.Chunks {
		hs = append(hs, c.Heading)
	}
	return strings.Join(hs, " | ")
}

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
		{"escaped and code heading", "# \\<script setup> と `Box<T>` {#x}\n\n本文\n", "<script setup> と Box<T>", 1, ""},
		{"setext heading", "所有権\n======\n\n本文\n", "所有権", 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mustParse(t, "dir/memo.md", tt.in)
			if d.Title != tt.title || len(d.Chunks) != tt.chunks {
				t.Errorf("title %q, %d chunks; want %q, %d", d.Title, len(d.Chunks), tt.title, tt.chunks)
			}
			for _, c := range d.Chunks {
				if tt.absent != "" && strings.Contains(c.Text, tt.absent) {
					t.Errorf("chunk holds %q: %q", tt.absent, c.Text)
				}
				if n := utf8.RuneCountInString(c.Text); n > MaxChunkRunes {
					t.Errorf("chunk of %d runes > %d", n, MaxChunkRunes)
				}
			}
		})
	}
}

func TestHeadingPathsAndSmallSectionsMerge(t *testing.T) {
	in := "# 本\n\n序文。\n\n## 第一章\n\n" + strings.Repeat("一章の本文。", 80) + "\n\n### 節\n\n" + strings.Repeat("節の本文。", 80) + "\n"
	d := mustParse(t, "x.md", in)
	if got := headings(d); got != "本 | 本 › 第一章 › 節" {
		t.Errorf("headings = %q (the short intro merges into the next section)", got)
	}
}

// long is a section body long enough not to be merged with its neighbour.
var long = strings.Repeat("十分に長い本文の一文です。", 30)

func TestFourBacktickFenceHoldsThreeBacktickLines(t *testing.T) {
	in := "# 外\n\n" + long + "\n\n````markdown\n```rust\nfn main() {}\n```\n## 見出しではない\n<!-- コードの中 -->\n````\n\n## 後\n\n" + long + "\n"
	d := mustParse(t, "x.md", in)
	if got := headings(d); got != "外 | 外 › 後" {
		t.Errorf("headings = %q; the ## line inside the 4-backtick fence cut a section", got)
	}
	text := allText(d)
	for _, want := range []string{"```rust\nfn main() {}\n```\n## 見出しではない\n<!-- コードの中 -->\n````"} {
		if !strings.Contains(text, want) {
			t.Errorf("fence content changed; want %q in\n%s", want, text)
		}
	}
}

func TestCommentMarkersInCodeAreKept(t *testing.T) {
	in := "# HTML\n\nコメントは `<!--` で始まり `-->` で終わる。\n\n<!-- 本当のコメント -->\n\n```html\n<!-- 例 -->\n<p>やあ</p>\n```\n\n    <!-- インデントされたコード -->\n\n後の文。<!-- 行内のコメント -->終わり。\n"
	d := mustParse(t, "x.md", in)
	text := allText(d)
	for _, want := range []string{"`<!--` で始まり `-->` で終わる", "<!-- 例 -->\n<p>やあ</p>", "<!-- インデントされたコード -->", "後の文。終わり。"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	for _, gone := range []string{"本当のコメント", "行内のコメント"} {
		if strings.Contains(text, gone) {
			t.Errorf("comment %q kept in\n%s", gone, text)
		}
	}
}

func TestFrontMatterTitleAndTags(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		tags     []string
	}{
		{"list", "---\ntitle: \"旅行: 準備\"\ntags: [旅行, メモ]\n---\n# 見出し\n\n本文\n", []string{"旅行", "メモ"}},
		{"block list", "---\ntitle: '旅行: 準備'\ntags:\n  - 旅行\n  - メモ\n---\n# 見出し\n\n本文\n", []string{"旅行", "メモ"}},
		{"comma string", "---\ntitle: 旅行: 準備\ntags: 旅行, メモ\n...\n# 見出し\n\n本文\n", []string{"旅行", "メモ"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := mustParse(t, "x.md", tt.in)
			if tt.name == "comma string" {
				// "旅行: 準備" unquoted is not valid YAML: the block stays text.
				if len(d.Warnings) != 1 || d.Title != "見出し" {
					t.Errorf("title %q, warnings %q; want the heading and one warning", d.Title, d.Warnings)
				}
				return
			}
			if d.Title != "旅行: 準備" || !slices.Equal(d.Tags, tt.tags) || len(d.Warnings) != 0 {
				t.Errorf("title %q tags %q warnings %q", d.Title, d.Tags, d.Warnings)
			}
			if strings.Contains(allText(d), "tags") {
				t.Errorf("front matter left in the text: %q", allText(d))
			}
		})
	}
}

func TestMalformedFrontMatterIsTextWithAWarning(t *testing.T) {
	in := "---\ntitle: [閉じていない\ntags: {a: \n---\n本文です。\n"
	d := mustParse(t, "notes/memo.md", in)
	if len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "YAML") {
		t.Errorf("warnings = %q, want one about YAML", d.Warnings)
	}
	if d.Title != "memo" {
		t.Errorf("title = %q; the closing --- must not make a setext heading of the YAML", d.Title)
	}
	if text := allText(d); !strings.Contains(text, "title: [閉じていない") || !strings.Contains(text, "本文です。") {
		t.Errorf("malformed front matter not kept as text: %q", text)
	}
}

func TestThematicBreakIsNotFrontMatter(t *testing.T) {
	in := "---\n\nただの段落。\n\n---\n\n# 表題\n\n本文\n"
	d := mustParse(t, "x.md", in)
	if d.Title != "表題" || len(d.Warnings) != 0 || !strings.Contains(allText(d), "ただの段落。") {
		t.Errorf("title %q warnings %q text %q", d.Title, d.Warnings, allText(d))
	}
}

func TestUnclosedFrontMatterAndEmptyInput(t *testing.T) {
	d := mustParse(t, "memo.md", "---\ntitle: x\n本文\n")
	if d.Title != "memo" || !strings.Contains(allText(d), "title: x\n本文") {
		t.Errorf("unclosed front matter: title %q, text %q; want it kept as text", d.Title, allText(d))
	}
	if d := mustParse(t, "empty.md", ""); d.Title != "empty" || len(d.Chunks) != 0 {
		t.Errorf("empty doc: %+v", d)
	}
}

func TestHeadingsInListsCutButQuotesDoNot(t *testing.T) {
	in := "# API\n\n- **詳細**\n\n  " + long + "\n\n  ### 関数シグネチャー {#sig}\n\n  " + long + "\n\n> ### 余談\n>\n> " + long + "\n\n" + long + "\n"
	d := mustParse(t, "x.md", in)
	if got := headings(d); got != "API | API › 関数シグネチャー" {
		t.Errorf("headings = %q", got)
	}
}

func TestNULBytesAreNotText(t *testing.T) {
	_, err := Parse("x.md", []byte("abc\x00def"))
	if !errors.Is(err, ErrNotText) || apperr.CodeOf(err) != apperr.KBNotText {
		t.Errorf("err = %v, want ErrNotText with code %s", err, apperr.KBNotText)
	}
}

func TestShiftJISIsDecoded(t *testing.T) {
	sjis, err := japanese.ShiftJIS.NewEncoder().String("# テスト\n\n本文\n")
	if err != nil {
		t.Fatal(err)
	}
	d := mustParse(t, "x.md", sjis)
	if d.Title != "テスト" || !strings.Contains(allText(d), "本文") {
		t.Errorf("title = %q, text %q", d.Title, allText(d))
	}
}

func TestHeadingLevel(t *testing.T) {
	for line, want := range map[string]int{"## 見出し": 2, "#見出し": 0, "   # x": 1, "####### x": 0, "本文": 0, "#": 1} {
		if got := HeadingLevel(line); got != want {
			t.Errorf("HeadingLevel(%q) = %d, want %d", line, got, want)
		}
	}
}

// TestCorpusTitlesAndSections parses the real documents (the Japanese Rust
// book, with English originals in HTML comments, and the Vue docs, with
// front matter and {#anchor} headings) and checks what an index shows.
func TestCorpusTitlesAndSections(t *testing.T) {
	dir := corpusDir(t)
	want := map[string]string{
		"rust-book-ja/src/ch04-01-what-is-ownership.md": "所有権とは？",
		"rust-book-ja/src/ch15-01-box.md":               "ヒープのデータを指すBox<T>を使用する",
		"vue-docs-ja/src/api/sfc-script-setup.md":       "<script setup>",
	}
	docs, chunks := 0, 0
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".md") || strings.Contains(p, "node_modules") {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		d, err := Parse(rel, raw)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			return nil
		}
		docs++
		chunks += len(d.Chunks)
		if w, ok := want[rel]; ok && d.Title != w {
			t.Errorf("%s: title %q, want %q", rel, d.Title, w)
		}
		if strings.ContainsAny(d.Title, "{}#`") || strings.HasPrefix(d.Title, "---") {
			t.Errorf("%s: title %q holds Markdown syntax", rel, d.Title)
		}
		for _, c := range d.Chunks {
			if strings.Contains(c.Heading, "{#") {
				t.Errorf("%s: heading %q keeps its anchor", rel, c.Heading)
			}
			if rel == "rust-book-ja/src/ch04-01-what-is-ownership.md" && strings.Contains(c.Text, "What Is Ownership?") {
				t.Errorf("%s: the English original in a comment was indexed: %q", rel, c.Text[:min(200, len(c.Text))])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if docs < testcorpus.MinDocs || chunks < 5*docs/2 {
		t.Errorf("%d documents gave %d sections", docs, chunks)
	}
}

// corpusDir is the real Japanese Markdown corpus (testcorpus.Dir).
func corpusDir(t testing.TB) string { return testcorpus.Dir(t) }

// FuzzParse checks that no input makes Parse fail or panic, and that every
// chunk is non-empty, trimmed and within MaxChunkRunes. `go test` runs the
// seeds; `go test -fuzz FuzzParse` explores further.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "---\n", "---\n---\n", "---\ntitle: [\n---\n", "````\n```\n````\n# h\n",
		"<!--", "# a\n<!-- b", "`<!--` x -->", "a\n===\n- # b\n  ## c\n> ### d\n",
		"\ufeff# BOM\n\r\n本文\r\n", "<div>\n<!-- x -->\n</div>\n", "#\n##\n###   \n",
		"\xff\xfe# 壊れた", "* <!--\n  x\n  -->\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		d, err := Parse("f.md", raw)
		if err != nil {
			if !errors.Is(err, ErrNotText) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if d.Title == "" {
			t.Error("empty title")
		}
		for _, c := range d.Chunks {
			if c.Text == "" || strings.TrimSpace(c.Text) != c.Text {
				t.Errorf("chunk not trimmed or empty: %q", c.Text)
			}
			if n := utf8.RuneCountInString(c.Text); n > MaxChunkRunes {
				t.Errorf("chunk of %d runes", n)
			}
		}
	})
}
