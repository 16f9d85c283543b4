package store

import (
	"context"
	"path/filepath"
	"testing"

	"playchat/backend/apperr"
)

func TestAnIncompletePresetIsRefusedWithACode(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.CreatePreset(ctx, " ", "openai/x"); apperr.CodeOf(err) != apperr.SettingsPresetIncomplete {
		t.Errorf("blank label: %v", err)
	}
	p, err := db.CreatePreset(ctx, "fast", "openai/x")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpdatePreset(ctx, p.ID, "fast", ""); apperr.CodeOf(err) != apperr.SettingsPresetIncomplete {
		t.Errorf("blank model: %v", err)
	}
}
