package app

import (
	"context"
	"testing"

	"playchat/backend/store"
)

// The window's message list marks an unanswered question (issue 21): one
// whose reply failed, and the last one when no turn answers it.
func TestMessagesMarkUnansweredQuestions(t *testing.T) {
	a, _ := newTestApp(t)
	ctx := context.Background()
	c := a.core
	sess, err := c.DB.CreateSession(ctx, "t", "openai/x")
	if err != nil {
		t.Fatal(err)
	}
	add := func(role, content, status string) {
		m := store.Message{SessionID: sess.ID, Role: role, Content: content, Status: status}
		if err := c.DB.InsertMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
	}
	add(store.RoleUser, "fails", store.StatusComplete)
	add(store.RoleAssistant, "", store.StatusError)
	add(store.RoleUser, "works", store.StatusComplete)
	add(store.RoleAssistant, "answer", store.StatusComplete)
	add(store.RoleUser, "never answered", store.StatusComplete)
	ms, err := (&SessionService{a}).Messages(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []bool
	for _, m := range ms {
		got = append(got, m.Unanswered)
	}
	want := []bool{true, false, false, false, true}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("unanswered marks = %v, want %v", got, want)
		}
	}
}
