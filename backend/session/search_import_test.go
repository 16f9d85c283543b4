package session

import (
	"bytes"
	"context"
	"testing"

	"playchat/backend/store"
)

// Messages an import writes (they bypass store.InsertMessage) are found by
// the search across chats, and go from it with their session.
func TestImportedMessagesAreSearchable(t *testing.T) {
	ctx := context.Background()
	db := emptyDB(t)
	parsed, err := ParseAny(bytes.NewReader(fixture(t, "chatgpt_conversations.json")), FromChatGPT)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ImportParsed(ctx, db, parsed)
	if err != nil {
		t.Fatal(err)
	}
	hits, err := db.SearchMessages(ctx, store.MessageSearch{Text: "東京の天気"})
	if err != nil || len(hits) != 1 || hits[0].Role != store.RoleUser {
		t.Fatalf("hits = %+v, %v (import %+v)", hits, err, res)
	}
	if err := db.DeleteSession(ctx, hits[0].SessionID); err != nil {
		t.Fatal(err)
	}
	if hits, err := db.SearchMessages(ctx, store.MessageSearch{Text: "東京の天気"}); err != nil || len(hits) != 0 {
		t.Fatalf("after deleting the session: %+v, %v", hits, err)
	}
}
