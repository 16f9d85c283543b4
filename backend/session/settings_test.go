package session

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/store"
)

// A chat's own settings travel with its export and come back with the
// import; the assistant it was started from is named in the file, and the
// copy is linked to no assistant.
func TestExportImportKeepsTheChatsSettings(t *testing.T) {
	ctx := context.Background()
	db, sid := seeded(t)
	temp, topP := 0.4, 0.9
	cs := store.ChatSettings{SystemPrompt: "日本語の先生として答えて", Temperature: &temp, TopP: &topP, MaxOutputTokens: 800,
		LayersOff: []string{store.LayerKB}, KBDomain: "work"}
	if _, err := db.SetSessionSettings(ctx, sid, cs); err != nil {
		t.Fatal(err)
	}
	a := store.Assistant{Name: "先生", Icon: "🎓"}
	if err := db.InsertAssistant(ctx, &a); err != nil {
		t.Fatal(err)
	}
	if err := db.SetSessionAssistant(ctx, sid, &a.ID, 1); err != nil {
		t.Fatal(err)
	}
	data, err := ExportJSON(ctx, db, sid)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"systemPrompt"`)) || !bytes.Contains(data, []byte(`"name": "先生"`)) {
		t.Fatalf("export lacks the settings or the assistant:\n%s", data)
	}

	other, err := store.Open(ctx, filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	imp, err := ImportReader(ctx, other, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	got, err := other.SessionSettings(ctx, imp.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.SystemPrompt != cs.SystemPrompt || got.Temperature == nil || *got.Temperature != 0.4 || *got.TopP != 0.9 ||
		got.MaxOutputTokens != 800 || !got.LayerOff(store.LayerKB) || got.KBDomain != "work" || got.Model != "openai/gpt-4o-mini" {
		t.Fatalf("imported settings = %+v", got)
	}
	if s, _ := other.GetSession(ctx, imp.Session.ID); s.AssistantID != nil {
		t.Fatal("the imported chat links to an assistant of this database")
	}

	// Settings that break the rules refuse the whole file.
	bad := strings.Replace(string(data), `"temperature": 0.4`, `"temperature": 9`, 1)
	if _, err := ImportReader(ctx, other, strings.NewReader(bad)); !IsValidation(err) {
		t.Fatalf("a file with temperature 9 imported: %v", err)
	}
}
