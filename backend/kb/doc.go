package kb

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"path"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/japanese"

	"playchat/backend/apperr"
)

// Chunk sizes, in runes. A section (the text under a heading of level ≤ 3)
// shorter than minChunkRunes is merged with its neighbour; one longer than
// maxChunkRunes is split at paragraph breaks. 1,500 Japanese runes are about
// 1,500–2,000 tokens: one embedding input well inside every embedding model's
// limit, and a unit small enough to inject as "the best-matching section".
const (
	minChunkRunes = 300
	maxChunkRunes = 1500
)

// parsedDoc is a Markdown file prepared for indexing.
type parsedDoc struct {
	Title  string
	Chunks []chunk
}

// chunk is one section of a document: the cleaned Markdown text (HTML
// comments and front matter removed), its heading path and a hash of Text.
type chunk struct {
	Heading string
	Text    string
	Hash    string
}

// errNotText is reported for a .md file that holds NUL bytes (a binary file
// named .md).
var errNotText error = apperr.New(apperr.KBNotText, nil)

// parseMarkdown cleans a Markdown file and splits it into chunks. name is the
// file's slash path, used for the title when the document has none.
func parseMarkdown(name string, raw []byte) (parsedDoc, error) {
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(raw, 0) >= 0 {
		return parsedDoc{}, errNotText
	}
	text := decodeText(raw)
	text = strings.ReplaceAll(text, "\r\n", "\n")
	fmTitle, text := splitFrontMatter(text)
	text = stripComments(text)
	secs := splitSections(text)
	title := fmTitle
	if title == "" {
		for _, s := range secs {
			if s.title != "" {
				title = s.title
				break
			}
		}
	}
	if title == "" {
		title = strings.TrimSuffix(path.Base(name), path.Ext(name))
	}
	d := parsedDoc{Title: title}
	for _, s := range mergeSections(secs) {
		for _, part := range splitLong(s.text, maxChunkRunes) {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			d.Chunks = append(d.Chunks, chunk{Heading: s.heading, Text: part, Hash: hashString(part)})
		}
	}
	return d, nil
}

// decodeText returns raw as a string: UTF-8 as it is; otherwise Shift_JIS
// (still common for Japanese text files on Windows) when it decodes
// cleanly; otherwise UTF-8 with the invalid bytes replaced by U+FFFD.
func decodeText(raw []byte) string {
	if utf8.Valid(raw) {
		return string(raw)
	}
	if out, err := japanese.ShiftJIS.NewDecoder().Bytes(raw); err == nil && utf8.Valid(out) && !bytes.ContainsRune(out, utf8.RuneError) {
		return string(out)
	}
	return strings.ToValidUTF8(string(raw), "\uFFFD")
}

func hashString(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:16])
}

