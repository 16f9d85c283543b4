package session

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/store"
)

// archiveFixture is a database with chats "Plan: A/B" and two titled
// "same" (the second in folder WORK, archived), and one empty "" title.
func archiveFixture(t *testing.T) (*store.DB, []string, int64) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var ids []string
	for i, title := range []string{"Plan: A/B", "same", "Same", ""} {
		s, err := db.CreateSession(ctx, title, "openai/gpt-4o-mini")
		if err != nil {
			t.Fatal(err)
		}
		at := time.Date(2026, 3, 1, 9, i, 0, 0, time.UTC)
		for _, m := range []store.Message{
			{SessionID: s.ID, Role: store.RoleUser, Content: "question " + title, CreatedAt: at},
			{SessionID: s.ID, Role: store.RoleAssistant, Content: "answer with $x^2$ and `code`", CreatedAt: at.Add(time.Second)},
		} {
			if err := db.InsertMessage(ctx, &m); err != nil {
				t.Fatal(err)
			}
		}
		ids = append(ids, s.ID)
	}
	f, err := db.CreateFolder(ctx, "WORK")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.MoveToFolder(ctx, ids[1:3], &f.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.SetArchived(ctx, ids[2:3], true); err != nil {
		t.Fatal(err)
	}
	return db, ids, f.ID
}

func readZip(t *testing.T, b []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("not a zip archive: %v", err)
	}
	out := map[string]string{}
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(r)
		r.Close()
		out[f.Name] = string(data)
	}
	return out
}

func TestArchiveOfSeveralChatsHoldsOneMarkdownFileEachAndTheirJSON(t *testing.T) {
	db, ids, _ := archiveFixture(t)
	ctx := context.Background()
	var buf bytes.Buffer
	// ids[0] twice: it counts once.
	res, err := ExportArchive(ctx, db, []string{ids[0], ids[1], ids[2], ids[3], ids[0]}, "md", &buf, ExportOptions{Now: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Chats != 4 {
		t.Fatalf("chats = %d, want 4", res.Chats)
	}
	files := readZip(t, buf.Bytes())
	want := []string{"Plan_ A_B.md", "same.md", "Same (2).md", "chat.md",
		"json/Plan_ A_B.json", "json/same.json", "json/Same (2).json", "json/chat.json"}
	for _, name := range want {
		if _, ok := files[name]; !ok {
			t.Errorf("no %q in the archive; it has %v", name, res.Files)
		}
	}
	if len(files) != len(want) {
		t.Errorf("the archive has %d files, want %d: %v", len(files), len(want), res.Files)
	}
	md := files["Plan_ A_B.md"]
	if !strings.HasPrefix(md, "---\ntitle: \"Plan: A/B\"\n") || !strings.Contains(md, "question Plan: A/B") || !strings.Contains(md, "answer with $x^2$ and `code`") {
		t.Errorf("the Markdown file is not the chat's export:\n%s", md)
	}
	// The JSON beside it is the lossless export an import reads back.
	doc, err := Parse(strings.NewReader(files["json/Same (2).json"]))
	if err != nil {
		t.Fatalf("the JSON copy does not parse: %v", err)
	}
	if doc.Session.Title != "Same" || len(doc.Messages) != 2 || doc.Place == nil || doc.Place.Folder != "WORK" || !doc.Place.Archived {
		t.Errorf("the JSON copy lost the chat or its place: %+v place %+v", doc.Session, doc.Place)
	}
}

func TestArchiveOfAFolderHoldsAllItsChatsArchivedToo(t *testing.T) {
	db, ids, folder := archiveFixture(t)
	ctx := context.Background()
	chats, err := FolderChats(ctx, db, folder)
	if err != nil {
		t.Fatal(err)
	}
	if len(chats) != 2 || !(chats[0] == ids[1] || chats[1] == ids[1]) || !(chats[0] == ids[2] || chats[1] == ids[2]) {
		t.Fatalf("folder chats = %v, want %v", chats, ids[1:3])
	}
	var buf bytes.Buffer
	if _, err := ExportArchive(ctx, db, chats, "json", &buf, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	files := readZip(t, buf.Bytes())
	names := map[string]bool{}
	for name := range files {
		names[strings.ToLower(name)] = true
	}
	if len(files) != 2 || !names["same.json"] || !names["same (2).json"] {
		t.Errorf("a JSON archive holds one .json a chat (the second \"same\" renamed) and nothing else, got %v", names)
	}
	if _, err := FolderChats(ctx, db, folder+99); apperr.CodeOf(err) != apperr.FolderNotFound {
		t.Errorf("an unknown folder: err = %v, want %s", err, apperr.FolderNotFound)
	}
}

func TestArchiveExportRefusesBadInputWritingNothing(t *testing.T) {
	db, ids, _ := archiveFixture(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		ids    []string
		format string
		check  func(error) bool
	}{
		{"no chats", nil, "md", func(err error) bool { return apperr.CodeOf(err) == apperr.ExportNothing }},
		{"blank ids", []string{" ", ""}, "md", func(err error) bool { return apperr.CodeOf(err) == apperr.ExportNothing }},
		{"unknown format", ids, "pdf", func(err error) bool { return apperr.CodeOf(err) == apperr.ExportFormat }},
		{"an unknown id", []string{ids[0], "no-such-chat"}, "md", func(err error) bool { return errors.Is(err, store.ErrNotFound) }},
	} {
		var buf bytes.Buffer
		_, err := ExportArchive(ctx, db, tc.ids, tc.format, &buf, ExportOptions{})
		if err == nil || !tc.check(err) {
			t.Errorf("%s: err = %v", tc.name, err)
		}
		if buf.Len() != 0 {
			t.Errorf("%s: %d bytes were written", tc.name, buf.Len())
		}
	}
}

func TestFileNameOfKeepsNamesEveryFileSystemTakes(t *testing.T) {
	for in, want := range map[string]string{
		"旅行の計画":                  "旅行の計画",
		`a\b/c:d*e?f"g<h>i|j`:    "a_b_c_d_e_f_g_h_i_j",
		"  .hidden. ":            "hidden",
		"line\nbreak":            "line_break",
		"":                       "chat",
		"///":                    "_",
		strings.Repeat("あ", 100): strings.Repeat("あ", 80),
	} {
		if got := FileNameOf(in); got != want {
			t.Errorf("FileNameOf(%q) = %q, want %q", in, got, want)
		}
	}
}
