package app

import (
	"context"
	"testing"

	"playchat/backend/store"
)

// The window's messages are the selected branch with each message's
// versions, and SelectBranch returns the other version's branch.
func TestMessagesCarryVersionsAndSelectBranchSwitchesToTheOther(t *testing.T) {
	a, _ := newTestApp(t)
	c, _ := a.backend()
	ctx := context.Background()
	sess, _ := c.DB.CreateSession(ctx, "", "")
	add := func(role, text string) store.Message {
		m := store.Message{SessionID: sess.ID, Role: role, Content: text}
		if err := c.DB.InsertMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	q := add(store.RoleUser, "質問")
	add(store.RoleAssistant, "答え1")
	q2 := store.Message{SessionID: sess.ID, Role: store.RoleUser, Content: "質問（編集）"}
	if err := c.DB.InsertBranch(ctx, &q2, nil); err != nil {
		t.Fatal(err)
	}
	s := &SessionService{a}
	ms, err := s.Messages(sess.ID)
	if err != nil || len(ms) != 1 || ms[0].Content != "質問（編集）" || len(ms[0].SiblingIDs) != 2 ||
		ms[0].SiblingIDs[0] != q.ID || ms[0].SiblingIDs[1] != q2.ID || ms[0].ParentID != 0 {
		t.Fatalf("messages = %+v, %v", ms, err)
	}
	ms, err = s.SelectBranch(sess.ID, q.ID)
	if err != nil || len(ms) != 2 || ms[0].Content != "質問" || ms[1].Content != "答え1" ||
		len(ms[1].SiblingIDs) != 0 || ms[1].ParentID != q.ID {
		t.Fatalf("after switching = %+v, %v", ms, err)
	}
	if _, err := s.SelectBranch(sess.ID, 99999); err == nil {
		t.Fatal("switching to a message of no session worked")
	}
}
