package app

import (
	"context"
	"reflect"
	"testing"

	"playchat/backend/store"
)

// The window's messages carry their tags ([] when untagged), as the chips
// under each message show them.
func TestMessagesCarryTheirTags(t *testing.T) {
	a, _ := newTestApp(t)
	c, _ := a.backend()
	ctx := context.Background()
	sess, _ := c.DB.CreateSession(ctx, "", "")
	q := store.Message{SessionID: sess.ID, Role: store.RoleUser, Content: "京都の紅葉"}
	r := store.Message{SessionID: sess.ID, Role: store.RoleAssistant, Content: "嵐山がおすすめです"}
	for _, m := range []*store.Message{&q, &r} {
		if err := c.DB.InsertMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.DB.AddMessageTags(ctx, q.ID, []string{"京都", "紅葉", "旅行"}); err != nil {
		t.Fatal(err)
	}
	ms, err := (&SessionService{a}).Messages(sess.ID)
	if err != nil || len(ms) != 2 {
		t.Fatalf("messages = %+v, %v", ms, err)
	}
	if !reflect.DeepEqual(ms[0].Tags, []string{"京都", "紅葉", "旅行"}) || ms[1].Tags == nil || len(ms[1].Tags) != 0 {
		t.Fatalf("tags = %q and %q, want the three tags and []", ms[0].Tags, ms[1].Tags)
	}
}
