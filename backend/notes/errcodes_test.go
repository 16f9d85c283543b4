package notes

import (
	"context"
	"errors"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/store"
)

func TestNotesErrorsCarryCodesForTheWindow(t *testing.T) {
	svc, _ := openTest(t)
	ctx := context.Background()
	ids := seed(t, svc, "todo")

	_, err := svc.Create(ctx, "TODO", "", "")
	in := apperr.InfoOf(err)
	if in.Code != apperr.NotesTitleTaken || in.Params["id"] != ids["todo"] || in.Params["title"] != "TODO" || !errors.Is(err, ErrTitleTaken) {
		t.Errorf("title taken as %+v", in)
	}
	if in.Message != `note page 1 is titled "TODO": a note page with this title already exists` {
		t.Errorf("title taken text %q", in.Message)
	}

	_, err = svc.Get(ctx, 999)
	in = apperr.InfoOf(err)
	if in.Code != apperr.NotesPageNotFound || in.Params["id"] != int64(999) || !errors.Is(err, store.ErrNotFound) || in.Message != "note page 999: not found" {
		t.Errorf("missing page as %+v", in)
	}

	_, err = svc.Create(ctx, strings.Repeat("あ", MaxTitleRunes+1), "", "")
	in = apperr.InfoOf(err)
	if in.Code != apperr.NotesTitleTooLong || in.Params["n"] != MaxTitleRunes+1 || in.Params["max"] != MaxTitleRunes || !errors.Is(err, ErrInvalid) {
		t.Errorf("long title as %+v", in)
	}

	_, err = svc.RenameSection(ctx, "nope", "x")
	if apperr.CodeOf(err) != apperr.NotesSectionEmpty {
		t.Errorf("renaming an empty section: %v (%s)", err, apperr.CodeOf(err))
	}
}
