package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"image"
	"image/jpeg"
	"image/png"
	"math"
	"path/filepath"
	"sync"
	"unicode/utf8"

	xdraw "golang.org/x/image/draw"

	"github.com/google/uuid"

	"playchat/backend/apperr"
	"playchat/backend/attach"
	"playchat/backend/store"
)

// AttachmentService adds files to the message being written (issue 25):
// the paperclip's file picker, files dropped on the message box, an image
// pasted from the clipboard. Each file is judged and prepared at once
// (backend/attach) and waits in memory under an id until the message is
// sent with it (SendRequest.AttachmentIDs) or removed; nothing is written
// to the data folder before the message is stored.
type AttachmentService struct{ app *App }

// StagedAttachment is a file added to the message box: ready to be sent
// (ID set) or refused (Error set, ID "").
type StagedAttachment struct {
	// ID names the prepared file until it is sent or discarded.
	ID string `json:"id"`
	// Name is the file's base name.
	Name string `json:"name"`
	// Kind is "image", "text", "pdf" or "docx".
	Kind string `json:"kind"`
	// MIME is the media type of what is sent (an image after re-encoding).
	MIME string `json:"mime"`
	// Size is the file's size in bytes as the user gave it.
	Size int64 `json:"size"`
	// Width and Height are an image's pixel size as sent (after
	// downscaling); 0 for a document.
	Width  int `json:"width"`
	Height int `json:"height"`
	// Chars is a document's length in characters (0 for an image).
	Chars int `json:"chars"`
	// Pages is a PDF's page count (0 for other kinds).
	Pages int `json:"pages"`
	// Thumbnail is a data URL of a small copy of an image (at most
	// thumbSide pixels on the long side) for its chip; "" for a document.
	Thumbnail string `json:"thumbnail"`
	// Error says why the file was refused (nil when it was taken).
	Error *apperr.Info `json:"error,omitempty"`
}

// Attachment is a file attached to a stored message, as the history shows
// it; DataURL reads its bytes.
type Attachment struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	MIME   string `json:"mime"`
	SHA256 string `json:"sha256"`
	// Size is the size of the file as the user gave it, in bytes.
	Size   int64 `json:"size"`
	Width  int   `json:"width"`
	Height int   `json:"height"`
	// Chars is a document's length in characters (0 for an image).
	Chars int `json:"chars"`
	// Pages is a PDF's page count (0 for other kinds).
	Pages int `json:"pages"`
	// SentPages and SentChars are the part of the document the message
	// sent when only the part that fits the model went (its first pages
	// or characters); 0: all of it.
	SentPages int `json:"sentPages"`
	SentChars int `json:"sentChars"`
}

// thumbSide is the long side of a chip's thumbnail in pixels.
const thumbSide = 160

// maxStaged bounds how many prepared files wait in memory at once (all
// windows' message boxes together); the oldest are dropped past it.
const maxStaged = 4 * attach.MaxPerMessage

// attachStash holds the prepared files waiting to be sent.
type attachStash struct {
	mu    sync.Mutex
	files map[string]attach.Prepared
	order []string
}

func (s *attachStash) put(p attach.Prepared) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files == nil {
		s.files = map[string]attach.Prepared{}
	}
	id := uuid.NewString()
	s.files[id] = p
	s.order = append(s.order, id)
	for len(s.order) > maxStaged {
		delete(s.files, s.order[0])
		s.order = s.order[1:]
	}
	return id
}

// get returns the prepared files of ids, in order; an unknown id is an
// AttachNotFound error.
func (s *attachStash) get(ids []string) ([]attach.Prepared, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]attach.Prepared, 0, len(ids))
	for _, id := range ids {
		p, ok := s.files[id]
		if !ok {
			return nil, apperr.New(apperr.AttachNotFound, map[string]any{"id": id})
		}
		out = append(out, p)
	}
	return out, nil
}

func (s *attachStash) drop(ids []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		delete(s.files, id)
	}
	kept := s.order[:0]
	for _, id := range s.order {
		if _, ok := s.files[id]; ok {
			kept = append(kept, id)
		}
	}
	s.order = kept
}

