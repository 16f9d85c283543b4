package attach

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/ledongthuc/pdf"

	"playchat/backend/apperr"
)

// KindPDF is a PDF document: its text layer, extracted page by page, goes
// to the model as a delimited block (the file itself is stored as given).
const KindPDF = "pdf"

// preparePDF extracts the text of a PDF with github.com/ledongthuc/pdf
// (pure Go; fonts' ToUnicode maps decode Japanese and other CID-keyed text).
// Each page's text is headed "[page N]". Refused, with why: a file the
// library cannot read (AttachPDFBroken), one that needs a password
// (AttachPDFEncrypted), one with no text on any page — a scan
// (AttachPDFNoText) — and one whose text is over MaxTextBytes.
func preparePDF(name string, data []byte) (p Prepared, err error) {
	defer func() {
		// The library panics on some malformed files; that is a broken PDF.
		if r := recover(); r != nil {
			p, err = Prepared{}, pdfBroken(name, fmt.Errorf("%v", r))
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if errors.Is(err, pdf.ErrInvalidPassword) {
		return Prepared{}, apperr.New(apperr.AttachPDFEncrypted, map[string]any{"name": name})
	}
	if err != nil {
		return Prepared{}, pdfBroken(name, err)
	}
	pages := r.NumPage()
	if pages == 0 {
		return Prepared{}, pdfBroken(name, errors.New("no pages"))
	}
	var b strings.Builder
	withText := 0
	for i := 1; i <= pages; i++ {
		pg := r.Page(i)
		if pg.V.IsNull() {
			continue
		}
		text, err := pg.GetPlainText(nil)
		if err != nil {
			return Prepared{}, pdfBroken(name, fmt.Errorf("page %d: %w", i, err))
		}
		text = strings.TrimSpace(strings.Map(dropControl, text))
		if text == "" {
			continue
		}
		withText++
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "[page %d]\n%s", i, text)
		if b.Len() > MaxTextBytes {
			return Prepared{}, apperr.New(apperr.AttachTextTooLong, map[string]any{"name": name, "kib": b.Len() >> 10, "maxKiB": MaxTextBytes >> 10})
		}
	}
	if withText == 0 {
		return Prepared{}, apperr.New(apperr.AttachPDFNoText, map[string]any{"name": name, "pages": pages})
	}
	return Prepared{Name: name, Kind: KindPDF, MIME: "application/pdf", Data: data, SHA256: hashOf(data),
		OriginalSize: int64(len(data)), Text: b.String(), Pages: pages}, nil
}

func pdfBroken(name string, err error) error {
	return apperr.Wrap(apperr.AttachPDFBroken, err, map[string]any{"name": name, "detail": err.Error()})
}

// dropControl removes control characters other than newlines and tabs
// (some producers leave form feeds and NULs in the text layer).
func dropControl(r rune) rune {
	if r == '\n' || r == '\t' || !unicode.IsControl(r) {
		return r
	}
	return -1
}
