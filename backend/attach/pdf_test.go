package attach

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/attach/attachtest"
)

// pdfPage is one page of a test PDF (attachtest.Page).
type pdfPage = attachtest.Page

// makePDF writes a small valid PDF of pages (attachtest.PDF).
func makePDF(pages []pdfPage) []byte { return attachtest.PDF(pages...) }

func TestAPDFsTextIsExtractedPageByPageJapaneseIncluded(t *testing.T) {
	data := makePDF([]pdfPage{
		{Latin: "Quarterly report", CJK: "売上は前年比で増えました"},
		{Image: true},
		{Latin: "Page three", CJK: "まとめ"},
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
	_, err := Prepare("scan.pdf", makePDF([]pdfPage{{Image: true}, {Image: true}}))
	var e *apperr.Error
	if code(err) != apperr.AttachPDFNoText || !errors.As(err, &e) || e.Params["pages"] != 2 {
		t.Fatalf("scan: %v", err)
	}
}

func TestABrokenPDFIsRefusedWithWhy(t *testing.T) {
	good := makePDF([]pdfPage{{Latin: "hello"}})
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
