package attach

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"

	"playchat/backend/apperr"
)

// KindDocx is a Word document (.docx): the text of word/document.xml goes
// to the model as a delimited block (the file itself is stored as given).
const KindDocx = "docx"

// docxMIME is the media type of a WordprocessingML document.
const docxMIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"

// maxDocxXMLBytes caps how much of word/document.xml is decompressed
// (64 MiB), so a small ZIP that inflates hugely cannot exhaust memory.
const maxDocxXMLBytes = 64 << 20

// isDocx reports whether data is a ZIP holding word/document.xml.
func isDocx(data []byte) bool {
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return false
	}
	for _, f := range z.File {
		if f.Name == "word/document.xml" {
			return true
		}
	}
	return false
}

// prepareDocx extracts the text of a .docx with the standard library
// (archive/zip and a streaming encoding/xml decoder over ECMA-376 Part 1
// WordprocessingML: w:p paragraphs become lines, w:t is text, w:tab a tab,
// w:br and w:cr a newline, table cells in a row are joined by tabs). No
// served Go docx library was found (go-partial.tsv lists only
// github.com/ubavic/godocx, without versions). A file that cannot be read
// is refused as unreadable (AttachUnreadable, naming the file); text
// over MaxTextBytes is refused as too long.
func prepareDocx(name string, data []byte) (Prepared, error) {
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return Prepared{}, docxBroken(name, err)
	}
	var doc *zip.File
	for _, f := range z.File {
		if f.Name == "word/document.xml" {
			doc = f
		}
	}
	if doc == nil {
		return Prepared{}, apperr.New(apperr.AttachUnsupported, map[string]any{"name": name, "type": "application/zip"})
	}
	rc, err := doc.Open()
	if err != nil {
		return Prepared{}, docxBroken(name, err)
	}
	defer rc.Close()
	lr := &io.LimitedReader{R: rc, N: maxDocxXMLBytes + 1}
	text, err := docxText(xml.NewDecoder(lr))
	if lr.N <= 0 {
		return Prepared{}, apperr.New(apperr.AttachTextTooLong, map[string]any{"name": name, "kib": maxDocxXMLBytes >> 10, "maxKiB": MaxTextBytes >> 10})
	}
	if err != nil {
		return Prepared{}, docxBroken(name, err)
	}
	text = strings.TrimSpace(strings.Map(dropControl, text))
	if len(text) > MaxTextBytes {
		return Prepared{}, apperr.New(apperr.AttachTextTooLong, map[string]any{"name": name, "kib": len(text) >> 10, "maxKiB": MaxTextBytes >> 10})
	}
	return Prepared{Name: name, Kind: KindDocx, MIME: docxMIME, Data: data, SHA256: hashOf(data),
		OriginalSize: int64(len(data)), Text: text}, nil
}

// docxText walks WordprocessingML tokens and returns the document's text.
func docxText(d *xml.Decoder) (string, error) {
	var b strings.Builder
	inText, firstCell, cells := false, true, 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return b.String(), nil
		}
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "t":
				inText = true
			case "tab":
				b.WriteByte('\t')
			case "br", "cr":
				b.WriteByte('\n')
			case "tr":
				firstCell = true
			case "tc":
				if !firstCell {
					b.WriteByte('\t')
				}
				firstCell = false
				cells++
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "t":
				inText = false
			case "p":
				if cells == 0 {
					b.WriteByte('\n')
				}
			case "tc":
				cells--
			case "tr":
				b.WriteByte('\n')
			}
		case xml.CharData:
			if inText {
				b.Write(t)
			}
		}
		if b.Len() > MaxTextBytes+1 {
			return b.String(), nil
		}
	}
}

// docxBroken is the error of a .docx that cannot be read: AttachUnreadable
// with the reason (not the PDF's message, which would call it a PDF).
func docxBroken(name string, err error) error {
	return apperr.Wrap(apperr.AttachUnreadable, err, map[string]any{"name": name, "detail": err.Error()})
}
