package store

import (
	"context"
	"errors"
	"testing"

	"playchat/backend/apperr"
)

func organiseFixture(t *testing.T) (*DB, []Session) {
	t.Helper()
	db := openTest(t)
	ctx := context.Background()
	var ss []Session
	for _, title := range []string{"一", "二", "三"} {
		s, err := db.CreateSession(ctx, title, "openai/m")
		if err != nil {
			t.Fatal(err)
		}
		m := Message{SessionID: s.ID, Role: RoleUser, Content: "吾輩は猫である " + title}
		if err := db.InsertMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
		ss = append(ss, s)
	}
	return db, ss
}

func ids(ps []PlacedSession) []string {
	out := []string{}
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}

func TestDeletingAFolderKeepsItsChatsAtTheTopLevel(t *testing.T) {
	db, ss := organiseFixture(t)
	ctx := context.Background()
	f, err := db.CreateFolder(ctx, "  仕事  ")
	if err != nil || f.Name != "仕事" {
		t.Fatal(f, err)
	}
	if err := db.MoveToFolder(ctx, []string{ss[0].ID, ss[1].ID}, &f.ID); err != nil {
		t.Fatal(err)
	}
	in, _ := db.ListPlacedSessions(ctx, SessionFilter{Folder: &f.ID})
	if len(in) != 2 {
		t.Fatalf("in folder: %v", ids(in))
	}
	if err := db.SetPinned(ctx, []string{ss[0].ID}, true); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteFolder(ctx, f.ID); err != nil {
		t.Fatal(err)
	}
	all, _ := db.ListPlacedSessions(ctx, SessionFilter{})
	if len(all) != 3 {
		t.Fatalf("chats after the folder's deletion: %v", ids(all))
	}
	for _, p := range all {
		if p.Place.FolderID != nil {
			t.Errorf("%s still in a folder", p.Title)
		}
		if p.ID == ss[0].ID && p.Place.PinnedAt == nil {
			t.Error("the pin was lost with the folder")
		}
	}
	if err := db.DeleteFolder(ctx, f.ID); apperr.CodeOf(err) != apperr.FolderNotFound {
		t.Errorf("second delete: %v", err)
	}
	top := int64(0)
	if got, _ := db.ListPlacedSessions(ctx, SessionFilter{Folder: &top}); len(got) != 3 {
		t.Errorf("top level: %v", ids(got))
	}
}

func TestArchiveHidesAChatFromTheListButNotFromSearch(t *testing.T) {
	db, ss := organiseFixture(t)
	ctx := context.Background()
	if err := db.SetArchived(ctx, []string{ss[1].ID}, true); err != nil {
		t.Fatal(err)
	}
	list, _ := db.ListPlacedSessions(ctx, SessionFilter{})
	for _, p := range list {
		if p.ID == ss[1].ID {
			t.Error("an archived chat is in the list")
		}
	}
	arch, _ := db.ListPlacedSessions(ctx, SessionFilter{Archived: true})
	if len(arch) != 1 || arch[0].ID != ss[1].ID {
		t.Errorf("archived view: %v", ids(arch))
	}
	hits, err := db.SearchMessages(ctx, MessageSearch{Text: "猫 二"})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].SessionID != ss[1].ID {
		t.Errorf("search hits %+v, want the archived chat's message", hits)
	}
	if _, err := db.GetSession(ctx, ss[1].ID); err != nil {
		t.Errorf("the archived chat does not open: %v", err)
	}
	if err := db.SetArchived(ctx, []string{ss[1].ID}, false); err != nil {
		t.Fatal(err)
	}
	if list, _ := db.ListPlacedSessions(ctx, SessionFilter{}); len(list) != 3 {
		t.Errorf("after unarchive: %v", ids(list))
	}
	if ps, _ := db.Places(ctx); len(ps) != 0 {
		t.Errorf("empty places are kept: %v", ps)
	}
}

func TestBulkChangesCheckEveryIDFirst(t *testing.T) {
	db, ss := organiseFixture(t)
	ctx := context.Background()
	err := db.SetPinned(ctx, []string{ss[0].ID, "no-such-chat"}, true)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v", err)
	}
	if ps, _ := db.Places(ctx); len(ps) != 0 {
		t.Error("a refused bulk pin changed something")
	}
	if _, err := db.DeleteSessions(ctx, []string{ss[0].ID, "nope"}); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
	if n, err := db.DeleteSessions(ctx, []string{ss[0].ID, ss[2].ID}); err != nil || n != 2 {
		t.Fatal(n, err)
	}
	if all, _ := db.ListPlacedSessions(ctx, SessionFilter{All: true}); len(all) != 1 {
		t.Errorf("left %v", ids(all))
	}
	missing := int64(99)
	if err := db.MoveToFolder(ctx, []string{ss[1].ID}, &missing); apperr.CodeOf(err) != apperr.FolderNotFound {
		t.Errorf("move to a missing folder: %v", err)
	}
	if _, err := db.CreateFolder(ctx, " "); apperr.CodeOf(err) != apperr.FolderName {
		t.Errorf("blank name: %v", err)
	}
}
