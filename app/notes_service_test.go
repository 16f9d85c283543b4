package app

import (
	"context"
	"testing"
)

func TestNotesSaveFromAnOldVersionReturnsTheCurrentPageUnsaved(t *testing.T) {
	a, _ := newTestApp(t)
	n := &NotesService{a}
	p, err := n.Create("メモ", "一行目", "")
	if err != nil || p.Version != 1 {
		t.Fatalf("create = %+v, %v; want version 1", p, err)
	}
	// The model appends while the user's draft (from version 1) is open.
	c, _ := a.backend()
	if _, err := c.Notes.Update(context.Background(), p.ID, p.Version, nil, textPtr("一行目\nAIの行")); err != nil {
		t.Fatal(err)
	}

	res, err := n.Update(p.ID, "メモ", "一行目\n私の行", p.Version)
	if err != nil || res.Saved || res.Page.Version != 2 || res.Page.Content != "一行目\nAIの行" {
		t.Fatalf("stale save = %+v, %v; want not saved, carrying version 2 with the AI's line", res, err)
	}
	list, _ := n.List()
	if len(list) != 1 || list[0].Content != "一行目\nAIの行" {
		t.Fatalf("stored after a refused save: %+v", list)
	}

	res, err = n.Update(p.ID, "メモ", "一行目\nAIの行\n私の行", res.Page.Version)
	if err != nil || !res.Saved || res.Page.Version != 3 || res.Page.Content != "一行目\nAIの行\n私の行" {
		t.Fatalf("save from the current version = %+v, %v", res, err)
	}
	if _, err := n.Update(p.ID, "メモ", "x", 0); err == nil {
		t.Fatal("a save without a base version was accepted")
	}
}

func textPtr(s string) *string { return &s }
