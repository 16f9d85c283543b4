package store

import (
	"context"
	"strings"
	"testing"

	"playchat/backend/apperr"
)

// The services cut or refuse an over-long text before it is stored; the
// store refuses one all the same, so no path can write one.
func TestTheStoreRefusesAMessageOverTheLimitAndStoresNothing(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	s, err := db.CreateSession(ctx, "t", "")
	if err != nil {
		t.Fatal(err)
	}
	fits := &Message{SessionID: s.ID, Role: RoleAssistant, Content: strings.Repeat("x", MaxMessageBytes)}
	if err := db.InsertMessage(ctx, fits); err != nil {
		t.Fatalf("a message of exactly 1 MiB: %v", err)
	}
	long := strings.Repeat("x", MaxMessageBytes+1)
	err = db.InsertMessage(ctx, &Message{SessionID: s.ID, Role: RoleAssistant, Content: long})
	if in := apperr.InfoOf(err); in.Code != apperr.ChatMessageTooLong || in.Params["bytes"] != MaxMessageBytes+1 {
		t.Errorf("InsertMessage: %+v", in)
	}
	err = db.InsertBranch(ctx, &Message{SessionID: s.ID, Role: RoleUser, Content: long}, nil)
	if apperr.CodeOf(err) != apperr.ChatMessageTooLong {
		t.Errorf("InsertBranch: %v", err)
	}
	if ms, err := db.SessionMessages(ctx, s.ID); err != nil || len(ms) != 1 {
		t.Errorf("stored %d messages (%v), want only the one that fits", len(ms), err)
	}
}
