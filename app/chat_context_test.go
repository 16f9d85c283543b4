package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/chat"
)

// The window's context meter: the preview binds chat.ContextReport with the
// keys the meter reads (lists never null), and a message without a stored
// report says so instead of failing.
func TestContextPreviewAndStoredReportAsTheWindowReadsThem(t *testing.T) {
	a, _ := newTestApp(t, "DEFAULT_MODEL=openai/gpt-4o-mini")
	s := &ChatService{a}
	r, err := s.ContextPreview(chat.PreviewRequest{Text: "こんにちは"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(r)
	for _, want := range []string{`"window":128000`, `"model":"openai/gpt-4o-mini"`, `"preview":true`, `"layers":[{`,
		`"included":[`, `"leftOut":[`, `"history":{"tokens":0,"sent":0,"leftOut":0}`, `"tooLong":false`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("preview JSON lacks %s: %s", want, b)
		}
	}
	if strings.Contains(string(b), "null") {
		t.Errorf("preview JSON holds a null list: %s", b)
	}
	got, err := s.ContextReport(12345)
	if err != nil || got.Found {
		t.Fatalf("unknown message: %+v, %v", got, err)
	}
}

// Dropping files on the Knowledge panel copies them and reports progress on
// the drop's own event.
func TestImportDroppedCopiesAndEmitsProgress(t *testing.T) {
	a, p := newTestApp(t)
	src := t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "memo.txt"), []byte("メモ\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err := (&KBService{a}).ImportDropped("d1", []string{filepath.Join(src, "memo.txt"), filepath.Join(src, "missing.md")})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Copied) != 1 || rep.Copied[0] != "memo.md" || len(rep.Skipped) != 1 || rep.Skipped[0].Reason != "unreadable" {
		t.Fatalf("report = %+v", rep)
	}
	if len(p.events) == 0 || p.events[len(p.events)-1] != "kb:drop:d1" {
		t.Fatalf("events = %v", p.events)
	}
}

// "Add files…" on the Knowledge panel: the picker's files are imported as a
// drop would be, and a document is deleted from the window into the trash
// (issue 22).
func TestAddFilesFromThePickerAndDeleteADocument(t *testing.T) {
	a, p := newTestApp(t)
	k := &KBService{a}
	if got, err := k.ChooseFiles("Add"); err != nil || len(got) != 0 || got == nil {
		t.Fatalf("a cancelled picker: %v, %v (want an empty list)", got, err)
	}
	src := t.TempDir()
	doc := filepath.Join(src, "手順.md")
	if err := os.WriteFile(doc, []byte("# 手順\n\n再起動の前に保存します。\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p.documents = []string{doc}
	paths, err := k.ChooseFiles("Add")
	if err != nil || len(paths) != 1 {
		t.Fatalf("picked %v, %v", paths, err)
	}
	rep, err := k.ImportDropped("add1", paths)
	if err != nil || len(rep.Copied) != 1 || rep.Copied[0] != "手順.md" {
		t.Fatalf("import: %+v, %v", rep, err)
	}
	if _, err := k.Delete("../手順.md"); err == nil {
		t.Fatal("a path out of the knowledge base was deleted")
	}
	trashed, err := k.Delete("手順.md")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(a.core.KB.Root(), filepath.FromSlash(trashed))); err != nil {
		t.Errorf("the trash does not hold it: %v", err)
	}
	if _, err := k.Read("手順.md"); err == nil {
		t.Error("the deleted document can still be read")
	}
}
