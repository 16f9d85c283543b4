package websearch

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCleanStripsHTMLDecodesEntitiesAndNormalisesWhitespace(t *testing.T) {
	for in, want := range map[string]string{
		"<strong>Go</strong> &amp; generics": "Go & generics",
		"line one\n\n\tline   two  ":         "line one line two",
		"<p>para</p><p>next</p>":             "para next",
		"a<br>b":                             "a b",
		"<script>alert(1)</script>text<style>p{}</style> after": "text after",
		"plain 5 < 6 text":  "plain 5 < 6 text",
		"東京の&quot;天気&quot;": `東京の"天気"`,
		"":                  "",
	} {
		if got := Clean(in, 0); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCleanCapsAtAWordBoundaryWithAnEllipsis(t *testing.T) {
	long := strings.Repeat("word ", 200)
	got := Clean(long, MaxSnippetRunes)
	if n := utf8.RuneCountInString(got); n > MaxSnippetRunes || !strings.HasSuffix(got, "word…") {
		t.Errorf("capped to %d runes, ends %q", n, got[len(got)-10:])
	}
	ja := strings.Repeat("あ", 600)
	if got := Clean(ja, MaxSnippetRunes); utf8.RuneCountInString(got) != MaxSnippetRunes {
		t.Errorf("Japanese text capped to %d runes", utf8.RuneCountInString(got))
	}
	if got := Clean("short", MaxSnippetRunes); got != "short" {
		t.Errorf("short text changed: %q", got)
	}
}

func TestCleanResultsDropsBadAndRepeatedURLsAndTitlesByHost(t *testing.T) {
	got := CleanResults([]Result{
		{Title: "a", URL: "https://a.example/x"},
		{Title: "js", URL: "javascript:alert(1)"},
		{Title: "again", URL: "https://a.example/x"},
		{Title: "  ", URL: "http://b.example/y"},
		{Title: "c", URL: "https://c.example/"},
	}, 2)
	if len(got) != 2 || got[0].Title != "a" || got[1].Title != "b.example" {
		t.Errorf("got %+v", got)
	}
}
