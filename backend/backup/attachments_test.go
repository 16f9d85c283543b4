package backup

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"playchat/backend/store"
)

// A whole backup carries the files of the chats' attachments (the ones the
// database copy refers to), byte for byte, and a restore into another data
// dir puts them where the restored database finds them; the files the
// replaced data dir had go to the safety folder, not away.
func TestBackupCarriesAttachmentFilesAndRestoreBringsThemBack(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := bytes.Repeat([]byte("\x89PNG\r\n\x1a\n画像"), 500)
	sum := sha256.Sum256(img)
	sha := hex.EncodeToString(sum[:])
	s, err := f.db.CreateSession(ctx, "添付つき", "openai/m")
	if err != nil {
		t.Fatal(err)
	}
	m := store.Message{SessionID: s.ID, Role: store.RoleUser, Content: "この画像は?",
		Files: []store.MessageFile{{Name: "cat.png", Kind: "image", MIME: "image/png", SHA256: sha, Width: 10, Height: 10, Data: img}}}
	if err := f.db.InsertMessage(ctx, &m); err != nil {
		t.Fatal(err)
	}
	archive := f.backup(t, CreateOptions{})
	man, err := Verify(ctx, t.TempDir(), archive, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, e := range man.Files {
		if e.Path == attPrefix+sha[:2]+"/"+sha {
			found = e.Size == int64(len(img))
		}
	}
	if !found {
		t.Fatalf("the archive's manifest has no %d-byte entry for the attachment: %+v", len(img), man.Files)
	}

	// Another data dir, which has an attachment file of its own.
	other := t.TempDir()
	own := filepath.Join(other, store.AttachmentsDir, "ab", "ab"+string(bytes.Repeat([]byte("0"), 62)))
	write(t, own, "the other machine's file")
	_, p := restoreInto(t, other, archive, OpenOptions{})
	got, err := os.ReadFile(filepath.Join(other, store.AttachmentsDir, sha[:2], sha))
	if err != nil || !bytes.Equal(got, img) {
		t.Fatalf("restored attachment = %d bytes (%v), want the %d bytes backed up", len(got), err, len(img))
	}
	if _, err := os.Stat(own); err == nil {
		t.Fatal("the replaced data dir's attachment file is still beside the restored database")
	}
	if b, err := os.ReadFile(filepath.Join(p.Safety, store.AttachmentsDir, "ab", filepath.Base(own))); err != nil || string(b) != "the other machine's file" {
		t.Fatalf("the replaced attachment file is not in the safety folder: %q %v", b, err)
	}
	db, err := store.Open(ctx, filepath.Join(other, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	data, err := db.ReadAttachment(sha)
	if err != nil || !bytes.Equal(data, img) {
		t.Fatalf("the restored database reads its attachment: %d bytes, %v", len(data), err)
	}
}

// An archive entry under attachments/ must be named by a SHA-256 in its
// two-letter folder; anything else is refused as damage.
func TestAnAttachmentEntryMustBeNamedByItsHash(t *testing.T) {
	sha := hex.EncodeToString(make([]byte, 32))
	for name, want := range map[string]bool{
		attPrefix + sha[:2] + "/" + sha:     true,
		attPrefix + "ff/" + sha:             false,
		attPrefix + sha[:2] + "/../x":       false,
		attPrefix + sha[:2] + "/" + sha[1:]: false,
		attPrefix + sha:                     false,
	} {
		if got := validEntry(name); got != want {
			t.Errorf("validEntry(%q) = %v, want %v", name, got, want)
		}
	}
}
