package session

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"playchat/backend/store"
)

func emptyDB(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// sessionsByTitle lists the stored sessions with their messages, keyed by
// title.
func sessionsByTitle(t *testing.T, db *store.DB) map[string][]store.Message {
	t.Helper()
	ctx := context.Background()
	ss, err := db.ListSessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]store.Message{}
	for _, s := range ss {
		ms, err := db.BranchMessages(ctx, s.ID) // the selected branch
		if err != nil {
			t.Fatal(err)
		}
		out[s.Title] = ms
	}
	return out
}

func contents(ms []store.Message) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Role+": "+m.Content)
	}
	return out
}

func TestSniffNamesEachFormat(t *testing.T) {
	cases := map[string]string{
		"chatgpt_conversations.json": FromChatGPT,
		"claude_conversations.json":  FromClaude,
	}
	for file, want := range cases {
		if got, err := Sniff(fixture(t, file)); err != nil || got != want {
			t.Errorf("%s sniffed as %q, %v; want %q", file, got, err, want)
		}
	}
	if got, err := Sniff([]byte("\ufeff {\"format\":\"playchat-session\",\"version\":1}")); err != nil || got != FromNative {
		t.Errorf("a native file sniffed as %q, %v", got, err)
	}
	if got, err := Sniff([]byte(`{"mapping":{},"title":"one"}`)); err != nil || got != FromChatGPT {
		t.Errorf("one ChatGPT conversation sniffed as %q, %v", got, err)
	}
	for _, bad := range []string{``, `[]`, `[1]`, `{"x":1}`, `[{"x":1}]`, `not json`, `[{"mapping":`} {
		if got, err := Sniff([]byte(bad)); err == nil || !IsValidation(err) {
			t.Errorf("%q sniffed as %q, %v; want a validation error", bad, got, err)
		}
	}
}

func TestChatGPTExportImportsTheShownBranchWithPlaceholdersAndCounts(t *testing.T) {
	db := emptyDB(t)
	rep, err := ImportAny(context.Background(), db, bytes.NewReader(fixture(t, "chatgpt_conversations.json")), FromChatGPT)
	if err != nil {
		t.Fatal(err)
	}
	// 6 messages on the shown branches, 3 on the Tokyo conversation's two others.
	want := Report{Format: FromChatGPT, Sessions: 2, Messages: 9, Placeholders: 4, Skipped: 5, SkippedConversations: 1, Branches: 2}
	got := rep
	got.Session = store.Session{}
	if got != want {
		t.Fatalf("report = %+v\nwant     %+v", got, want)
	}
	if rep.Session.Title != "東京の天気について" {
		t.Errorf("first session = %+v", rep.Session)
	}
	byTitle := sessionsByTitle(t, db)
	if len(byTitle) != 2 {
		t.Fatalf("sessions = %v", byTitle)
	}
	tokyo := byTitle["東京の天気について"]
	wantTokyo := []string{
		"user: 明日の東京の天気は？",
		"assistant: 晴れの予報です。",
		"user: [image omitted]\n\nこの画像の気温を計算して",
		"assistant: [tool call omitted: python]\n\n[tool output omitted: python]\n\n気温は23度です。",
	}
	if g := contents(tokyo); strings.Join(g, "|") != strings.Join(wantTokyo, "|") {
		t.Errorf("the current branch imported as\n%q\nwant\n%q", g, wantTokyo)
	}
	if len(tokyo) == 4 && (tokyo[1].Model != "gpt-4o" || tokyo[3].Model != "gpt-4o-mini" || tokyo[0].Model != "") {
		t.Errorf("models = %q %q %q", tokyo[0].Model, tokyo[1].Model, tokyo[3].Model)
	}
	if len(tokyo) > 0 && !tokyo[0].CreatedAt.Equal(time.Unix(1714550401, 0)) {
		t.Errorf("first message time = %v", tokyo[0].CreatedAt)
	}
	// The title's ESC is cleaned away; the null slot between messages and the
	// missing current_node do not stop the import.
	multi := byTitle["Multi-part and a picture"]
	wantMulti := []string{"user: First part.\n\nSecond part.", "assistant: Drawing a cat.\n\n[image omitted]"}
	if g := contents(multi); strings.Join(g, "|") != strings.Join(wantMulti, "|") {
		t.Errorf("multi-part conversation imported as %q, want %q", g, wantMulti)
	}
	for title, ms := range byTitle {
		for _, m := range ms {
			for _, never := range []string{"older answer", "before it was edited", "You are a helpful", "Answer briefly", "DALL-E displayed"} {
				if strings.Contains(m.Content, never) {
					t.Errorf("%s: %q from another branch, a system or a hidden message was imported", title, m.Content)
				}
			}
		}
	}
	ss, _ := db.ListSessions(context.Background())
	for _, s := range ss {
		if s.Title == "東京の天気について" && (!s.CreatedAt.Equal(time.UnixMicro(1714550400123456)) || !s.UpdatedAt.Equal(time.Unix(1714554000, 5e8))) {
			t.Errorf("times = %v / %v", s.CreatedAt, s.UpdatedAt)
		}
		if s.Model != "" {
			t.Errorf("session %q has model %q; an import leaves it to DEFAULT_MODEL", s.Title, s.Model)
		}
	}
}

