package websearch

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
)

// Caps of cleaned text, in runes.
const (
	MaxTitleRunes   = 200
	MaxSnippetRunes = 500
)

// Clean returns s as plain text: HTML tags removed (with the text of
// script and style elements), entities decoded, whitespace runs (newlines
// included) turned into one space, and cut to at most max runes (0: no cap)
// at a word boundary when one is near, ending with "…".
func Clean(s string, max int) string {
	if strings.ContainsAny(s, "<&") {
		s = stripHTML(s)
	}
	s = strings.Join(strings.Fields(s), " ")
	return capRunes(s, max)
}

// stripHTML keeps the text of an HTML fragment, leaving out script and
// style contents; block-level tags become spaces so words do not run
// together.
func stripHTML(s string) string {
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	skip := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			if skip == 0 {
				b.Write(z.Text())
			}
		case html.StartTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "script", "style":
				skip++
			case "br", "p", "div", "li", "tr", "td", "h1", "h2", "h3", "h4", "h5", "h6":
				b.WriteByte(' ')
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "script", "style":
				if skip > 0 {
					skip--
				}
			case "p", "div", "li", "tr", "td", "h1", "h2", "h3", "h4", "h5", "h6":
				b.WriteByte(' ')
			}
		case html.SelfClosingTagToken:
			b.WriteByte(' ')
		}
	}
}

// capRunes cuts s to at most max runes (counting the "…"), preferring the
// last space in the final fifth.
func capRunes(s string, max int) string {
	r := []rune(s)
	if max <= 0 || len(r) <= max {
		return s
	}
	cut := max - 1
	for i := cut; i > cut*4/5; i-- {
		if r[i] == ' ' {
			cut = i
			break
		}
	}
	return strings.TrimRight(string(r[:cut]), " ") + "…"
}

// CleanResults cleans every result, drops those without an http(s) URL and
// repeats of a URL already seen, and keeps at most max. A result without a
// title is titled by its host.
func CleanResults(rs []Result, max int) []Result {
	out := make([]Result, 0, min(len(rs), max))
	seen := map[string]bool{}
	for _, r := range rs {
		if len(out) >= max {
			break
		}
		u, err := url.Parse(strings.TrimSpace(r.URL))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue
		}
		key := u.String()
		if seen[key] {
			continue
		}
		seen[key] = true
		c := Result{URL: key, Title: Clean(r.Title, MaxTitleRunes), Snippet: Clean(r.Snippet, MaxSnippetRunes),
			Published: Clean(r.Published, 40)}
		if c.Title == "" {
			c.Title = u.Host
		}
		out = append(out, c)
	}
	return out
}
