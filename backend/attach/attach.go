// Package attach prepares files a user adds to a chat message (issue 25):
// it judges each file's type by its content (never its name), enforces the
// size limits, turns an image into what is sent to the model (EXIF
// orientation applied, downscaled, re-encoded without metadata) and a
// document into its text, and stores the result content-addressed in the
// data dir (blobs.go). The database side — which message refers to which
// file — is backend/store's (attachments.go).
package attach

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"net/http"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"playchat/backend/apperr"
)

// Kinds of attachment (Prepared.Kind, store.Attachment.Kind).
const (
	// KindImage is a picture sent to the model as an image content part.
	KindImage = "image"
	// KindText is a UTF-8 text file (plain text, Markdown, source code,
	// CSV, JSON) sent as a delimited text block.
	KindText = "text"
)

// Limits. A file over its limit is refused before anything is stored.
const (
	// MaxImageBytes is the largest image file accepted (20 MiB), before
	// downscaling.
	MaxImageBytes = 20 << 20
	// MaxDocumentBytes is the largest document file accepted (50 MiB).
	MaxDocumentBytes = 50 << 20
	// MaxTextBytes is the most text one document may contribute (1 MiB of
	// UTF-8, about a million Latin characters): a longer one could never
	// go to a model whole and belongs in the knowledge base.
	MaxTextBytes = 1 << 20
	// MaxPerMessage is the most attachments one message may carry.
	MaxPerMessage = 10
	// MaxMessageBytes is the most that one message's attachments may come
	// to together (50 MiB of original file sizes).
	MaxMessageBytes = 50 << 20
	// MaxImageSide is the long side, in pixels, an image is downscaled to
	// (providers shrink larger ones anyway: OpenAI fits 2048×2048,
	// Anthropic recommends at most 1568 on the long side).
	MaxImageSide = 2048
	// MaxImagePixels is the most pixels an image may have to be decoded
	// (50 million), so a small file claiming huge dimensions cannot
	// exhaust memory.
	MaxImagePixels = 50_000_000
)

// Prepared is one file ready to be stored and sent: what the model gets
// (Data for an image, Text for a document) and what the window shows.
type Prepared struct {
	// Name is the file's base name as the user gave it (display only).
	Name string
	// Kind is KindImage, KindText or KindPDF.
	Kind string
	// MIME is the stored data's media type: "image/png" or "image/jpeg"
	// for images (after re-encoding), "text/plain", "text/markdown",
	// "text/csv" or "application/json" for text, "application/pdf".
	MIME string
	// Data is the bytes stored and, for an image, sent: the re-encoded
	// image, or the text file as given.
	Data []byte
	// SHA256 is the hex SHA-256 of Data: the stored file's name.
	SHA256 string
	// OriginalSize is the size in bytes of the file as the user gave it.
	OriginalSize int64
	// Width and Height are an image's dimensions in pixels after
	// downscaling (0 for a document).
	Width, Height int
	// OriginalWidth and OriginalHeight are an image's dimensions as
	// displayed before downscaling (EXIF orientation applied).
	OriginalWidth, OriginalHeight int
	// Text is a document's text (UTF-8), "" for an image.
	Text string
	// Pages is a PDF's page count (0 for other kinds).
	Pages int
}

// Prepare judges data (the content of a file called name) and returns it
// ready to store. Errors are coded (apperr Attach*): too large, empty, of a
// type that cannot be attached, not UTF-8, unreadable image, a PDF that is
// broken, encrypted or without text.
func Prepare(name string, data []byte) (Prepared, error) {
	name = filepath.Base(strings.ReplaceAll(name, "\\", "/"))
	if name == "." || name == "/" || name == "" {
		name = "file"
	}
	if len(data) == 0 {
		return Prepared{}, apperr.New(apperr.AttachEmpty, map[string]any{"name": name})
	}
	ct := http.DetectContentType(data)
	switch {
	case isImageType(ct):
		if len(data) > MaxImageBytes {
			return Prepared{}, tooLarge(name, "image", len(data), MaxImageBytes)
		}
		return prepareImage(name, ct, data)
	case ct == "application/pdf":
		if len(data) > MaxDocumentBytes {
			return Prepared{}, tooLarge(name, "document", len(data), MaxDocumentBytes)
		}
		return preparePDF(name, data)
	case ct == "application/zip" && isDocx(data):
		if len(data) > MaxDocumentBytes {
			return Prepared{}, tooLarge(name, "document", len(data), MaxDocumentBytes)
		}
		return prepareDocx(name, data)
	case strings.HasPrefix(ct, "text/") || ct == "application/json":
		if len(data) > MaxDocumentBytes {
			return Prepared{}, tooLarge(name, "document", len(data), MaxDocumentBytes)
		}
		return prepareText(name, ct, data)
	}
	return Prepared{}, apperr.New(apperr.AttachUnsupported, map[string]any{"name": name, "type": ct})
}

