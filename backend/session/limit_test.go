package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"playchat/backend/apperr"
	"playchat/backend/store"
)

// tenMiB is the size of the over-long messages below: what a looping model
// wrote before replies were capped, ten times the limit.
const tenMiB = 10 << 20

func TestCapMessageKeepsATextAtTheLimitAndCutsALongerOneWithAMarker(t *testing.T) {
	fits := strings.Repeat("x", MaxMessageBytes)
	if got, cut := CapMessage(fits); cut || got != fits {
		t.Errorf("a text of exactly 1 MiB was changed (cut %v)", cut)
	}
	for name, text := range map[string]string{
		"ASCII lines":                   strings.Repeat("The quick brown fox jumps over the lazy dog.\n", tenMiB/45),
		"one Japanese line":             strings.Repeat("吾輩は猫である。", tenMiB/24),
		"ASCII without a line break":    strings.Repeat("a", MaxMessageBytes+1),
		"a code block open at the cut":  "intro\n\n````go\n" + strings.Repeat("x := 1 // ``` not a close\n", tenMiB/28) + "````\n",
		"a code block closed before it": "```\ncode\n```\n\n" + strings.Repeat("text line\n", tenMiB/10),
	} {
		t.Run(name, func(t *testing.T) {
			got, cut := CapMessage(text)
			if !cut || len(got) > MaxMessageBytes || len(got) < MaxMessageBytes-8192 {
				t.Fatalf("cut %v, %d bytes: want cut to at most %d and close to it", cut, len(got), MaxMessageBytes)
			}
			if !utf8.ValidString(got) {
				t.Error("the cut text is not valid UTF-8")
			}
			marker := fmt.Sprintf("\n\n[message cut: it was %.1f MiB; playchat keeps at most 1 MiB of one message]", float64(len(text))/(1<<20))
			if !strings.HasSuffix(got, marker) {
				t.Errorf("the text ends %q, want the marker %q", got[len(got)-120:], marker)
			}
			body := strings.TrimSuffix(got, marker)
			if !strings.HasPrefix(text, strings.TrimSuffix(body, "\n````")) {
				t.Error("what is kept is not the beginning of the text")
			}
			if openFenceCloser(body) != "" {
				t.Errorf("a code block is left open before the marker (it would swallow it): ends %q", body[len(body)-60:])
			}
		})
	}
	if got, _ := CapMessage("intro\n\n````go\n" + strings.Repeat("x := 1 // ``` not a close\n", tenMiB/28)); !strings.Contains(got, "\n````\n\n[message cut") {
		t.Error("the open ```` fence is not closed with its own marker length")
	}
}

// A playchat session file is refused whatever the role of its over-long
// message, with a code naming it, and nothing is written.
func TestASessionFileWithAnOverLongMessageOfAnyRoleIsRefusedAndChangesNothing(t *testing.T) {
	ctx := context.Background()
	for _, role := range []string{store.RoleUser, store.RoleAssistant, store.RoleSystem} {
		t.Run(role, func(t *testing.T) {
			db, _ := seeded(t)
			loop := strings.Repeat("ループ。", tenMiB/12)
			data := docWith(t, func(d *Document) {
				d.Messages[3].Role = role
				d.Messages[3].Content = loop
			})
			before := countRows(t, db)
			_, err := ImportAny(ctx, db, bytes.NewReader(data), FromAuto)
			if !IsValidation(err) {
				t.Fatalf("err = %v, want a validation error", err)
			}
			in := apperr.InfoOf(err)
			id := in.Params["message"]
			if in.Code != apperr.SessionMessageTooLong || in.Params["role"] != role || in.Params["count"] != 1 ||
				in.Params["bytes"] != len(loop) || in.Params["maxMiB"] != 1 || !strings.HasPrefix(fmt.Sprint(id), "messages[3] (id ") {
				t.Fatalf("error %+v", in)
			}
			want := fmt.Sprintf("invalid session file: %s (%s) is %d bytes, over the 1 MiB limit of one message (1 of its messages are over it); nothing was imported", id, role, len(loop))
			if in.Message != want {
				t.Errorf("message %q\nwant    %q", in.Message, want)
			}
			if after := countRows(t, db); after != before {
				t.Errorf("rows %v after a refused import, %v before", after, before)
			}
		})
	}
}

