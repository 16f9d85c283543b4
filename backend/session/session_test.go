package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/store"
)

func seeded(t *testing.T) (*store.DB, string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, _ := db.CreateSession(ctx, "東京の天気", "openai/gpt-4o-mini")
	var ids []int64
	for i := 0; i < 6; i++ {
		role := store.RoleUser
		if i%2 == 1 {
			role = store.RoleAssistant
		}
		m := &store.Message{SessionID: s.ID, Role: role, Content: fmt.Sprintf("メッセージ %d", i)}
		if i == 5 {
			m.Status, m.Error = store.StatusPartial, "stream cut"
		}
		if err := db.InsertMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	if _, err := db.ArchiveIntoMemory(ctx, s.ID, ids[:2], "- ユーザーは東京在住"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Bun().NewInsert().Model(&store.MessageTag{MessageID: ids[3], Tag: "天気"}).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	return db, s.ID
}

func TestExportImportRoundTripsASessionAsANewCopy(t *testing.T) {
	ctx := context.Background()
	db, id := seeded(t)
	data, err := ExportJSON(ctx, db, id)
	if err != nil {
		t.Fatal(err)
	}
	first, err := ImportReader(ctx, db, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	second, err := ImportReader(ctx, db, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if first.Session.ID == id || second.Session.ID == first.Session.ID {
		t.Fatalf("imports must create new sessions: %s %s %s", id, first.Session.ID, second.Session.ID)
	}
	if first.Messages != 6 || first.Memories != 1 {
		t.Fatalf("imported = %+v", first)
	}
	// Re-exporting the copy gives the same content (ids and export time aside).
	orig, _ := Export(ctx, db, id)
	copyDoc, _ := Export(ctx, db, first.Session.ID)
	if len(copyDoc.Messages) != len(orig.Messages) || copyDoc.Session.Title != "東京の天気" {
		t.Fatalf("copy = %+v", copyDoc)
	}
	for i := range orig.Messages {
		o, c := orig.Messages[i], copyDoc.Messages[i]
		if o.Content != c.Content || o.Status != c.Status || o.Error != c.Error || (o.ArchivedAt == nil) != (c.ArchivedAt == nil) ||
			strings.Join(o.Tags, ",") != strings.Join(c.Tags, ",") {
			t.Fatalf("message %d differs: %+v vs %+v", i, o, c)
		}
	}
	if copyDoc.Messages[0].MemoryID == nil || *copyDoc.Messages[0].MemoryID != copyDoc.Memories[0].ID {
		t.Fatal("archived message lost its memory link")
	}
	active, _ := db.ActiveMessages(ctx, first.Session.ID)
	if len(active) != 4 {
		t.Fatalf("active in copy = %d, want 4", len(active))
	}
	// The original is untouched.
	again, _ := Export(ctx, db, id)
	if again.Session.ID != id || len(again.Messages) != 6 {
		t.Fatal("original changed by import")
	}
}

func TestBrokenFilesChangeNothing(t *testing.T) {
	ctx := context.Background()
	db, id := seeded(t)
	good, _ := ExportJSON(ctx, db, id)
	mutate := func(f func(d map[string]any)) string {
		var d map[string]any
		json.Unmarshal(good, &d)
		f(d)
		b, _ := json.Marshal(d)
		return string(b)
	}
	msgs := func(d map[string]any) []any { return d["messages"].([]any) }
	cases := map[string]struct{ file, want string }{
		"not json":                      {"{not json", "not a playchat session file"},
		"empty":                         {"", "not a playchat session file"},
		"other format":                  {mutate(func(d map[string]any) { d["format"] = "chatgpt" }), `format is "chatgpt"`},
		"future version":                {mutate(func(d map[string]any) { d["version"] = 99 }), "version 99"},
		"unknown field":                 {mutate(func(d map[string]any) { d["extra"] = 1 }), "unknown field"},
		"bad role":                      {mutate(func(d map[string]any) { msgs(d)[2].(map[string]any)["role"] = "robot" }), `role "robot"`},
		"bad status":                    {mutate(func(d map[string]any) { msgs(d)[2].(map[string]any)["status"] = "done" }), `status "done"`},
		"dangling memory":               {mutate(func(d map[string]any) { msgs(d)[0].(map[string]any)["memoryId"] = 777 }), "memoryId 777"},
		"duplicate id":                  {mutate(func(d map[string]any) { msgs(d)[1].(map[string]any)["id"] = msgs(d)[0].(map[string]any)["id"] }), "used twice"},
		"bad time":                      {mutate(func(d map[string]any) { msgs(d)[1].(map[string]any)["createdAt"] = "yesterday" }), "not a playchat session file"},
		"trailing data":                 {string(good) + "{}", "after top-level value"},
		"newer version with new fields": {mutate(func(d map[string]any) { d["version"] = 999; d["newField"] = true }), "version 999 is not supported"},
		"no messages":                   {mutate(func(d map[string]any) { delete(d, "messages") }), "no messages list"},
		"null messages":                 {mutate(func(d map[string]any) { d["messages"] = nil }), "no messages list"},
		"wrong type":                    {mutate(func(d map[string]any) { msgs(d)[0].(map[string]any)["content"] = 5 }), "messages.content should be text, not a JSON number"},
		"memory without archive":        {mutate(func(d map[string]any) { delete(msgs(d)[0].(map[string]any), "archivedAt") }), "memoryId but no archivedAt"},
	}
	before, _ := db.ListSessions(ctx)
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := ImportReader(ctx, db, strings.NewReader(c.file))
			if err == nil || !IsValidation(err) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want a validation error mentioning %q", err, c.want)
			}
		})
	}
	after, _ := db.ListSessions(ctx)
	if len(after) != len(before) {
		t.Fatalf("a broken import wrote a session: %d → %d", len(before), len(after))
	}
}

func TestASessionWhoseMemoryWasDeletedStillRoundTrips(t *testing.T) {
	ctx := context.Background()
	db, id := seeded(t)
	mems, _ := db.ActiveMemories(ctx, id)
	if err := db.DeleteMemory(ctx, mems[0].ID); err != nil {
		t.Fatal(err)
	}
	data, err := ExportJSON(ctx, db, id)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ImportReader(ctx, db, bytes.NewReader(data))
	if err != nil {
		t.Fatalf("a file this playchat exported was refused: %v", err)
	}
	msgs, _ := db.SessionMessages(ctx, res.Session.ID)
	if msgs[0].ArchivedAt == nil || msgs[0].MemoryID != nil {
		t.Fatalf("archived message without memory imported as %+v", msgs[0])
	}
	if list, _ := db.ListSessions(ctx); list[0].ID != res.Session.ID {
		t.Fatal("the imported copy is not at the top of the list")
	}
}
