package attach

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Sending part of a document (issue 25): when a document's text does not
// fit the model, the user may choose to send its first pages (a PDF) or
// its first characters (other text). The part goes in a Block that says
// which part it is, so neither the model nor the user is left to think it
// got the whole document.

// pageHead matches the "[page N]" line preparePDF puts before each page's
// text, at the start of the text or after a blank line.
var pageHead = regexp.MustCompile(`(?m)(?:\A|\n\n)\[page (\d+)\]\n`)

// FirstPages returns the text of pages 1..n of a PDF's extracted text (as
// preparePDF writes it: each page headed "[page N]", pages in order; pages
// without text are absent). n ≤ 0 returns "". A heading whose number does
// not go up is page text, not a heading.
func FirstPages(text string, n int) string {
	if n <= 0 {
		return ""
	}
	pages, ends := PageEnds(text)
	for i, p := range pages {
		if p > n {
			if i == 0 {
				return ""
			}
			return text[:ends[i-1]]
		}
	}
	return text
}

// PageEnds returns, for each page heading of a PDF's extracted text (in
// order, numbers going up), its page number and the byte offset in text
// where that page's text ends: the start of the blank line before the next
// heading, or len(text). FirstPages(text, n) is text up to the end of the
// last page numbered n or less.
func PageEnds(text string) (pages, ends []int) {
	last := 0
	for _, m := range pageHead.FindAllStringSubmatchIndex(text, -1) {
		page, err := strconv.Atoi(text[m[2]:m[3]])
		if err != nil || page <= last {
			continue
		}
		if len(pages) > 0 {
			ends = append(ends, m[0])
		}
		pages = append(pages, page)
		last = page
	}
	if len(pages) > 0 {
		ends = append(ends, len(text))
	}
	return pages, ends
}

// FirstChars returns the first n characters (runes) of text; n ≤ 0
// returns "".
func FirstChars(text string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for k := 0; k < n && i < len(text); k++ {
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
	}
	return text[:i]
}

// PagesPart names pages 1..sent of a document of total pages, as the
// attachment block says it: "pages 1-3 of 10" ("page 1 of 10" for one).
func PagesPart(sent, total int) string {
	if sent == 1 {
		return fmt.Sprintf("page 1 of %d", total)
	}
	return fmt.Sprintf("pages 1-%d of %d", sent, total)
}

// CharsPart names the first sent characters of a text of total
// characters: "characters 1-5000 of 12000".
func CharsPart(sent, total int) string {
	return fmt.Sprintf("characters 1-%d of %d", sent, total)
}

// PartBlock is Block for part of a document: text is the part sent and
// part names it (PagesPart, CharsPart). The opening tag carries
// part="…" and a last line inside the block says that the rest of the
// document was not sent, so the model does not answer as if it had read
// all of it.
func PartBlock(name, mime, text, part string) string {
	return fmt.Sprintf("<attachment name=%q type=%q chars=\"%d\" part=%q>\n%s\n[this is %s only: the rest of the document was left out because it does not fit the model's context window]\n</attachment>",
		name, mime, utf8.RuneCountInString(text), part, text, part)
}

// KnowledgeDocument is a prepared document as a Markdown document for the
// knowledge base (issue 25: a document too long for the model goes there
// instead, and layer 3 retrieves its relevant sections): its file name
// (the attachment's name with .md for its extension) and body. A PDF's
// "[page N]" lines become "## Page N" headings, so the knowledge base
// indexes it page by page; Markdown stays as it is; other text is headed
// by its file name.
func KnowledgeDocument(p Prepared) (name, body string) {
	stem := strings.TrimSuffix(p.Name, filepath.Ext(p.Name))
	if stem == "" || strings.HasPrefix(stem, ".") {
		stem = "attachment"
	}
	name = stem + ".md"
	switch {
	case p.Kind == KindPDF:
		body = "# " + p.Name + "\n\n" + pageHead.ReplaceAllStringFunc(p.Text, func(m string) string {
			return strings.Replace(strings.Replace(m, "[page ", "## Page ", 1), "]\n", "\n\n", 1)
		})
	case p.MIME == "text/markdown":
		body = p.Text
	default:
		body = "# " + p.Name + "\n\n" + p.Text
	}
	if !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	return name, body
}
