package tagging

import (
	"encoding/json"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Tag limits.
const (
	// TagsPerItem is how many tags a message or memory gets.
	TagsPerItem = 3
	// MaxTagRunes caps one tag, in runes (a longer one is cut).
	MaxTagRunes = 20
)

// Parse reads the model's answer: the JSON object {"tags":[…]} anywhere in
// the text (a code fence or words around it are ignored), else a JSON array
// of strings, else a list of at least two short items on lines or between
// commas (bullets, numbers and quotes stripped). Prose is not tags (issue
// 22: "FAKE: こんにちは" became a tag): a list item longer than
// MaxTagRunes or holding a sentence's punctuation (。！？!? or a colon)
// makes the whole answer unreadable. The tags are
// normalised (Normalize) and at most TagsPerItem are returned; nil when
// none could be read.
func Parse(answer string) []string {
	var raw []string
	if i, j := strings.Index(answer, "{"), strings.LastIndex(answer, "}"); i >= 0 && j > i {
		var obj struct {
			Tags []any `json:"tags"`
		}
		if json.Unmarshal([]byte(answer[i:j+1]), &obj) == nil {
			for _, v := range obj.Tags {
				if s, ok := v.(string); ok {
					raw = append(raw, s)
				}
			}
		}
	}
	if raw == nil {
		if i, j := strings.Index(answer, "["), strings.LastIndex(answer, "]"); i >= 0 && j > i {
			_ = json.Unmarshal([]byte(answer[i:j+1]), &raw)
		}
	}
	if raw == nil && !strings.ContainsAny(answer, "{}[]") {
		raw = listItems(answer)
	}
	return Normalize(raw)
}

// listItems reads a plain list of tags (one a line, or separated by
// commas), or nil when the text reads as prose rather than tags.
func listItems(answer string) []string {
	items := strings.FieldsFunc(answer, func(r rune) bool {
		return r == '\n' || r == ',' || r == '、' || r == '，'
	})
	var out []string
	for _, it := range items {
		it = trimListNumber(strings.TrimLeft(strings.TrimSpace(it), "-*•・ "))
		if it == "" {
			continue
		}
		// A sentence ("label: text", "…。") is not a tag.
		if len([]rune(it)) > MaxTagRunes || strings.ContainsAny(it, "。！？!?:：") {
			return nil
		}
		out = append(out, it)
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// Normalize cleans tags: NFKC, surrounding spaces, quotes, bullets, list
// numbers and '#' removed, inner whitespace runs folded to one space, cut to
// MaxTagRunes runes; empty ones and repeats (ignoring Latin case) dropped;
// at most TagsPerItem kept, in order.
func Normalize(tags []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range tags {
		t = norm.NFKC.String(t)
		t = strings.Join(strings.Fields(t), " ")
		t = strings.TrimLeftFunc(t, func(r rune) bool {
			return r == '-' || r == '*' || r == '・' || r == '#' || unicode.IsSpace(r)
		})
		t = trimListNumber(t)
		t = strings.TrimFunc(t, func(r rune) bool {
			return unicode.IsSpace(r) || r == '#' || r == '"' || r == '\'' || r == '`' ||
				r == '「' || r == '」' || r == '『' || r == '』' || r == '.' || r == '。' || r == ':'
		})
		if r := []rune(t); len(r) > MaxTagRunes {
			t = strings.TrimSpace(string(r[:MaxTagRunes]))
		}
		key := strings.ToLower(t)
		if t == "" || seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, t)
		if len(out) == TagsPerItem {
			break
		}
	}
	return out
}

// trimListNumber removes a leading list number ("1. ", "2) ").
func trimListNumber(t string) string {
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i > 0 && i < len(t) && (t[i] == '.' || t[i] == ')') {
		return strings.TrimSpace(t[i+1:])
	}
	return t
}
