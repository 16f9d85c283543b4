package notes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"playchat/backend/tools"
)

// callWrite runs write_note with args as the model would.
func callWrite(t *testing.T, svc *Service, args map[string]any) tools.Result {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	res, err := svc.writeNote(context.Background(), tools.Call{Args: raw})
	if err != nil {
		t.Fatalf("write_note %v: %v", args, err)
	}
	return res
}

func TestNewPageStartsAtVersionOne(t *testing.T) {
	svc, _ := openTest(t)
	p, err := svc.Create(context.Background(), "メモ", "一行目", "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := svc.Get(context.Background(), p.ID)
	if err != nil || p.Version != 1 || got.Version != 1 {
		t.Fatalf("created version %d, stored %d (%v); want 1", p.Version, got.Version, err)
	}
}

func TestSaveFromTheCurrentVersionWritesAndBumpsTheVersion(t *testing.T) {
	svc, _ := openTest(t)
	ctx := context.Background()
	p, _ := svc.Create(ctx, "メモ", "一行目", "")
	title, content := "メモ", "一行目\n二行目"
	saved, err := svc.Update(ctx, p.ID, p.Version, &title, &content)
	if err != nil {
		t.Fatalf("fresh save refused: %v", err)
	}
	if saved.Content != content || saved.Version != p.Version+1 {
		t.Fatalf("saved %+v, want the new content at version %d", saved, p.Version+1)
	}
	// The next save names the version it got back.
	content2 := content + "\n三行目"
	again, err := svc.Update(ctx, p.ID, saved.Version, &title, &content2)
	if err != nil || again.Version != saved.Version+1 || again.Content != content2 {
		t.Fatalf("second save = %+v, %v", again, err)
	}
}

func TestStaleSaveIsRefusedWithTheCurrentPageAndChangesNothing(t *testing.T) {
	svc, db := openTest(t)
	ctx := context.Background()
	p, _ := svc.Create(ctx, "メモ", "一行目", "")
	// The draft began at p.Version; then the model appended a line.
	callWrite(t, svc, map[string]any{"mode": "append", "page_id": p.ID, "content": "AIの行"})
	before := snapshot(t, svc, db)

	title, draft := "別の題", "一行目\n私の行"
	_, err := svc.Update(ctx, p.ID, p.Version, &title, &draft)
	if !errors.Is(err, ErrStale) {
		t.Fatalf("stale save: err = %v, want ErrStale", err)
	}
	var stale *StaleError
	if !errors.As(err, &stale) {
		t.Fatalf("stale save: err %T is not a *StaleError", err)
	}
	if stale.Base != p.Version || stale.Current.Version != p.Version+1 || stale.Current.Content != "一行目\nAIの行" {
		t.Fatalf("stale error carries base %d and current %+v; want base %d and the appended page", stale.Base, stale.Current, p.Version)
	}
	wantErr(t, err, fmt.Sprintf("note page %d changed since the draft began", p.ID), "nothing was saved")
	assertUnchanged(t, before, snapshot(t, svc, db))
}

func TestModelWritesBumpTheVersion(t *testing.T) {
	svc, _ := openTest(t)
	ctx := context.Background()
	p, _ := svc.Create(ctx, "メモ", "一行目", "")

	callWrite(t, svc, map[string]any{"mode": "append", "page_id": p.ID, "content": "追記"})
	appended, _ := svc.Get(ctx, p.ID)
	if appended.Version != 2 || appended.Content != "一行目\n追記" {
		t.Fatalf("after append: %+v, want version 2", appended)
	}
	callWrite(t, svc, map[string]any{"mode": "replace", "title": "メモ", "content": "全部書き換え"})
	replaced, _ := svc.Get(ctx, p.ID)
	if replaced.Version != 3 || replaced.Content != "全部書き換え" {
		t.Fatalf("after replace: %+v, want version 3", replaced)
	}
	callWrite(t, svc, map[string]any{"mode": "create", "title": "新しいページ", "content": "本文"})
	created, err := svc.FindByTitle(ctx, "新しいページ")
	if err != nil || created.Version != 1 {
		t.Fatalf("created by the model: %+v, %v; want version 1", created, err)
	}
}

func TestRenameBumpsTheVersionButMovingDoesNot(t *testing.T) {
	svc, _ := openTest(t)
	ctx := context.Background()
	p, _ := svc.Create(ctx, "メモ", "一行目", "")
	title := "改名"
	renamed, err := svc.Update(ctx, p.ID, AnyVersion, &title, nil)
	if err != nil || renamed.Version != 2 {
		t.Fatalf("rename = %+v, %v; want version 2", renamed, err)
	}
	moved, err := svc.SetSection(ctx, p.ID, "s1")
	if err != nil || moved.Version != 2 {
		t.Fatalf("move to a section = %+v, %v; want the version left at 2", moved, err)
	}
}
