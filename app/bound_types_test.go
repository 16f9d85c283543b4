package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"playchat/backend/event"
	"playchat/backend/store"
)

// KBService.Status binds kb.Status as it is: the window reads these keys,
// "never indexed" is Go's zero time, and failed is an array, never null.
func TestKBStatusIsKBStatusWithTheKeysTheWindowReads(t *testing.T) {
	a, _ := newTestApp(t)
	k := &KBService{a}
	st, err := k.Status()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(st)
	for _, want := range []string{`"failed":[]`, `"lastIndexedAt":"0001-01-01T00:00:00Z"`, `"progress":{"done":0,"total":0}`,
		`"indexed":0`, `"pending":`, `"indexing":`, `"watching":`, `"watchError":`, `"embeddingModel":`, `"embedded":`,
		`"embeddingPending":`, `"embeddingError":`, `"root":`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("status JSON lacks %s: %s", want, b)
		}
	}
	c, _ := a.backend()
	if _, err := c.KB.Reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	st, _ = k.Status()
	if st.Indexed != 1 || st.LastIndexedAt.IsZero() || st.LastIndexedAt.Location().String() != "UTC" {
		t.Errorf("after a pass: indexed %d, lastIndexedAt %v", st.Indexed, st.LastIndexedAt)
	}
}

// A stored reply's tool activity comes back as event.ToolActivity, the turn
// event's own type.
func TestMessageToolsAreTheTurnEventsToolActivity(t *testing.T) {
	acts := []event.ToolActivity{{ID: "t1", Name: "web_search", Label: "Web search", Status: "done", Result: "3 results"}}
	b, _ := json.Marshal(acts)
	m := toMessage(store.Message{ID: 1, SessionID: "s", Role: store.RoleAssistant, Content: "ok", Status: "complete", ToolActivity: string(b)})
	if len(m.Tools) != 1 || m.Tools[0] != acts[0] {
		t.Fatalf("tools = %+v", m.Tools)
	}
	if m = toMessage(store.Message{ID: 2, Role: store.RoleUser}); m.Tools == nil {
		t.Fatal("a message without activity has nil tools; the window expects []")
	}
}

// A stored reply's cited sources come back as the sources event's own type,
// [] when there are none, so the chips survive a reload.
func TestMessageSourcesAreTheTurnEventsSources(t *testing.T) {
	m := toMessage(store.Message{ID: 1, Role: store.RoleAssistant, Sources: `[{"title":"t","url":"https://a.example/"}]`})
	if len(m.Sources) != 1 || m.Sources[0] != (event.Source{Title: "t", URL: "https://a.example/"}) {
		t.Fatalf("sources = %+v", m.Sources)
	}
	if m = toMessage(store.Message{ID: 2, Role: store.RoleUser}); m.Sources == nil {
		t.Fatal("a message without sources has nil sources; the window expects []")
	}
}
