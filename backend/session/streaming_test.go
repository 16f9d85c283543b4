package session

import (
	"bytes"
	"context"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/store"
)

// A reply still streaming when its chat is exported (another process is
// writing it) goes into the file as a partial reply that says so, which
// an import accepts.
func TestAReplyStillStreamingIsExportedAsUnfinished(t *testing.T) {
	ctx := context.Background()
	db, id := seeded(t)
	r := &store.Message{SessionID: id, Role: store.RoleAssistant, Content: "まだ書いて", Status: store.StatusStreaming}
	if err := db.InsertMessage(ctx, r); err != nil {
		t.Fatal(err)
	}
	doc, err := Export(ctx, db, id)
	if err != nil {
		t.Fatal(err)
	}
	last := doc.Messages[len(doc.Messages)-1]
	if last.ID != r.ID || last.Status != store.StatusPartial || last.Content != "まだ書いて" ||
		last.Error != apperr.New(apperr.ChatReplyUnfinished, nil).Error() {
		t.Fatalf("exported as %+v", last)
	}
	data, err := ExportJSON(ctx, db, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ImportReader(ctx, db, bytes.NewReader(data)); err != nil {
		t.Fatalf("the export does not import: %v", err)
	}
}
