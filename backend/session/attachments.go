package session

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"unicode/utf8"

	"playchat/backend/attach"
	"playchat/backend/store"
)

// DocAttachment is one file attached to a message of a Document (version
// 4); its bytes are Document.Files[SHA256].
type DocAttachment struct {
	SHA256 string `json:"sha256"`
	Name   string `json:"name"`
	// Kind is "image", "text", "pdf" or "docx".
	Kind string `json:"kind"`
	MIME string `json:"mime"`
	// Width and Height are an image's pixel size (absent for documents).
	Width  int `json:"width,omitempty"`
	Height int `json:"height,omitempty"`
	// OriginalSize is the size of the file as the user gave it.
	OriginalSize int64 `json:"originalSize,omitempty"`
	// Text is a document's text as it went to the model.
	Text string `json:"text,omitempty"`
	// Pages is a PDF's page count (absent for other kinds).
	Pages int `json:"pages,omitempty"`
	// SentPages and SentChars, when the message sent only the part of a
	// document that fits the model (issue 25), are how many of its first
	// pages (a PDF) or characters went (absent: all of it).
	SentPages int `json:"sentPages,omitempty"`
	SentChars int `json:"sentChars,omitempty"`
}

// maxAttachmentName is the longest file name an attachment may have, in
// characters.
const maxAttachmentName = 255

// exportFiles adds a message's files to the document: their description to
// dm, their bytes to doc.Files (once per file).
func exportFiles(db *store.DB, doc *Document, dm *DocMessage, files []store.MessageFile) error {
	for _, f := range files {
		if _, ok := doc.Files[f.SHA256]; !ok {
			b, err := db.ReadAttachment(f.SHA256)
			if err != nil {
				return err
			}
			if doc.Files == nil {
				doc.Files = map[string]string{}
			}
			doc.Files[f.SHA256] = base64.StdEncoding.EncodeToString(b)
		}
		dm.Attachments = append(dm.Attachments, DocAttachment{SHA256: f.SHA256, Name: f.Name, Kind: f.Kind, MIME: f.MIME,
			Width: f.Width, Height: f.Height, OriginalSize: f.OriginalSize, Text: f.Text,
			Pages: f.Pages, SentPages: f.SentPages, SentChars: f.SentChars})
	}
	return nil
}

// checkFiles returns the problems of the document's attachments: each
// names a file of Files, of a known kind, with a name; each file decodes
// from base64 to bytes whose SHA-256 is its key and that are no larger than
// a document may be; a document's text is UTF-8 within attach.MaxTextBytes;
// a message carries at most attach.MaxPerMessage files.
func checkFiles(doc Document) []string {
	var p []string
	add := func(format string, args ...any) { p = append(p, fmt.Sprintf(format, args...)) }
	for sha, b64 := range doc.Files {
		if base64.StdEncoding.DecodedLen(len(b64)) > attach.MaxDocumentBytes+3 {
			add("files[%s] is larger than %d MiB", sha, attach.MaxDocumentBytes>>20)
			continue
		}
		b, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			add("files[%s] is not standard base64", sha)
			continue
		}
		if h := sha256.Sum256(b); hex.EncodeToString(h[:]) != sha {
			add("files[%s]: the bytes do not have that SHA-256", sha)
		}
	}
	for i, m := range doc.Messages {
		if len(m.Attachments) > attach.MaxPerMessage {
			add("messages[%d] has %d attachments (at most %d)", i, len(m.Attachments), attach.MaxPerMessage)
		}
		for j, a := range m.Attachments {
			at := fmt.Sprintf("messages[%d].attachments[%d]", i, j)
			if _, ok := doc.Files[a.SHA256]; !ok {
				add("%s.sha256 %q names no file of the document", at, a.SHA256)
			}
			switch a.Kind {
			case attach.KindImage, attach.KindText, attach.KindPDF, attach.KindDocx:
			default:
				add("%s.kind %q is not image, text, pdf or docx", at, a.Kind)
			}
			if a.Name == "" || utf8.RuneCountInString(a.Name) > maxAttachmentName || !utf8.ValidString(a.Name) {
				add("%s.name must be 1 to %d characters of UTF-8", at, maxAttachmentName)
			}
			if a.MIME == "" {
				add("%s.mime is missing", at)
			}
			if a.Pages < 0 || a.SentPages < 0 || a.SentChars < 0 || (a.SentPages > 0 && a.SentPages >= a.Pages) {
				add("%s: pages, sentPages and sentChars must be counts, sentPages fewer than pages", at)
			}
			if len(a.Text) > attach.MaxTextBytes || !utf8.ValidString(a.Text) {
				add("%s.text must be UTF-8 of at most %d KiB", at, attach.MaxTextBytes>>10)
			}
		}
	}
	return p
}

// importFiles turns a valid document's attachments into the files each
// message stores (by message index) and every file with its bytes once.
func importFiles(doc Document) (map[int][]store.MessageFile, []store.MessageFile) {
	data := map[string][]byte{}
	var all []store.MessageFile
	out := map[int][]store.MessageFile{}
	for i, m := range doc.Messages {
		for _, a := range m.Attachments {
			b, ok := data[a.SHA256]
			if !ok {
				b, _ = base64.StdEncoding.DecodeString(doc.Files[a.SHA256]) // checked by Validate
				data[a.SHA256] = b
			}
			f := store.MessageFile{Name: a.Name, Kind: a.Kind, MIME: a.MIME, SHA256: a.SHA256, OriginalSize: a.OriginalSize,
				Width: a.Width, Height: a.Height, Text: a.Text, Pages: a.Pages, SentPages: a.SentPages, SentChars: a.SentChars, Data: b}
			out[i] = append(out[i], f)
			all = append(all, f)
		}
	}
	return out, all
}