// Choose shows the system's file picker and adds the chosen files (none:
// the user cancelled). title is the dialog's title.
func (s *AttachmentService) Choose(title string) ([]StagedAttachment, error) {
	if _, err := s.app.backend(); err != nil {
		return nil, err
	}
	paths, err := s.app.plat().OpenAttachments(title)
	if err != nil {
		return nil, err
	}
	return s.AddFiles(paths)
}

// AddFiles adds the files at paths (absolute: chosen or dropped). Each
// comes back taken or refused with why; the error is only for a backend
// that is not ready.
func (s *AttachmentService) AddFiles(paths []string) ([]StagedAttachment, error) {
	if _, err := s.app.backend(); err != nil {
		return nil, err
	}
	out := make([]StagedAttachment, 0, len(paths))
	for _, path := range paths {
		p, err := attach.PrepareFile(path)
		if err != nil {
			out = append(out, refused(filepath.Base(path), err))
			continue
		}
		out = append(out, s.staged(p))
	}
	return out, nil
}

// AddData adds a file the window holds itself (a pasted image, a file
// dropped from a browser): its name and its bytes in standard base64.
func (s *AttachmentService) AddData(name, dataBase64 string) (StagedAttachment, error) {
	if _, err := s.app.backend(); err != nil {
		return StagedAttachment{}, err
	}
	if base64.StdEncoding.DecodedLen(len(dataBase64)) > attach.MaxDocumentBytes+3 {
		return refused(name, apperr.New(apperr.AttachTooLarge, map[string]any{"name": name, "kind": "document",
			"mib": math.Ceil(float64(len(dataBase64))*3/4/(1<<20)*10) / 10, "maxMiB": attach.MaxDocumentBytes >> 20})), nil
	}
	data, err := base64.StdEncoding.DecodeString(dataBase64)
	if err != nil {
		return refused(name, apperr.Wrap(apperr.AttachUnreadable, err, map[string]any{"name": name, "detail": "not base64"})), nil
	}
	return s.stage(name, data), nil
}

// Discard forgets files added but not sent (their chips' ×).
func (s *AttachmentService) Discard(ids []string) error {
	s.app.attachments.drop(ids)
	return nil
}

// AddToKnowledge adds the document waiting under id to the knowledge base
// instead of sending it (the other answer to the chat.attachmentTooLong
// offer, issue 25): its text becomes a Markdown document at the knowledge
// base's root (attach.KnowledgeDocument: a PDF with a heading per page),
// indexed before this returns, so a message sent next without it finds
// its relevant sections through the knowledge-base layer. The file stops
// waiting to be sent. It returns the document's path in the knowledge
// base. Errors: AttachNotFound, AttachUnsupported for an image (it has no
// text), kb.AddDocument's.
func (s *AttachmentService) AddToKnowledge(id string) (string, error) {
	c, err := s.app.backend()
	if err != nil {
		return "", err
	}
	ps, err := s.app.attachments.get([]string{id})
	if err != nil {
		return "", err
	}
	p := ps[0]
	if p.Kind == attach.KindImage {
		return "", apperr.New(apperr.AttachUnsupported, map[string]any{"name": p.Name, "type": p.MIME})
	}
	name, body := attach.KnowledgeDocument(p)
	rel, err := c.KB.AddDocument(context.Background(), name, body)
	if err != nil {
		return "", err
	}
	s.app.attachments.drop([]string{id})
	return rel, nil
}

// Text returns a stored document's text as it went to the model (a PDF's
// page by page with "[page N]" lines), for the viewer a document chip in
// the history opens. sha is the file's SHA-256 as Attachment gives it; at
// most attach.MaxTextBytes (1 MiB) is stored for a document. Errors: a file
// no message refers to any more (attach.missing).
func (s *AttachmentService) Text(sha string) (string, error) {
	c, err := s.app.backend()
	if err != nil {
		return "", err
	}
	return c.DB.AttachmentText(context.Background(), sha)
}

// DataURL returns a stored attachment's bytes as a data URL (an image shown
// in the history; a document opened from its chip). sha is the file's
// SHA-256 as Attachment gives it.
func (s *AttachmentService) DataURL(sha string) (string, error) {
	c, err := s.app.backend()
	if err != nil {
		return "", err
	}
	mime, err := c.DB.AttachmentMIME(context.Background(), sha)
	if err != nil {
		return "", err
	}
	data, err := c.DB.ReadAttachment(sha)
	if err != nil {
		return "", err
	}
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data), nil
}

