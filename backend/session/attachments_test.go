package session

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"playchat/backend/store"
)

func testFile(name, kind, mime string, data []byte) store.MessageFile {
	h := sha256.Sum256(data)
	return store.MessageFile{Name: name, Kind: kind, MIME: mime, SHA256: hex.EncodeToString(h[:]), Data: data,
		OriginalSize: int64(len(data)), Width: 3, Height: 2}
}

func TestExportAndImportKeepAttachmentsByteIdentical(t *testing.T) {
	ctx := context.Background()
	db, sid := seeded(t)
	img := testFile("photo.png", "image", "image/png", []byte("\x89PNG\r\n\x1a\nnot really a png, but bytes"))
	doc := testFile("notes.md", "text", "text/markdown", []byte("# notes\n"))
	doc.Text, doc.Width, doc.Height = "# notes\n", 0, 0
	doc.SentChars = 3 // only the part that fit was sent (issue 25)
	pdf := testFile("report.pdf", "pdf", "application/pdf", []byte("%PDF-1.4 not really"))
	pdf.Text, pdf.Width, pdf.Height, pdf.Pages, pdf.SentPages = "[page 1]\na\n\n[page 2]\nb", 0, 0, 2, 1
	m := store.Message{SessionID: sid, Role: store.RoleUser, Content: "look at these", Files: []store.MessageFile{img, doc, pdf}}
	if err := db.InsertMessage(ctx, &m); err != nil {
		t.Fatal(err)
	}
	// A second message with the same image: the file goes once.
	m2 := store.Message{SessionID: sid, Role: store.RoleUser, Content: "again", Files: []store.MessageFile{img}}
	if err := db.InsertMessage(ctx, &m2); err != nil {
		t.Fatal(err)
	}
	raw, err := ExportJSON(ctx, db, sid)
	if err != nil {
		t.Fatal(err)
	}
	var d Document
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	if d.Version != 4 || len(d.Files) != 3 {
		t.Fatalf("version %d, %d files", d.Version, len(d.Files))
	}
	imp, err := ImportReader(ctx, db, bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	ms, err := db.SessionMessages(ctx, imp.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.LoadFiles(ctx, ms); err != nil {
		t.Fatal(err)
	}
	var got []store.MessageFile
	for _, m := range ms {
		got = append(got, m.Files...)
	}
	if len(got) != 4 || got[0].Name != "photo.png" || got[1].Name != "notes.md" || got[1].Text != "# notes\n" || got[3].Name != "photo.png" {
		t.Fatalf("imported files %+v", got)
	}
	if got[1].SentChars != 3 || got[2].Pages != 2 || got[2].SentPages != 1 || got[3].SentPages != 0 {
		t.Fatalf("the part each message sent was not kept: %+v", got)
	}
	for _, f := range []store.MessageFile{img, doc} {
		b, err := db.ReadAttachment(f.SHA256)
		if err != nil || !bytes.Equal(b, f.Data) {
			t.Fatalf("%s: %q %v", f.Name, b, err)
		}
	}
	// The copy holds its own links: deleting the original keeps the files.
	if err := db.DeleteSession(ctx, sid); err != nil {
		t.Fatal(err)
	}
	if b, err := db.ReadAttachment(img.SHA256); err != nil || !bytes.Equal(b, img.Data) {
		t.Fatalf("after deleting the original: %v", err)
	}
}

func TestAFileWhoseBytesDoNotMatchItsHashIsRefusedWhole(t *testing.T) {
	ctx := context.Background()
	db, sid := seeded(t)
	img := testFile("photo.png", "image", "image/png", []byte("picture bytes"))
	if err := db.InsertMessage(ctx, &store.Message{SessionID: sid, Role: store.RoleUser, Content: "q", Files: []store.MessageFile{img}}); err != nil {
		t.Fatal(err)
	}
	raw, err := ExportJSON(ctx, db, sid)
	if err != nil {
		t.Fatal(err)
	}
	var d Document
	_ = json.Unmarshal(raw, &d)
	d.Files[img.SHA256] = "dGFtcGVyZWQ=" // "tampered"
	before, _ := db.ListSessions(ctx)
	bad, _ := json.Marshal(d)
	_, err = ImportReader(ctx, db, bytes.NewReader(bad))
	if err == nil || !strings.Contains(err.Error(), "do not have that SHA-256") {
		t.Fatalf("tampered file: %v", err)
	}
	after, _ := db.ListSessions(ctx)
	if len(after) != len(before) {
		t.Fatal("a session was written")
	}
}