func TestAnOverLongMessageNextToOtherProblemsIsListedWithThem(t *testing.T) {
	db, _ := seeded(t)
	data := docWith(t, func(d *Document) {
		d.Messages[1].Content = strings.Repeat("x", MaxMessageBytes+1)
		d.Messages[2].Content = strings.Repeat("y", MaxMessageBytes+2)
		d.Messages[4].Status = "finished"
	})
	_, err := ImportAny(context.Background(), db, bytes.NewReader(data), FromNative)
	in := apperr.InfoOf(err)
	detail, _ := in.Params["detail"].(string)
	if in.Code != apperr.SessionInvalidFile || !strings.Contains(detail, "(assistant) is 1048577 bytes, over the 1 MiB limit") ||
		!strings.Contains(detail, "(user) is 1048578 bytes") || !strings.Contains(detail, `messages[4].status "finished"`) {
		t.Errorf("error %+v", in)
	}
	// Only over-long messages: the count says how many.
	data = docWith(t, func(d *Document) {
		d.Messages[1].Content = strings.Repeat("x", MaxMessageBytes+1)
		d.Messages[2].Content = strings.Repeat("y", MaxMessageBytes+2)
	})
	_, err = ImportAny(context.Background(), db, bytes.NewReader(data), FromNative)
	if in := apperr.InfoOf(err); in.Code != apperr.SessionMessageTooLong || in.Params["count"] != 2 || in.Params["role"] != store.RoleAssistant {
		t.Errorf("two over-long messages: %+v", in)
	}
}

// A ChatGPT or Claude export keeps every conversation: an over-long message
// of either role is cut at the limit with a visible marker and counted.
func TestAnExportWithA10MiBReplyIsImportedWithTheReplyCutAtTheLimit(t *testing.T) {
	huge := strings.Repeat("同じことを繰り返します。\n", tenMiB/37)
	bigQuestion := strings.Repeat("q", MaxMessageBytes+10)
	gpt := map[string]any{"title": "loop", "create_time": 1714550400.0, "current_node": "a",
		"mapping": map[string]any{
			"u": map[string]any{"id": "u", "children": []string{"a"}, "message": map[string]any{"author": map[string]any{"role": "user"},
				"create_time": 1714550401.0, "content": map[string]any{"content_type": "text", "parts": []string{bigQuestion}}}},
			"a": map[string]any{"id": "a", "parent": "u", "children": []string{}, "message": map[string]any{"author": map[string]any{"role": "assistant"},
				"create_time": 1714550402.0, "content": map[string]any{"content_type": "text", "parts": []string{huge}}}},
		}}
	claude := map[string]any{"name": "loop", "created_at": "2024-05-01T09:30:00Z", "updated_at": "2024-05-01T09:30:00Z",
		"chat_messages": []any{
			map[string]any{"sender": "human", "text": bigQuestion, "created_at": "2024-05-01T09:30:01Z"},
			map[string]any{"sender": "assistant", "text": huge, "created_at": "2024-05-01T09:30:02Z"},
		}}
	for name, export := range map[string]any{FromChatGPT: gpt, FromClaude: claude} {
		t.Run(name, func(t *testing.T) {
			db := emptyDB(t)
			data, err := json.Marshal([]any{export})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := ImportAny(context.Background(), db, bytes.NewReader(data), FromAuto)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Format != name || rep.Sessions != 1 || rep.Messages != 2 || rep.Truncated != 2 {
				t.Fatalf("report %+v", rep)
			}
			ms := sessionsByTitle(t, db)["loop"]
			if len(ms) != 2 {
				t.Fatalf("stored %d messages", len(ms))
			}
			for i, want := range []string{bigQuestion, huge} {
				m := ms[i]
				if len(m.Content) > MaxMessageBytes || !strings.HasSuffix(m.Content, "playchat keeps at most 1 MiB of one message]") ||
					!strings.HasPrefix(want, m.Content[:1000]) {
					t.Errorf("%s message: %d bytes, ends %q", m.Role, len(m.Content), m.Content[len(m.Content)-80:])
				}
			}
		})
	}
}

// countRows counts sessions and messages.
func countRows(t *testing.T, db *store.DB) [2]int {
	t.Helper()
	var n [2]int
	for i, table := range []string{"sessions", "messages"} {
		c, err := db.Bun().NewSelect().Table(table).Count(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		n[i] = c
	}
	return n
}
