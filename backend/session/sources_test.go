package session

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"playchat/backend/store"
)

// A reply's cited sources (issue 11) survive an export and import round
// trip; a file whose source URL is not http(s) is refused.
func TestSourcesSurviveExportAndImportAndOnlyHTTPURLsAreAccepted(t *testing.T) {
	ctx := context.Background()
	db, id := seeded(t)
	const src = `[{"title":"tenki.jp","url":"https://tenki.jp/forecast/"},{"title":"気象庁","url":"http://www.jma.go.jp/"}]`
	m := &store.Message{SessionID: id, Role: store.RoleAssistant, Content: "晴れです [1]", Sources: src}
	if err := db.InsertMessage(ctx, m); err != nil {
		t.Fatal(err)
	}
	data, err := ExportJSON(ctx, db, id)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"sources": [`) {
		t.Fatalf("export lacks sources: %s", data)
	}
	imp, err := ImportReader(ctx, db, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	ms, err := db.SessionMessages(ctx, imp.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	last := ms[len(ms)-1]
	if last.Content != "晴れです [1]" || last.Sources != src {
		t.Errorf("imported reply = %q with sources %q", last.Content, last.Sources)
	}
	bad := strings.Replace(string(data), "https://tenki.jp/forecast/", "javascript:alert(1)", 1)
	if _, err := ImportReader(ctx, db, strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "sources[0].url is not an http or https URL") {
		t.Errorf("javascript: source accepted: %v", err)
	}
}
