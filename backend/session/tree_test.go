package session

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"playchat/backend/store"
)

// shape renders a session's tree as "content<parent content" lines in id
// order, and its selected branch, so two copies with different ids compare.
func shape(t *testing.T, db *store.DB, sid string) (string, string) {
	t.Helper()
	ctx := context.Background()
	all, err := db.SessionMessages(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[int64]string{}
	var tree []string
	for _, m := range all {
		byID[m.ID] = m.Content
		p := "-"
		if m.ParentID != nil {
			p = byID[*m.ParentID]
		}
		tree = append(tree, m.Content+"<"+p)
	}
	branch, err := db.BranchMessages(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	var sel []string
	for _, m := range branch {
		sel = append(sel, m.Content)
	}
	return strings.Join(tree, ","), strings.Join(sel, ",")
}

func TestExportImportRoundTripKeepsTheMessageTreeAndTheSelectedBranch(t *testing.T) {
	ctx := context.Background()
	db, id := seeded(t) // six messages, the first two archived
	ms, _ := db.BranchMessages(ctx, id)
	// An edit of message 2 with its reply, then back to the first version.
	edit := store.Message{SessionID: id, Role: store.RoleUser, Content: "編集版"}
	if err := db.InsertBranch(ctx, &edit, ms[2].ParentID); err != nil {
		t.Fatal(err)
	}
	if err := db.InsertMessage(ctx, &store.Message{SessionID: id, Role: store.RoleAssistant, Content: "編集版への返答"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SelectBranch(ctx, id, ms[2].ID); err != nil {
		t.Fatal(err)
	}
	wantTree, wantBranch := shape(t, db, id)
	if !strings.Contains(wantTree, "編集版<メッセージ 1") || wantBranch != "メッセージ 0,メッセージ 1,メッセージ 2,メッセージ 3,メッセージ 4,メッセージ 5" {
		t.Fatalf("setup: tree %s, branch %s", wantTree, wantBranch)
	}

	data, err := ExportJSON(ctx, db, id)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"parentId"`)) || !bytes.Contains(data, []byte(`"activeLeafId"`)) || !bytes.Contains(data, []byte(`"version": 4`)) {
		t.Fatalf("export lacks the tree:\n%s", data)
	}
	imp, err := ImportReader(ctx, db, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	gotTree, gotBranch := shape(t, db, imp.Session.ID)
	if gotTree != wantTree || gotBranch != wantBranch {
		t.Fatalf("imported tree %s\nbranch %s\nwant %s\nbranch %s", gotTree, gotBranch, wantTree, wantBranch)
	}
	// The other branch is still there to switch to.
	all, _ := db.SessionMessages(ctx, imp.Session.ID)
	for _, m := range all {
		if m.Content == "編集版" {
			if _, err := db.SelectBranch(ctx, imp.Session.ID, m.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, b := shape(t, db, imp.Session.ID); b != "メッセージ 0,メッセージ 1,編集版,編集版への返答" {
		t.Fatalf("imported other branch = %s", b)
	}
}

func TestAVersionOneFileWithoutParentsImportsAsOneBranch(t *testing.T) {
	ctx := context.Background()
	db, _ := seeded(t)
	doc := `{"format":"playchat-session","version":1,"exportedAt":"2026-01-01T00:00:00Z",
		"session":{"id":"x","title":"古い","model":"","createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"},
		"memories":[],
		"messages":[
			{"id":7,"role":"user","content":"一","status":"complete","createdAt":"2026-01-01T00:00:00Z"},
			{"id":3,"role":"assistant","content":"二","status":"complete","createdAt":"2026-01-01T00:00:01Z"},
			{"id":9,"role":"user","content":"三","status":"complete","createdAt":"2026-01-01T00:00:02Z"}]}`
	imp, err := ImportReader(ctx, db, strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	tree, branch := shape(t, db, imp.Session.ID)
	if tree != "一<-,二<一,三<二" || branch != "一,二,三" {
		t.Fatalf("tree %s, branch %s", tree, branch)
	}
}

func TestAParentAfterItsChildIsRefusedAndNothingIsWritten(t *testing.T) {
	ctx := context.Background()
	db, _ := seeded(t)
	before, _ := db.ListSessions(ctx)
	doc := `{"format":"playchat-session","version":2,"exportedAt":"2026-01-01T00:00:00Z",
		"session":{"id":"x","title":"壊れた木","model":"","createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"},
		"activeLeafId":42,"memories":[],
		"messages":[
			{"id":1,"parentId":2,"role":"user","content":"一","status":"complete","createdAt":"2026-01-01T00:00:00Z"},
			{"id":2,"role":"assistant","content":"二","status":"complete","createdAt":"2026-01-01T00:00:01Z"}]}`
	_, err := ImportReader(ctx, db, strings.NewReader(doc))
	if !IsValidation(err) || !strings.Contains(err.Error(), "parentId 2") || !strings.Contains(err.Error(), "activeLeafId 42") {
		t.Fatalf("import of a broken tree: %v", err)
	}
	if after, _ := db.ListSessions(ctx); len(after) != len(before) {
		t.Fatalf("a refused file wrote a session")
	}
}

func TestChatGPTBranchesAreImportedAsVersionsWithTheShownOneSelected(t *testing.T) {
	db := emptyDB(t)
	ctx := context.Background()
	if _, err := ImportAny(ctx, db, bytes.NewReader(fixture(t, "chatgpt_conversations.json")), FromChatGPT); err != nil {
		t.Fatal(err)
	}
	var sid string
	ss, _ := db.ListSessions(ctx)
	for _, s := range ss {
		if s.Title == "東京の天気について" {
			sid = s.ID
		}
	}
	tree, branch := shape(t, db, sid)
	// The regenerated answer is a sibling of the shown one under the first
	// question; the question before its edit (with its answer) a sibling of
	// the edited one under the first answer.
	wantTree := "明日の東京の天気は？<-," +
		"An older answer that was regenerated.<明日の東京の天気は？," +
		"晴れの予報です。<明日の東京の天気は？," +
		"A question before it was edited<晴れの予報です。," +
		"The answer to the unedited question.<A question before it was edited," +
		"[image omitted]\n\nこの画像の気温を計算して<晴れの予報です。," +
		"[tool call omitted: python]\n\n[tool output omitted: python]\n\n気温は23度です。<[image omitted]\n\nこの画像の気温を計算して"
	if tree != wantTree {
		t.Fatalf("tree =\n%s\nwant\n%s", tree, wantTree)
	}
	if !strings.HasSuffix(branch, "気温は23度です。") || strings.Contains(branch, "older answer") {
		t.Fatalf("selected branch = %s, want the one ending at current_node", branch)
	}
	// Switching to the unedited question shows its answer.
	all, _ := db.SessionMessages(ctx, sid)
	for _, m := range all {
		if m.Content == "A question before it was edited" {
			if _, err := db.SelectBranch(ctx, sid, m.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, b := shape(t, db, sid); b != "明日の東京の天気は？,晴れの予報です。,A question before it was edited,The answer to the unedited question." {
		t.Fatalf("other branch = %s", b)
	}
}
