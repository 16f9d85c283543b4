package attach

import (
	"archive/zip"
	"bytes"
	"errors"
	"testing"

	"playchat/backend/apperr"
)

func makeZip(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for n, c := range files {
		f, err := w.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(c))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const wDoc = `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`

func TestPrepareDocx(t *testing.T) {
	body := wDoc + `<w:p><w:r><w:t>こんにちは</w:t><w:tab/><w:t>世界</w:t></w:r></w:p>` +
		`<w:p><w:r><w:t>line1</w:t><w:br/><w:t>line2</w:t></w:r></w:p>` +
		`<w:tbl><w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>b</w:t></w:r></w:p></w:tc></w:tr></w:tbl>` +
		`</w:body></w:document>`
	p, err := Prepare("x.docx", makeZip(t, map[string]string{"word/document.xml": body}))
	if err != nil {
		t.Fatal(err)
	}
	want := "こんにちは\t世界\nline1\nline2\na\tb"
	if p.Kind != KindDocx || p.Text != want {
		t.Fatalf("kind %q text %q, want %q", p.Kind, p.Text, want)
	}
}

func TestPrepareDocxRefused(t *testing.T) {
	_, err := Prepare("a.zip", makeZip(t, map[string]string{"a.txt": "hi"}))
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Code != apperr.AttachUnsupported {
		t.Fatalf("plain zip: %v", err)
	}
	_, err = Prepare("b.docx", makeZip(t, map[string]string{"word/document.xml": wDoc + "<w:p>"}))
	if !errors.As(err, &ae) || ae.Code != apperr.AttachUnreadable {
		t.Fatalf("broken docx: %v", err)
	}
}

func TestPrepareDocxBomb(t *testing.T) {
	big := wDoc + "<w:p><w:r><w:t>" + string(bytes.Repeat([]byte(" "), maxDocxXMLBytes+10)) + "</w:t></w:r></w:p></w:body></w:document>"
	_, err := Prepare("bomb.docx", makeZip(t, map[string]string{"word/document.xml": big}))
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Code != apperr.AttachTextTooLong {
		t.Fatalf("bomb: %v", err)
	}
}
