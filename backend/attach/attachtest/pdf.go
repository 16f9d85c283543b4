// Package attachtest makes files for tests of attachments (issue 25):
// small but real PDFs, with Latin and Japanese text and pages without text.
package attachtest

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf16"
)

// Page is one page of a test PDF: Latin text in Helvetica, and text in
// a CID-keyed font (Identity-H) whose ToUnicode map is built from the
// runes used — the way PDFs with Japanese text are written.
type Page struct {
	// Latin is text in Helvetica (ASCII; parentheses and backslashes are not escaped).
	Latin string
	// CJK is text in the CID-keyed font (any runes).
	CJK string
	// Image adds an image to the page (alone: a page like a scan).
	Image bool
}

// PDF writes a small valid PDF of pages, with a correct xref table, that
// backend/attach reads as a real one.
func PDF(pages ...Page) []byte {
	// One code per distinct CJK rune, from 1.
	codes := map[rune]int{}
	var order []rune
	for _, p := range pages {
		for _, r := range p.CJK {
			if _, ok := codes[r]; !ok {
				codes[r] = len(codes) + 1
				order = append(order, r)
			}
		}
	}
	var buf bytes.Buffer
	buf.WriteString("%PDF-1.4\n")
	var offsets []int
	obj := func(body string) int {
		offsets = append(offsets, buf.Len())
		n := len(offsets)
		fmt.Fprintf(&buf, "%d 0 obj\n%s\nendobj\n", n, body)
		return n
	}
	stream := func(dict, content string) int {
		return obj(fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(content), content))
	}
	catalog := obj("<< /Type /Catalog /Pages 2 0 R >>")
	_ = catalog
	pagesObj := obj("PAGES") // patched below
	helv := obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	var cmap strings.Builder
	cmap.WriteString("/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CMapName /Test def\n")
	cmap.WriteString("1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n")
	fmt.Fprintf(&cmap, "%d beginbfchar\n", len(order))
	for _, r := range order {
		u := utf16.Encode([]rune{r})
		fmt.Fprintf(&cmap, "<%04X> <", codes[r])
		for _, x := range u {
			fmt.Fprintf(&cmap, "%04X", x)
		}
		cmap.WriteString(">\n")
	}
	cmap.WriteString("endbfchar\nendcmap\nCMapName currentdict /CMap defineresource pop\nend end")
	toUni := stream("", cmap.String())
	cid := obj(fmt.Sprintf("<< /Type /Font /Subtype /Type0 /BaseFont /TestGothic /Encoding /Identity-H /ToUnicode %d 0 R >>", toUni))
	img := stream("/Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8", "\x00\xff\xff\x00")
	var kids []string
	for _, p := range pages {
		var content strings.Builder
		if p.Latin != "" {
			fmt.Fprintf(&content, "BT /F1 12 Tf 20 150 Td (%s) Tj ET\n", p.Latin)
		}
		if p.CJK != "" {
			content.WriteString("BT /F2 12 Tf 20 120 Td <")
			for _, r := range p.CJK {
				fmt.Fprintf(&content, "%04X", codes[r])
			}
			content.WriteString("> Tj ET\n")
		}
		if p.Image {
			content.WriteString("q 100 0 0 100 0 0 cm /Im1 Do Q\n")
		}
		c := stream("", content.String())
		pg := obj(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 200 200] /Resources << /Font << /F1 %d 0 R /F2 %d 0 R >> /XObject << /Im1 %d 0 R >> >> /Contents %d 0 R >>",
			pagesObj, helv, cid, img, c))
		kids = append(kids, fmt.Sprintf("%d 0 R", pg))
	}
	out := buf.Bytes()
	pagesBody := fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids))
	// Patch the Pages object in place (it was written as a placeholder).
	old := []byte(fmt.Sprintf("%d 0 obj\nPAGES\nendobj\n", pagesObj))
	i := bytes.Index(out, old)
	patched := append(append(append([]byte{}, out[:i]...), []byte(fmt.Sprintf("%d 0 obj\n%s\nendobj\n", pagesObj, pagesBody))...), out[i+len(old):]...)
	shift := len(patched) - len(out)
	for k := range offsets {
		if offsets[k] > i {
			offsets[k] += shift
		}
	}
	var final bytes.Buffer
	final.Write(patched)
	xref := final.Len()
	fmt.Fprintf(&final, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, o := range offsets {
		fmt.Fprintf(&final, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&final, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return final.Bytes()
}
