package store

import (
	"context"
	"errors"
	"testing"

	"playchat/backend/apperr"
)

// A database from before assistants migrates: its sessions keep their model
// and get default settings and no assistant.
func TestMigrationAssistantsKeepsSessionsWithDefaultSettings(t *testing.T) {
	ctx := context.Background()
	db, _ := openAt(t, MigrationDrafts)
	defer db.Close()
	if _, err := db.Bun().ExecContext(ctx, `INSERT INTO sessions (id, title, model) VALUES ('old', 't', 'openai/m')`); err != nil {
		t.Fatal(err)
	}
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	cs, err := db.SessionSettings(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if cs.Model != "openai/m" || cs.SystemPrompt != "" || cs.Temperature != nil || len(cs.LayersOff) != 0 {
		t.Fatalf("migrated settings = %+v, want defaults with the model", cs)
	}
	s, _ := db.GetSession(ctx, "old")
	if s.AssistantID != nil || s.AssistantVersion != 0 {
		t.Fatalf("migrated session has assistant %v v%d", s.AssistantID, s.AssistantVersion)
	}
}

func TestSessionSettingsRoundTripAndBadSettingsChangeNothing(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s, _ := db.CreateSession(ctx, "", "openai/a")
	temp := 0.3
	want := ChatSettings{SystemPrompt: "be brief", Model: "openai/b", Temperature: &temp, MaxOutputTokens: 500, LayersOff: []string{LayerKB, LayerMemory}}
	if _, err := db.SetSessionSettings(ctx, s.ID, want); err != nil {
		t.Fatal(err)
	}
	got, _ := db.SessionSettings(ctx, s.ID)
	if got.SystemPrompt != "be brief" || got.Model != "openai/b" || got.Temperature == nil || *got.Temperature != 0.3 ||
		got.MaxOutputTokens != 500 || !got.LayerOff(LayerKB) || !got.LayerOff(LayerMemory) || got.LayerOff(LayerNotes) {
		t.Fatalf("settings = %+v", got)
	}
	bad := 3.0
	_, err := db.SetSessionSettings(ctx, s.ID, ChatSettings{Temperature: &bad, LayersOff: []string{"clock"}})
	if apperr.CodeOf(err) != apperr.ChatSettingsInvalid {
		t.Fatalf("bad settings: err %v, want %s", err, apperr.ChatSettingsInvalid)
	}
	if again, _ := db.SessionSettings(ctx, s.ID); again.SystemPrompt != "be brief" {
		t.Fatal("refused settings changed the stored ones")
	}
}

func TestAssistantsOrderVersionsAndSeedsOnce(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	seed := func() int {
		n, err := db.SeedAssistants(ctx, []Assistant{{Name: "A", BuiltinKey: "a"}, {Name: "B", BuiltinKey: "b"}})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := seed(); n != 2 {
		t.Fatalf("first seed inserted %d, want 2", n)
	}
	as, _ := db.ListAssistants(ctx)
	if len(as) != 2 || as[0].Name != "A" || as[1].Position != 1 || as[0].Version != 1 {
		t.Fatalf("assistants = %+v", as)
	}
	if err := db.DeleteAssistant(ctx, as[0].ID); err != nil {
		t.Fatal(err)
	}
	if n := seed(); n != 0 {
		t.Fatalf("second seed inserted %d: a deleted built-in came back", n)
	}
	c := Assistant{Name: "C"}
	if err := db.InsertAssistant(ctx, &c); err != nil {
		t.Fatal(err)
	}
	if ok, _ := db.ReorderAssistants(ctx, []int64{c.ID, c.ID}); ok {
		t.Fatal("a reorder naming one assistant twice was accepted")
	}
	if ok, err := db.ReorderAssistants(ctx, []int64{c.ID, as[1].ID}); !ok || err != nil {
		t.Fatalf("reorder: %v %v", ok, err)
	}
	as, _ = db.ListAssistants(ctx)
	if as[0].Name != "C" || as[1].Name != "B" {
		t.Fatalf("order after reorder = %s, %s", as[0].Name, as[1].Name)
	}
	c.Description = "edited"
	up, err := db.UpdateAssistant(ctx, c)
	if err != nil || up.Version != 2 || up.Description != "edited" {
		t.Fatalf("update: %+v %v", up, err)
	}
	if _, err := db.GetAssistant(ctx, 9999); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing assistant: %v", err)
	}
	// A chat started from C keeps its copy when C is deleted.
	s, _ := db.CreateSession(ctx, "", "")
	if err := db.SetSessionAssistant(ctx, s.ID, &c.ID, up.Version); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteAssistant(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if s, _ = db.GetSession(ctx, s.ID); s.AssistantID != nil {
		t.Fatal("the chat still names a deleted assistant")
	}
}
