package assistant_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/assistant"
	"playchat/backend/store"
)

func open(t *testing.T) (*store.DB, *assistant.Service) {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, assistant.New(db)
}

func f64(v float64) *float64 { return &v }

// The three built-ins are seeded once, named in the user's language; the
// user may edit or delete them, and a deleted one stays deleted.
func TestBuiltinsAreSeededOnceAndStayDeleted(t *testing.T) {
	ctx := context.Background()
	_, s := open(t)
	if n, err := s.SeedBuiltins(ctx, "ja"); err != nil || n != 3 {
		t.Fatalf("seed: %d %v", n, err)
	}
	all, _ := s.List(ctx)
	names := []string{}
	for _, a := range all {
		names = append(names, a.Name)
		if a.Settings.SystemPrompt == "" || a.Builtin == "" || a.Icon == "" {
			t.Fatalf("built-in %+v is incomplete", a)
		}
	}
	if strings.Join(names, ",") != "翻訳,文章校正,コードレビュー" {
		t.Fatalf("built-ins = %v", names)
	}
	if err := s.Delete(ctx, all[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(ctx, all[1].ID, assistant.Draft{Name: "校正（自分用）"}); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.SeedBuiltins(ctx, "en"); n != 0 {
		t.Fatalf("the second start seeded %d again", n)
	}
	all, _ = s.List(ctx)
	if len(all) != 2 || all[0].Name != "校正（自分用）" {
		t.Fatalf("after delete and edit: %+v", all)
	}
	if en := assistant.Builtins("en"); en[0].Name != "Translate" || en[2].Name != "Code review" {
		t.Fatalf("English built-ins = %s, %s", en[0].Name, en[2].Name)
	}
}

// Assistants go out as JSON and come back the same (as new assistants at
// the end of the order); a broken file changes nothing.
func TestAssistantsExportImportRoundTrip(t *testing.T) {
	ctx := context.Background()
	db, s := open(t)
	res, err := db.Bun().ExecContext(ctx, `INSERT INTO note_pages (title, content) VALUES ('Style guide', '')`)
	if err != nil {
		t.Fatal(err)
	}
	pageID, _ := res.LastInsertId()
	a, err := s.Create(ctx, assistant.Draft{Name: "Teacher", Icon: "🎓", Description: "corrects grammar",
		Settings:    store.ChatSettings{SystemPrompt: "Correct my grammar.", Model: "openai/gpt-4o", Temperature: f64(0.2), TopP: f64(0.7), MaxOutputTokens: 600, LayersOff: []string{store.LayerMemory}, KBDomain: "lang"},
		NotePageIDs: []int64{pageID}})
	if err != nil {
		t.Fatal(err)
	}
	dup, err := s.Duplicate(ctx, a.ID, "")
	if err != nil || dup.Name != "Teacher (copy)" || dup.Settings.SystemPrompt != "Correct my grammar." {
		t.Fatalf("duplicate: %+v %v", dup, err)
	}
	data, err := s.ExportJSON(ctx, []int64{a.ID})
	if err != nil {
		t.Fatal(err)
	}

	db2, s2 := open(t)
	_ = db2
	got, err := s2.ImportReader(ctx, bytes.NewReader(data))
	if err != nil || len(got) != 1 {
		t.Fatalf("import: %v %v", got, err)
	}
	b := got[0]
	if b.Name != "Teacher" || b.Icon != "🎓" || b.Description != "corrects grammar" || b.Settings.SystemPrompt != "Correct my grammar." ||
		b.Settings.Model != "openai/gpt-4o" || *b.Settings.Temperature != 0.2 || *b.Settings.TopP != 0.7 || b.Settings.MaxOutputTokens != 600 ||
		!b.Settings.LayerOff(store.LayerMemory) || b.Settings.KBDomain != "lang" {
		t.Fatalf("imported %+v", b)
	}
	if len(b.NotePageIDs) != 0 {
		t.Fatalf("pages of another database were kept: %v", b.NotePageIDs)
	}
	// Into the same database the page is kept.
	again, _ := s.ImportReader(ctx, bytes.NewReader(data))
	if len(again[0].NotePageIDs) != 1 {
		t.Fatalf("the page of this database was dropped: %v", again[0].NotePageIDs)
	}

	bad := strings.Replace(string(data), `"name": "Teacher"`, `"name": ""`, 1)
	if _, err := s2.ImportReader(ctx, strings.NewReader(bad)); apperr.CodeOf(err) != apperr.AssistantInvalidFile {
		t.Fatalf("a nameless assistant imported: %v", err)
	}
	if all, _ := s2.List(ctx); len(all) != 1 {
		t.Fatalf("a refused file changed the list: %d assistants", len(all))
	}
}

func TestFindByNameAndReorder(t *testing.T) {
	ctx := context.Background()
	_, s := open(t)
	x, _ := s.Create(ctx, assistant.Draft{Name: "Alpha"})
	y, _ := s.Create(ctx, assistant.Draft{Name: "Beta"})
	if a, err := s.Find(ctx, "beta"); err != nil || a.ID != y.ID {
		t.Fatalf("Find(beta) = %+v %v", a, err)
	}
	if _, err := s.Find(ctx, "gamma"); apperr.CodeOf(err) != apperr.AssistantNotFound {
		t.Fatalf("Find(gamma): %v", err)
	}
	if _, err := s.Reorder(ctx, []int64{y.ID}); apperr.CodeOf(err) != apperr.AssistantOrder {
		t.Fatalf("partial reorder: %v", err)
	}
	all, err := s.Reorder(ctx, []int64{y.ID, x.ID})
	if err != nil || all[0].Name != "Beta" {
		t.Fatalf("reorder: %v %v", all, err)
	}
	if _, err := s.Create(ctx, assistant.Draft{Name: "Hot", Settings: store.ChatSettings{Temperature: f64(5)}}); apperr.CodeOf(err) != apperr.AssistantInvalid {
		t.Fatalf("temperature 5 accepted: %v", err)
	}
}
