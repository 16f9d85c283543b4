// Package markdown turns a Markdown file into what the knowledge base
// indexes: a title, the front matter's tags, and sections (the text under
// each heading of level ≤ 3, merged or split to a size one embedding input
// and one context injection can hold).
//
// Block structure (headings, code fences, HTML blocks and comments) comes
// from goldmark, a CommonMark parser, and the front matter from a YAML
// parser, so a fence of four backticks holding ``` lines, or "<!--" inside
// code, is read as a Markdown renderer reads it. The package is pure: it
// reads no files and holds no state.
package markdown

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"golang.org/x/text/encoding/japanese"

	"playchat/backend/apperr"
)

// Chunk sizes, in runes. A section (the text under a heading of level ≤ 3)
// shorter than MinChunkRunes is merged with its neighbour; one longer than
// MaxChunkRunes is split at paragraph breaks. 1,500 Japanese runes are about
// 1,500–2,000 tokens: one embedding input well inside every embedding model's
// limit, and a unit small enough to inject as "the best-matching section".
const (
	MinChunkRunes = 300
	MaxChunkRunes = 1500
)

// Doc is a Markdown file prepared for indexing.
type Doc struct {
	// Title is the front matter's title, else the first heading's text, else
	// the file name without its extension.
	Title string
	// Tags are the front matter's tags (a YAML list, or one string split at
	// commas), in their order; nil when there are none.
	Tags []string
	// Warnings describe what was read leniently (front matter that is not
	// valid YAML, indexed as text); for the log, never fatal.
	Warnings []string
	// Chunks are the document's sections in order, each at most
	// MaxChunkRunes runes.
	Chunks []Chunk
}

// Chunk is one section of a document: the Markdown text with HTML comments
// and front matter removed, its heading path and a hash of Text.
type Chunk struct {
	// Heading is the heading path, e.g. "所有権とは？ › 所有権規則"; empty for
	// text before the first heading.
	Heading string
	// Text is the section's Markdown, trimmed, starting with its heading line.
	Text string
	// Hash is 32 hex digits of the SHA-256 of Text.
	Hash string
}

// ErrNotText is reported for a .md file that holds NUL bytes (a binary file
// named .md); its code is apperr.KBNotText.
var ErrNotText error = apperr.New(apperr.KBNotText, nil)

