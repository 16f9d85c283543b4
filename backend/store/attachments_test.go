package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func fileOf(name, body string) MessageFile {
	h := sha256.Sum256([]byte(body))
	return MessageFile{Name: name, Kind: "text", MIME: "text/plain", SHA256: hex.EncodeToString(h[:]), Text: body,
		OriginalSize: int64(len(body)), Data: []byte(body)}
}

func attachmentFiles(t *testing.T, db *DB) []string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(filepath.Join(filepath.Dir(db.path), AttachmentsDir), func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			out = append(out, e.Name())
		}
		return nil
	})
	return out
}

func TestAttachmentsAreStoredOnceAndReadBackInOrder(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s, _ := db.CreateSession(ctx, "", "m")
	a, b := fileOf("a.txt", "alpha"), fileOf("b.txt", "beta")
	m1 := Message{SessionID: s.ID, Role: RoleUser, Content: "two files", Files: []MessageFile{a, b}}
	if err := db.InsertMessage(ctx, &m1); err != nil {
		t.Fatal(err)
	}
	// The same bytes under another name in another message: one file.
	again := fileOf("a-copy.txt", "alpha")
	m2 := Message{SessionID: s.ID, Role: RoleUser, Content: "again", Files: []MessageFile{again}}
	if err := db.InsertMessage(ctx, &m2); err != nil {
		t.Fatal(err)
	}
	if got := attachmentFiles(t, db); len(got) != 2 {
		t.Fatalf("files on disk: %v, want 2", got)
	}
	byID, err := db.FilesOf(ctx, []int64{m1.ID, m2.ID})
	if err != nil {
		t.Fatal(err)
	}
	if f := byID[m1.ID]; len(f) != 2 || f[0].Name != "a.txt" || f[1].Name != "b.txt" || f[1].Text != "beta" || f[0].Size != 5 {
		t.Fatalf("m1 files %+v", f)
	}
	if f := byID[m2.ID]; len(f) != 1 || f[0].Name != "a-copy.txt" {
		t.Fatalf("m2 files %+v", f)
	}
	data, err := db.ReadAttachment(a.SHA256)
	if err != nil || string(data) != "alpha" {
		t.Fatalf("read %q %v", data, err)
	}
	if _, err := db.ReadAttachment("../../playchat.db"); err == nil {
		t.Fatal("a path was read as an attachment")
	}
}

func TestAFileIsFreedWhenNoMessageRefersToIt(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s1, _ := db.CreateSession(ctx, "", "m")
	s2, _ := db.CreateSession(ctx, "", "m")
	shared, own := fileOf("shared.txt", "shared"), fileOf("own.txt", "only in s1")
	for _, m := range []*Message{
		{SessionID: s1.ID, Role: RoleUser, Content: "q", Files: []MessageFile{shared, own}},
		{SessionID: s2.ID, Role: RoleUser, Content: "q", Files: []MessageFile{shared}},
	} {
		if err := db.InsertMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.DeleteSession(ctx, s1.ID); err != nil {
		t.Fatal(err)
	}
	got := attachmentFiles(t, db)
	if len(got) != 1 || got[0] != shared.SHA256 {
		t.Fatalf("after deleting s1: %v, want only the shared file", got)
	}
	if _, err := db.ReadAttachment(own.SHA256); err == nil {
		t.Fatal("s1's own file is still readable")
	}
	if _, err := db.DeleteSessions(ctx, []string{s2.ID}); err != nil {
		t.Fatal(err)
	}
	if got := attachmentFiles(t, db); len(got) != 0 {
		t.Fatalf("after deleting every session: %v", got)
	}
	var rows int
	_ = db.bun.NewRaw("SELECT count(*) FROM attachments").Scan(ctx, &rows)
	if rows != 0 {
		t.Fatalf("%d attachment rows left", rows)
	}
}

func TestABranchLinksTheSameFilesWithoutTheirBytes(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s, _ := db.CreateSession(ctx, "", "m")
	f := fileOf("doc.md", "# doc")
	q := Message{SessionID: s.ID, Role: RoleUser, Content: "v1", Files: []MessageFile{f}}
	if err := db.InsertMessage(ctx, &q); err != nil {
		t.Fatal(err)
	}
	kept, _ := db.FilesOf(ctx, []int64{q.ID})
	edit := Message{SessionID: s.ID, Role: RoleUser, Content: "v2", Files: kept[q.ID]}
	if err := db.InsertBranch(ctx, &edit, q.ParentID); err != nil {
		t.Fatal(err)
	}
	// The first version removed: the edit still holds the file.
	if err := db.DeleteUnanswered(ctx, s.ID, q.ID); err != nil {
		t.Fatal(err)
	}
	got, _ := db.FilesOf(ctx, []int64{edit.ID})
	if len(got[edit.ID]) != 1 || got[edit.ID][0].SHA256 != f.SHA256 {
		t.Fatalf("edit files %+v", got)
	}
	if b, err := db.ReadAttachment(f.SHA256); err != nil || string(b) != "# doc" {
		t.Fatalf("file gone with the first version: %v", err)
	}
}

func TestAFailedStoreLeavesNoRowAndItsBytesAreSweptLater(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	f := fileOf("x.txt", "x")
	// No such session: the insert fails inside its transaction.
	m := Message{SessionID: "missing", Role: RoleUser, Content: "q", Files: []MessageFile{f}}
	if err := db.InsertMessage(ctx, &m); err == nil {
		t.Fatal("insert into a missing session succeeded")
	}
	var rows int
	_ = db.bun.NewRaw("SELECT count(*) FROM attachments").Scan(ctx, &rows)
	if rows != 0 {
		t.Fatalf("%d attachment rows after a failed insert", rows)
	}
	// Its bytes stay until they are an hour old (a store in progress
	// writes them just before its transaction), then a sweep removes them.
	if n, _ := db.SweepAttachments(ctx); n != 0 {
		t.Fatalf("a fresh stray file was swept")
	}
	p, _ := db.blobPath(f.SHA256)
	old := time.Now().Add(-2 * strayFileAge)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	if n, err := db.SweepAttachments(ctx); n != 1 || err != nil {
		t.Fatalf("swept %d, %v", n, err)
	}
}

func TestBytesThatDoNotMatchTheirHashAreRefused(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s, _ := db.CreateSession(ctx, "", "m")
	f := fileOf("a.txt", "alpha")
	f.Data = []byte("something else")
	if err := db.InsertMessage(ctx, &Message{SessionID: s.ID, Role: RoleUser, Content: "q", Files: []MessageFile{f}}); err == nil {
		t.Fatal("stored bytes under the wrong hash")
	}
	if got := attachmentFiles(t, db); len(got) != 0 {
		t.Fatalf("files written: %v", got)
	}
}