// Restage puts the files of message messageID (a user message of session
// sessionID) back in the message box, as if just added: Remove on an
// unanswered question gives its files back with its text, so nothing the
// user attached is lost. The window calls it before removing the question,
// while the files are still referenced. A file whose stored bytes cannot be
// read comes back refused (Error set). Errors: apperr.ChatNotUserMessage
// when the message is not a user message of the session; nothing is staged
// then.
func (s *AttachmentService) Restage(sessionID string, messageID int64) ([]StagedAttachment, error) {
	c, err := s.app.backend()
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	m, err := c.DB.GetMessage(ctx, messageID)
	if errors.Is(err, store.ErrNotFound) || err == nil && (m.SessionID != sessionID || m.Role != store.RoleUser) {
		return nil, apperr.New(apperr.ChatNotUserMessage, map[string]any{"id": messageID})
	}
	if err != nil {
		return nil, err
	}
	files, err := c.DB.FilesOf(ctx, []int64{messageID})
	if err != nil {
		return nil, err
	}
	out := make([]StagedAttachment, 0, len(files[messageID]))
	for _, f := range files[messageID] {
		data, err := c.DB.ReadAttachment(f.SHA256)
		if err != nil {
			out = append(out, refused(f.Name, err))
			continue
		}
		out = append(out, s.staged(attach.Prepared{Name: f.Name, Kind: f.Kind, MIME: f.MIME, Data: data, SHA256: f.SHA256,
			OriginalSize: f.OriginalSize, Width: f.Width, Height: f.Height, Text: f.Text, Pages: f.Pages}))
	}
	return out, nil
}

func (s *AttachmentService) stage(name string, data []byte) StagedAttachment {
	p, err := attach.Prepare(name, data)
	if err != nil {
		return refused(name, err)
	}
	return s.staged(p)
}

// staged keeps p waiting and describes it for its chip.
func (s *AttachmentService) staged(p attach.Prepared) StagedAttachment {
	st := StagedAttachment{Name: p.Name, Kind: p.Kind, MIME: p.MIME, Size: p.OriginalSize, Width: p.Width, Height: p.Height,
		Chars: utf8.RuneCountInString(p.Text), Pages: p.Pages}
	if p.Kind == attach.KindImage {
		st.Thumbnail = thumbnail(p)
	}
	st.ID = s.app.attachments.put(p)
	return st
}

func refused(name string, err error) StagedAttachment {
	in := apperr.InfoOf(err)
	return StagedAttachment{Name: filepath.Base(name), Error: &in}
}

// thumbnail is a small JPEG (PNG for a PNG, keeping transparency) of a
// prepared image, as a data URL; "" when it cannot be made.
func thumbnail(p attach.Prepared) string {
	img, _, err := image.Decode(bytes.NewReader(p.Data))
	if err != nil {
		return ""
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w > thumbSide || h > thumbSide {
		if w >= h {
			w, h = thumbSide, max(1, h*thumbSide/w)
		} else {
			w, h = max(1, w*thumbSide/h), thumbSide
		}
		dst := image.NewRGBA(image.Rect(0, 0, w, h))
		xdraw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, b, xdraw.Src, nil)
		img = dst
	}
	var buf bytes.Buffer
	mime := "image/jpeg"
	if p.MIME == "image/png" {
		mime = "image/png"
		err = png.Encode(&buf, img)
	} else {
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80})
	}
	if err != nil {
		return ""
	}
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
}

// toAttachments is the history's view of a message's files.
func toAttachments(fs []store.MessageFile) []Attachment {
	out := make([]Attachment, len(fs))
	for i, f := range fs {
		out[i] = Attachment{Name: f.Name, Kind: f.Kind, MIME: f.MIME, SHA256: f.SHA256, Size: f.OriginalSize,
			Width: f.Width, Height: f.Height, Chars: utf8.RuneCountInString(f.Text), Pages: f.Pages, SentPages: f.SentPages,
			SentChars: f.SentChars}
	}
	return out
}
