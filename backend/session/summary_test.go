package session

import (
	"encoding/json"
	"testing"
	"time"

	"playchat/backend/store"
)

// The window, the export document and `sessions list --json` read these
// exact keys; times go out as RFC 3339 in UTC whatever the stored zone.
func TestSummaryOfKeepsTheListKeysAndWritesUTC(t *testing.T) {
	jst := time.FixedZone("JST", 9*3600)
	s := store.Session{ID: "s1", Title: "東京", Model: "m",
		CreatedAt: time.Date(2026, 1, 2, 9, 0, 0, 0, jst), UpdatedAt: time.Date(2026, 1, 2, 10, 30, 0, 5, jst)}
	b, err := json.Marshal(SummaryOf(s))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"s1","title":"東京","model":"m","createdAt":"2026-01-02T00:00:00Z","updatedAt":"2026-01-02T01:30:00.000000005Z"}`
	if string(b) != want {
		t.Errorf("json = %s\nwant   %s", b, want)
	}
}