func TestClaudeExportImportsEveryConversationWithPlaceholdersAndCounts(t *testing.T) {
	db := emptyDB(t)
	rep, err := ImportAny(context.Background(), db, bytes.NewReader(fixture(t, "claude_conversations.json")), FromAuto)
	if err != nil {
		t.Fatal(err)
	}
	want := Report{Format: FromClaude, Sessions: 2, Messages: 6, Placeholders: 5, Skipped: 1, SkippedConversations: 1}
	got := rep
	got.Session = store.Session{}
	if got != want {
		t.Fatalf("report = %+v\nwant     %+v", got, want)
	}
	byTitle := sessionsByTitle(t, db)
	rust := byTitle["Rustの所有権"]
	wantRust := []string{
		"user: [attachment: notes.txt]\n\nこのメモについて質問です",
		"assistant: 調べます。\n\n[tool call omitted: web_search]\n\n[tool result omitted: web_search]\n\n所有権とは、値の持ち主が一つだけという規則です。",
		"user: [file: diagram.png]\n\nこの図は？",
		"assistant: An older export has only text.",
	}
	if g := contents(rust); strings.Join(g, "|") != strings.Join(wantRust, "|") {
		t.Errorf("imported as\n%q\nwant\n%q", g, wantRust)
	}
	if strings.Contains(strings.Join(contents(rust), ""), "Example notes") {
		t.Error("an attachment's extracted text was imported")
	}
	untitled := byTitle[""]
	if g := contents(untitled); strings.Join(g, "|") != "user: Hello|assistant: [thinking omitted]\n\nHi there." {
		t.Errorf("the untitled conversation imported as %q", g)
	}
	if len(rust) > 0 && !rust[0].CreatedAt.Equal(time.Date(2024, 5, 1, 9, 30, 1, 0, time.UTC)) {
		t.Errorf("message time = %v", rust[0].CreatedAt)
	}
}

