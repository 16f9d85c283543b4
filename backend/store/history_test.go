package store

import (
	"context"
	"testing"
)

// TestActiveHistoryIsTheActiveMessagesARequestNeeds checks ActiveHistory
// against ActiveMessages with LoadFiles: the same messages in the same
// order with the same role, text, status and attachments, and none of
// another session's attachments whose messages sit between them.
func TestActiveHistoryIsTheActiveMessagesARequestNeeds(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s1, _ := db.CreateSession(ctx, "", "m")
	s2, _ := db.CreateSession(ctx, "", "m")
	insert := func(m Message) {
		t.Helper()
		if err := db.InsertMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
	}
	insert(Message{SessionID: s1.ID, Role: RoleUser, Content: "one", Files: []MessageFile{fileOf("a.txt", "alpha")}})
	insert(Message{SessionID: s2.ID, Role: RoleUser, Content: "elsewhere", Files: []MessageFile{fileOf("x.txt", "other")}})
	insert(Message{SessionID: s1.ID, Role: RoleAssistant, Content: "reply", Status: StatusPartial, Model: "p/m"})
	insert(Message{SessionID: s2.ID, Role: RoleAssistant, Content: "there"})
	insert(Message{SessionID: s1.ID, Role: RoleUser, Content: "two", Files: []MessageFile{fileOf("b.txt", "beta"), fileOf("c.txt", "gamma")}})

	want, err := db.ActiveMessages(ctx, s1.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.LoadFiles(ctx, want); err != nil {
		t.Fatal(err)
	}
	got, err := db.ActiveHistory(ctx, s1.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || len(want) != 3 {
		t.Fatalf("history %d messages, active %d, want 3", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.ID != w.ID || g.SessionID != w.SessionID || g.Role != w.Role || g.Content != w.Content || g.Status != w.Status ||
			g.Model != w.Model || (g.ParentID == nil) != (w.ParentID == nil) || g.ParentID != nil && *g.ParentID != *w.ParentID ||
			len(g.Files) != len(w.Files) {
			t.Errorf("message %d: %+v, want %+v", i, g, w)
			continue
		}
		for j := range w.Files {
			if g.Files[j].Name != w.Files[j].Name || g.Files[j].Text != w.Files[j].Text {
				t.Errorf("message %d file %d: %+v, want %+v", i, j, g.Files[j], w.Files[j])
			}
		}
	}
	if n := len(got[0].Files) + len(got[2].Files); n != 3 || got[2].Files[1].Name != "c.txt" {
		t.Errorf("files %+v %+v", got[0].Files, got[2].Files)
	}
}
