package attach

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"

	"playchat/backend/apperr"
)

// pdfPage is one page of a test PDF: Latin text in Helvetica, and text in
// a CID-keyed font (Identity-H) whose ToUnicode map is built from the
// runes used — the way PDFs with Japanese text are written.
type pdfPage struct {
	latin, cjk string
	image      bool // a page holding only an image (a scan)
}

// makePDF writes a small valid PDF of pages, with a correct xref table.
func makePDF(pages []pdfPage) []byte {
	// One code per distinct CJK rune, from 1.
	codes := map[rune]int{}
	var order []rune
	for _, p := range pages {
		for _, r := range p.cjk {
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
		if p.latin != "" {
			fmt.Fprintf(&content, "BT /F1 12 Tf 20 150 Td (%s) Tj ET\n", p.latin)
		}
		if p.cjk != "" {
			content.WriteString("BT /F2 12 Tf 20 120 Td <")
			for _, r := range p.cjk {
				fmt.Fprintf(&content, "%04X", codes[r])
			}
			content.WriteString("> Tj ET\n")
		}
		if p.image {
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

func TestAPDFsTextIsExtractedPageByPageJapaneseIncluded(t *testing.T) {
	data := makePDF([]pdfPage{
		{latin: "Quarterly report", cjk: "売上は前年比で増えました"},
		{image: true},
		{latin: "Page three", cjk: "まとめ"},
	})
	p, err := Prepare("report.bin", data)
	if err != nil {
		t.Fatal(err)
	}
	if p.Kind != KindPDF || p.MIME != "application/pdf" || p.Pages != 3 || !bytes.Equal(p.Data, data) {
		t.Fatalf("got %s %s pages=%d", p.Kind, p.MIME, p.Pages)
	}
	for _, want := range []string{"[page 1]", "Quarterly report", "売上は前年比で増えました", "[page 3]", "Page three", "まとめ"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, p.Text)
		}
	}
	if strings.Contains(p.Text, "[page 2]") {
		t.Errorf("the image-only page got a heading:\n%s", p.Text)
	}
	if !strings.HasPrefix(Block(p.Name, p.MIME, p.Text), `<attachment name="report.bin" type="application/pdf"`) {
		t.Error("block")
	}
}

func TestAScannedPDFWithoutTextSaysSo(t *testing.T) {
	_, err := Prepare("scan.pdf", makePDF([]pdfPage{{image: true}, {image: true}}))
	var e *apperr.Error
	if code(err) != apperr.AttachPDFNoText || !errors.As(err, &e) || e.Params["pages"] != 2 {
		t.Fatalf("scan: %v", err)
	}
}

func TestABrokenPDFIsRefusedWithWhy(t *testing.T) {
	good := makePDF([]pdfPage{{latin: "hello"}})
	for name, data := range map[string][]byte{
		"truncated": good[:len(good)/3],
		"garbage":   []byte("%PDF-1.7\n\x00\x01garbage that is no PDF at all\n"),
	} {
		_, err := Prepare(name+".pdf", data)
		if code(err) != apperr.AttachPDFBroken {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if in := apperr.InfoOf(err); in.Params["detail"] == "" {
			t.Errorf("%s: no detail: %+v", name, in)
		}
	}
}