// splitFrontMatter removes a leading YAML front matter block and returns its
// title: value, if any.
func splitFrontMatter(s string) (title, rest string) {
	if !strings.HasPrefix(s, "---\n") {
		return "", s
	}
	end := strings.Index(s[4:], "\n---")
	if end < 0 {
		return "", s
	}
	fm := s[4 : 4+end]
	rest = s[4+end+4:]
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[i+1:]
	} else {
		rest = ""
	}
	for _, line := range strings.Split(fm, "\n") {
		if v, ok := strings.CutPrefix(line, "title:"); ok {
			title = strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return title, rest
}

// stripComments removes HTML comments (<!-- … -->), which in translated
// documents hold the untranslated original: index and context get the text
// the reader sees. An unclosed comment runs to the end, as in HTML.
func stripComments(s string) string {
	if !strings.Contains(s, "<!--") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for {
		i := strings.Index(s, "<!--")
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		j := strings.Index(s[i+4:], "-->")
		if j < 0 {
			break
		}
		s = s[i+4+j+3:]
	}
	return collapseBlankLines(b.String())
}

// collapseBlankLines turns runs of blank lines into one blank line.
func collapseBlankLines(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	blank := 0
	for line := range strings.SplitSeq(s, "\n") {
		if strings.TrimSpace(line) == "" {
			blank++
			if blank > 1 {
				continue
			}
		} else {
			blank = 0
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

type section struct {
	title   string // the heading's text, if this section starts with one
	heading string // heading path, e.g. "所有権とは？ › 所有権規則"
	text    string
}

// splitSections cuts s before every ATX heading of level 1–3 outside code
// fences.
func splitSections(s string) []section {
	var out []section
	var cur strings.Builder
	var path [3]string
	curTitle, curHeading := "", ""
	fence := ""
	flush := func() {
		if strings.TrimSpace(cur.String()) != "" {
			out = append(out, section{title: curTitle, heading: curHeading, text: cur.String()})
		}
		cur.Reset()
	}
	for line := range strings.SplitSeq(s, "\n") {
		trim := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.HasPrefix(trim, fence) {
				fence = ""
			}
		} else if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			fence = trim[:3]
		} else if level, text := atxHeading(line); level > 0 {
			if level <= 3 {
				flush()
				path[level-1] = text
				for i := level; i < 3; i++ {
					path[i] = ""
				}
				curTitle, curHeading = text, joinNonEmpty(path[:level], " › ")
			} else if curTitle == "" {
				curTitle = text
			}
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
	}
	flush()
	return out
}

// atxHeading parses "## Text {#anchor}" into (2, "Text").
func atxHeading(line string) (int, string) {
	if len(line) > 3 && line[0] == ' ' {
		line = strings.TrimLeft(line, " ")
	}
	level := 0
	for level < len(line) && line[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(line) && line[level] != ' ' && line[level] != '\t') {
		return 0, ""
	}
	return level, cleanHeading(line[level:])
}

// cleanHeading drops anchors ({#id}), inline HTML, escapes and closing #s.
func cleanHeading(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndex(s, "{#"); i >= 0 && strings.HasSuffix(s, "}") {
		s = s[:i]
	}
	var b strings.Builder
	inTag := false
	for _, r := range s {
		switch {
		case r == '<':
			inTag = true
		case r == '>' && inTag:
			inTag = false
		case inTag, r == '\\', r == '`':
		default:
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(strings.TrimRight(strings.TrimSpace(b.String()), "#"))
}

func joinNonEmpty(ss []string, sep string) string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, sep)
}

// mergeSections joins sections shorter than minChunkRunes with the next one
// (the last short one with the previous), keeping the first heading.
func mergeSections(secs []section) []section {
	var out []section
	for _, s := range secs {
		if n := len(out); n > 0 && utf8.RuneCountInString(out[n-1].text) < minChunkRunes &&
			utf8.RuneCountInString(out[n-1].text)+utf8.RuneCountInString(s.text) <= maxChunkRunes {
			out[n-1].text += s.text
			continue
		}
		out = append(out, s)
	}
	if n := len(out); n > 1 && utf8.RuneCountInString(out[n-1].text) < minChunkRunes &&
		utf8.RuneCountInString(out[n-2].text)+utf8.RuneCountInString(out[n-1].text) <= maxChunkRunes {
		out[n-2].text += out[n-1].text
		out = out[:n-1]
	}
	return out
}

// splitLong cuts s into parts of at most max runes, at blank lines when it
// can, else at line ends, else anywhere.
func splitLong(s string, max int) []string {
	if utf8.RuneCountInString(s) <= max {
		return []string{s}
	}
	var out []string
	var cur strings.Builder
	curRunes := 0
	for para := range strings.SplitAfterSeq(s, "\n\n") {
		n := utf8.RuneCountInString(para)
		if curRunes > 0 && curRunes+n > max {
			out = append(out, cur.String())
			cur.Reset()
			curRunes = 0
		}
		if n > max {
			out = append(out, splitRunes(para, max)...)
			continue
		}
		cur.WriteString(para)
		curRunes += n
	}
	if curRunes > 0 {
		out = append(out, cur.String())
	}
	return out
}

// splitRunes cuts s into pieces of at most max runes, preferring line ends.
func splitRunes(s string, max int) []string {
	var out []string
	for {
		cut, n := 0, 0
		for i := range s {
			if n == max {
				cut = i
				break
			}
			n++
		}
		if cut == 0 {
			return append(out, s)
		}
		if nl := strings.LastIndexByte(s[:cut], '\n'); nl > cut/2 {
			cut = nl + 1
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
}