// Parse cleans a Markdown file and splits it into chunks. name is the file's
// slash path, used for the title when the document has none. raw may be
// UTF-8 (with or without a BOM) or Shift_JIS; its only error is ErrNotText.
func Parse(name string, raw []byte) (Doc, error) {
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(raw, 0) >= 0 {
		return Doc{}, ErrNotText
	}
	src := strings.ReplaceAll(decodeText(raw), "\r\n", "\n")
	fm, body := splitFrontMatter(src)
	secs := splitSections([]byte(body))
	d := Doc{Title: fm.title, Tags: fm.tags, Warnings: fm.warnings}
	if d.Title == "" {
		for _, s := range secs {
			if s.title != "" {
				d.Title = s.title
				break
			}
		}
	}
	if d.Title == "" {
		d.Title = strings.TrimSuffix(path.Base(name), path.Ext(name))
	}
	for _, s := range mergeSections(secs) {
		for _, part := range splitLong(s.text, MaxChunkRunes) {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			d.Chunks = append(d.Chunks, Chunk{Heading: s.heading, Text: part, Hash: hashString(part)})
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

// HeadingLevel returns the level (1–6) of an ATX heading line ("## Text"),
// or 0 when line is not one. It looks at the one line only: a caller that
// knows the line starts a section (see Chunk.Text) uses it to drop the
// heading.
func HeadingLevel(line string) int {
	if len(line) > 3 && line[0] == ' ' {
		line = strings.TrimLeft(line, " ")
	}
	level := 0
	for level < len(line) && line[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(line) && line[level] != ' ' && line[level] != '\t') {
		return 0
	}
	return level
}

// mdParser is goldmark's CommonMark block and inline parser with heading
// attributes ("## Title {#anchor}") read as attributes, not text. A
// goldmark parser is safe for concurrent use.
var mdParser = parser.NewParser(
	parser.WithBlockParsers(parser.DefaultBlockParsers()...),
	parser.WithInlineParsers(parser.DefaultInlineParsers()...),
	parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	parser.WithAttribute(),
)

type section struct {
	title   string // the heading's text, if this section starts with one
	heading string // heading path, e.g. "所有権とは？ › 所有権規則"
	text    string
}

// span is a byte range [start, end) of the source.
type span struct{ start, end int }

// splitSections cuts src before every heading of level 1–3 (ATX or setext;
// also one inside a list item, as API references indent them; not one in a
// block quote, which is an aside) and removes HTML comments (which in translated documents hold
// the untranslated original: index and context get the text the reader
// sees). Code spans and code blocks are kept as they are.
func splitSections(src []byte) []section {
	doc := mdParser.Parse(text.NewReader(src))
	type cut struct {
		pos            int
		title, heading string
	}
	cuts := []cut{{pos: 0}}
	var drop []span
	var path [3]string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if _, quote := n.(*ast.Blockquote); quote {
			return ast.WalkSkipChildren, nil // an aside, not a section
		}
		h, ok := n.(*ast.Heading)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		if h.Lines().Len() == 0 {
			return ast.WalkSkipChildren, nil
		}
		title := headingText(h, src)
		if h.Level > 3 {
			if last := &cuts[len(cuts)-1]; last.title == "" {
				last.title = title
			}
			return ast.WalkSkipChildren, nil
		}
		path[h.Level-1] = title
		for i := h.Level; i < 3; i++ {
			path[i] = ""
		}
		start := h.Lines().At(0).Start
		start = bytes.LastIndexByte(src[:start], '\n') + 1
		cuts = append(cuts, cut{pos: start, title: title, heading: joinNonEmpty(path[:h.Level], " › ")})
		return ast.WalkSkipChildren, nil
	})
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.HTMLBlock:
			drop = append(drop, htmlBlockComments(n, src)...)
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			if n.Segments.Len() > 0 {
				first, last := n.Segments.At(0), n.Segments.At(n.Segments.Len()-1)
				if bytes.HasPrefix(src[first.Start:], []byte("<!--")) {
					drop = append(drop, span{first.Start, last.Stop})
				}
			}
		case *ast.CodeBlock, *ast.FencedCodeBlock, *ast.CodeSpan:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	sort.Slice(drop, func(i, j int) bool { return drop[i].start < drop[j].start })

	var out []section
	for i, c := range cuts {
		end := len(src)
		if i+1 < len(cuts) {
			end = cuts[i+1].pos
		}
		t, removed := cutSpans(src, c.pos, end, drop)
		if removed {
			t = collapseBlankLines(t)
		}
		if strings.TrimSpace(t) != "" {
			out = append(out, section{title: c.title, heading: c.heading, text: t})
		}
	}
	return out
}

// htmlBlockComments returns the spans of the HTML comments in an HTML block
// (a comment left open runs to the end of the block, which for a block that
// opens with "<!--" is the end of the document, as in HTML).
func htmlBlockComments(n *ast.HTMLBlock, src []byte) []span {
	lines := n.Lines()
	if lines.Len() == 0 {
		return nil
	}
	start, end := lines.At(0).Start, lines.At(lines.Len()-1).Stop
	if n.HasClosure() {
		end = max(end, n.ClosureLine.Stop)
	}
	var out []span
	for i := start; i < end; {
		j := bytes.Index(src[i:end], []byte("<!--"))
		if j < 0 {
			break
		}
		open := i + j
		k := bytes.Index(src[open+4:end], []byte("-->"))
		if k < 0 {
			out = append(out, span{open, end})
			break
		}
		out = append(out, span{open, open + 4 + k + 3})
		i = open + 4 + k + 3
	}
	return out
}

// cutSpans returns src[start:end] without the parts covered by the sorted
// spans in drop, and whether anything was removed.
func cutSpans(src []byte, start, end int, drop []span) (string, bool) {
	var b strings.Builder
	pos, removed := start, false
	for _, d := range drop {
		if d.end <= pos || d.start >= end {
			continue
		}
		if d.start > pos {
			b.Write(src[pos:d.start])
		}
		pos = min(max(pos, d.end), end)
		removed = true
	}
	if pos < end {
		b.Write(src[pos:end])
	}
	return b.String(), removed
}

// headingText is a heading's plain text: inline HTML, comments and
// emphasis markers go; code spans keep their content; escapes and
// character references are resolved.
func headingText(h *ast.Heading, src []byte) string {
	var b []byte
	_ = ast.Walk(h, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text:
			b = append(b, n.Value(src)...)
			if n.SoftLineBreak() || n.HardLineBreak() {
				b = append(b, ' ')
			}
		case *ast.String:
			b = append(b, n.Value...)
		case *ast.AutoLink:
			b = append(b, n.Label(src)...)
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	b = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(b)))
	return strings.TrimSpace(string(b))
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

func joinNonEmpty(ss []string, sep string) string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, sep)
}

// mergeSections joins sections shorter than MinChunkRunes with the next one
// (the last short one with the previous), keeping the first heading.
func mergeSections(secs []section) []section {
	var out []section
	for _, s := range secs {
		if n := len(out); n > 0 && utf8.RuneCountInString(out[n-1].text) < MinChunkRunes &&
			utf8.RuneCountInString(out[n-1].text)+utf8.RuneCountInString(s.text) <= MaxChunkRunes {
			out[n-1].text += s.text
			continue
		}
		out = append(out, s)
	}
	if n := len(out); n > 1 && utf8.RuneCountInString(out[n-1].text) < MinChunkRunes &&
		utf8.RuneCountInString(out[n-2].text)+utf8.RuneCountInString(out[n-1].text) <= MaxChunkRunes {
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