// CheckMessage checks the limits over one message's attachments: how many,
// and their total original size.
func CheckMessage(ps []Prepared) error {
	if len(ps) > MaxPerMessage {
		return apperr.New(apperr.AttachTooMany, map[string]any{"n": len(ps), "max": MaxPerMessage})
	}
	var total int64
	for _, p := range ps {
		total += p.OriginalSize
	}
	if total > MaxMessageBytes {
		return apperr.New(apperr.AttachMessageTooLarge, map[string]any{"mib": mib(total), "maxMiB": MaxMessageBytes >> 20})
	}
	return nil
}

func tooLarge(name, kind string, n, max int) error {
	return apperr.New(apperr.AttachTooLarge, map[string]any{"name": name, "kind": kind, "mib": mib(int64(n)), "maxMiB": max >> 20})
}

// mib is n bytes in MiB, rounded up to one decimal.
func mib(n int64) float64 { return math.Ceil(float64(n)/(1<<20)*10) / 10 }

func hashOf(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// prepareText checks a text file: UTF-8 (a leading BOM is dropped), no
// NUL bytes, at most MaxTextBytes. Its MIME refines text/plain by what the
// content is (valid JSON) or, for the label only, by the name's extension.
func prepareText(name, ct string, data []byte) (Prepared, error) {
	body := data
	if len(body) >= 3 && body[0] == 0xEF && body[1] == 0xBB && body[2] == 0xBF {
		body = body[3:]
	}
	if strings.Contains(ct, "utf-16") || !utf8.Valid(body) || strings.IndexByte(string(body), 0) >= 0 {
		return Prepared{}, apperr.New(apperr.AttachNotUTF8, map[string]any{"name": name})
	}
	if len(body) > MaxTextBytes {
		return Prepared{}, apperr.New(apperr.AttachTextTooLong, map[string]any{"name": name, "kib": len(body) >> 10, "maxKiB": MaxTextBytes >> 10})
	}
	text := strings.ReplaceAll(string(body), "\r\n", "\n")
	return Prepared{Name: name, Kind: KindText, MIME: textMIME(name, ct, body), Data: data, SHA256: hashOf(data),
		OriginalSize: int64(len(data)), Text: text}, nil
}

// textMIME names a text file's type for the model and the window.
func textMIME(name, ct string, body []byte) string {
	if ct == "application/json" || looksJSON(body) {
		return "application/json"
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".md", ".markdown":
		return "text/markdown"
	case ".csv":
		return "text/csv"
	case ".html", ".htm":
		return "text/html"
	}
	if strings.HasPrefix(ct, "text/html") {
		return "text/html"
	}
	if strings.HasPrefix(ct, "text/xml") {
		return "text/xml"
	}
	return "text/plain"
}

// Block is how a document's text goes to the model: delimited, with its
// file name and type, so the model can tell it from what the user typed
// and name it in an answer. A line of the text that looks like the closing
// tag cannot end the block early: the tag carries nothing but its name,
// and the opening tag says how many characters follow.
func Block(name, mime, text string) string {
	return fmt.Sprintf("<attachment name=%q type=%q chars=\"%d\">\n%s\n</attachment>", name, mime, utf8.RuneCountInString(text), text)
}

// BlockPrefix starts every Block: a text part that begins with it is an
// attachment's, not what the user typed.
const BlockPrefix = "<attachment "