// brokenExports are files that must change nothing: each is a valid
// conversation next to a broken one, so a partial import would show.
func brokenExports(t *testing.T) map[string][]byte {
	good := map[string]any{"title": "fine", "create_time": 1714550400.0, "current_node": "u",
		"mapping": map[string]any{"u": map[string]any{"id": "u", "parent": nil, "children": []string{},
			"message": map[string]any{"author": map[string]any{"role": "user"}, "create_time": 1714550401.0,
				"content": map[string]any{"content_type": "text", "parts": []string{"hi"}}}}}}
	withTitle := func(title string, text string) map[string]any {
		c := map[string]any{}
		data, _ := json.Marshal(good)
		_ = json.Unmarshal(data, &c)
		c["title"] = title
		c["mapping"].(map[string]any)["u"].(map[string]any)["message"].(map[string]any)["content"].(map[string]any)["parts"] = []string{text}
		return c
	}
	mustJSON := func(v any) []byte {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	claudeGood := map[string]any{"name": "fine", "created_at": "2024-05-01T09:30:00Z", "updated_at": "2024-05-01T09:30:00Z",
		"chat_messages": []any{map[string]any{"sender": "human", "text": "hi", "created_at": "2024-05-01T09:30:01Z"}}}
	claudeBadTime := map[string]any{"name": "bad", "created_at": "yesterday", "chat_messages": []any{}}
	return map[string][]byte{
		"bad JSON":                      []byte(`[{"title":"x","mapping":{}`),
		"1 MiB control-character title": mustJSON([]any{good, withTitle(strings.Repeat("A\x1b\x07\x00", 1<<18), "hi")}),
		"title over 200 characters":     mustJSON([]any{good, withTitle(strings.Repeat("長", 201), "hi")}),
		"model with control characters": mustJSON([]any{good, map[string]any{"title": "m", "create_time": 1714550400.0, "mapping": map[string]any{
			"a": map[string]any{"id": "a", "children": []string{}, "message": map[string]any{"author": map[string]any{"role": "assistant"},
				"content": map[string]any{"content_type": "text", "parts": []string{"ok"}}, "metadata": map[string]any{"model_slug": "gpt\x1b[31m"}}}}}}),
		"claude bad time":       mustJSON([]any{claudeGood, claudeBadTime}),
		"claude title too long": mustJSON([]any{claudeGood, map[string]any{"name": strings.Repeat("長", 201), "created_at": "2024-05-01T09:30:00Z", "chat_messages": claudeGood["chat_messages"]}}),
	}
}

func TestABrokenExportChangesNothing(t *testing.T) {
	db := emptyDB(t)
	ctx := context.Background()
	for name, data := range brokenExports(t) {
		_, err := ImportAny(ctx, db, bytes.NewReader(data), FromAuto)
		if err == nil || !IsValidation(err) {
			t.Errorf("%s: err = %v, want a validation error", name, err)
			continue
		}
		if msg := err.Error(); strings.ContainsAny(msg, "\x1b\x07\x00") || len(msg) > 4000 {
			t.Errorf("%s: the error repeats the file's control characters or size: %.200q", name, msg)
		}
	}
	if ss, _ := db.ListSessions(ctx); len(ss) != 0 {
		t.Errorf("a refused file left %d sessions", len(ss))
	}
}

func TestAFailingWriteRollsBackEveryConversation(t *testing.T) {
	db := emptyDB(t)
	ctx := context.Background()
	b, err := ParseChatGPT(fixture(t, "chatgpt_conversations.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The second conversation's second message fails in the database (a
	// trigger stands in for a full disk), after the first was written.
	if _, err := db.Bun().ExecContext(ctx, `CREATE TRIGGER fail_import BEFORE INSERT ON messages
		WHEN NEW.content LIKE 'Drawing a cat.%' BEGIN SELECT RAISE(ABORT, 'disk full'); END`); err != nil {
		t.Fatal(err)
	}
	if _, err := ImportBatch(ctx, db, b); err == nil || IsValidation(err) {
		t.Fatalf("err = %v, want the storage failure", err)
	}
	if ss, _ := db.ListSessions(ctx); len(ss) != 0 {
		t.Errorf("a failed import left %d sessions", len(ss))
	}
}

func TestParseAnyRefusesAnUnknownFormatAndReadsNativeFiles(t *testing.T) {
	if _, err := ParseAny(strings.NewReader(`[]`), "gemini"); !IsValidation(err) {
		t.Errorf("unknown format: %v", err)
	}
	db, id := seeded(t)
	ctx := context.Background()
	data, err := ExportJSON(ctx, db, id)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ImportAny(ctx, db, bytes.NewReader(data), FromAuto)
	if err != nil || rep.Format != FromNative || rep.Sessions != 1 || rep.Messages != 6 || rep.Memories != 1 {
		t.Fatalf("native import by sniffing = %+v, %v", rep, err)
	}
	// A ChatGPT file named as Claude's is refused, not half-read.
	if _, err := ParseAny(bytes.NewReader(fixture(t, "chatgpt_conversations.json")), FromNative); !IsValidation(err) {
		t.Errorf("a ChatGPT file read as native: %v", err)
	}
}

func TestChatGPTQuirksOneObjectABOMAVoiceTranscriptAndAParentLoop(t *testing.T) {
	// One conversation exported alone, after a byte-order mark; the user
	// spoke (a transcript part next to the audio); the tree's parents form a
	// loop, which must not hang the import.
	data := "\ufeff" + `{"title":"voice","create_time":1714550400,"current_node":"b","mapping":{
		"a":{"id":"a","parent":"b","children":["b"],"message":{"author":{"role":"user"},"create_time":1714550401,
			"content":{"content_type":"multimodal_text","parts":[
				{"content_type":"audio_transcription","text":"こんにちは"},
				{"content_type":"audio_asset_pointer","asset_pointer":"sediment://x"}]}}},
		"b":{"id":"b","parent":"a","children":["a"],"message":{"author":{"role":"assistant"},"create_time":1714550402,
			"content":{"content_type":"text","parts":["やあ"]},"metadata":{"model_slug":"gpt-4o"}}}}}`
	p, err := ParseAny(strings.NewReader(data), FromAuto)
	if err != nil {
		t.Fatal(err)
	}
	if p.Format != FromChatGPT || len(p.Batch.Conversations) != 1 {
		t.Fatalf("parsed = %+v", p)
	}
	c := p.Batch.Conversations[0]
	var got []string
	for _, m := range c.Messages {
		got = append(got, m.Role+": "+m.Content)
	}
	if strings.Join(got, "|") != "user: こんにちは\n\n[audio omitted]|assistant: やあ" || p.Batch.Placeholders != 1 {
		t.Errorf("messages = %q, placeholders %d", got, p.Batch.Placeholders)
	}
	if !c.UpdatedAt.Equal(time.Unix(1714550402, 0)) {
		t.Errorf("a missing update_time is the last message's: %v", c.UpdatedAt)
	}
}
