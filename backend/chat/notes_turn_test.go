package chat_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"playchat/backend/chat"
	"playchat/backend/event"
	"playchat/backend/llm/llmtest"
	"playchat/backend/notes"
)

func TestTheModelCreatesANoteThenAnswers(t *testing.T) {
	args := `{"mode":"create","title":"買い物リスト","content":"牛乳\n卵","section":"家"}`
	styles := map[string]llmtest.Response{
		// OpenAI: id and name first, arguments split across chunks.
		"split": {ToolCallChunks: []string{
			`[{"index":0,"id":"call_w","type":"function","function":{"name":"write_note","arguments":""}}]`,
			`[{"index":0,"function":{"arguments":"{\"mode\":\"create\",\"title\":\"買い物"}}]`,
			`[{"index":0,"function":{"arguments":"リスト\",\"content\":\"牛乳\\n卵\",\"section\":\"家\"}"}}]`,
		}},
		// Ollama: the whole call in one chunk, no index, finish_reason "stop".
		"whole": {ToolCallChunks: []string{
			`[{"id":"call_w","type":"function","function":{"name":"write_note","arguments":` + jsonString(args) + `}}]`,
		}, FinishReason: "stop"},
	}
	for name, first := range styles {
		t.Run(name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			c := newCore(t, srv)
			srv.Enqueue(first, llmtest.Text("「買い物リスト」を作りました。", 3))
			res, rec, _ := turn(t, c, "", "買い物リストを作って")
			if res.Err != nil || res.Reply.Content != "「買い物リスト」を作りました。" {
				t.Fatalf("result = %+v", res)
			}
			if got := rec.types(); got != "session_id,tool,tool,notes_updated,chunk,done" {
				t.Fatalf("events = %s", got)
			}
			if a := rec.events[1].Value.(event.ToolActivity); a.Name != "write_note" || a.Status != "running" {
				t.Fatalf("tool start = %+v", a)
			}
			if a := rec.events[2].Value.(event.ToolActivity); a.Status != "done" {
				t.Fatalf("tool end = %+v", a)
			}
			pages, _ := c.Notes.List(context.Background())
			if len(pages) != 1 || pages[0].Title != "買い物リスト" || pages[0].Content != "牛乳\n卵" || pages[0].Section != "家" {
				t.Fatalf("pages = %+v", pages)
			}
			reqs := srv.ChatRequests()
			if len(reqs) != 2 {
				t.Fatalf("requests = %d", len(reqs))
			}
			msgs := reqs[1].Messages
			tool := msgs[len(msgs)-1]
			if tool.Role != "tool" || tool.ToolCallID != "call_w" || !strings.Contains(tool.Content, "買い物リスト") {
				t.Fatalf("second request does not carry the tool result: %+v", tool)
			}
		})
	}
}

func TestAPinnedPageGoesInFullAndTheIndexMarksIt(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	ctx := context.Background()
	body := "旅行の計画\n" + strings.Repeat("京都で寺を巡る。", 30)
	pinned, _ := c.Notes.Create(ctx, "旅行", body, "予定")
	other, _ := c.Notes.Create(ctx, "メモ", "ほかのページの本文。"+strings.Repeat("あ", 40)+"ここは送られない末尾", "")

	tr, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "旅行の計画は？", NotePageIDs: []int64{pinned.ID}}, event.Discard)
	if err != nil {
		t.Fatal(err)
	}
	tr.Wait()
	var system []string
	for _, m := range srv.ChatRequests()[0].Messages {
		if m.Role == "system" {
			system = append(system, m.Content)
		}
	}
	all := strings.Join(system, "\n---\n")
	if !strings.Contains(all, body) {
		t.Fatal("the pinned page's full text is not in the request")
	}
	if strings.Contains(all, "ここは送られない末尾") || !strings.Contains(all, other.Content[:30]) {
		t.Fatal("an unpinned page's full text was sent")
	}
	if !strings.Contains(all, "## 予定") || !strings.Contains(all, "pinned") || !strings.Contains(all, "ほかのページの本文") {
		t.Fatalf("index layer missing its sections, pin mark or preview:\n%s", all)
	}
	if pins, _ := c.Notes.Pins(ctx, tr.SessionID); len(pins) != 1 || pins[0] != pinned.ID {
		t.Fatalf("pins = %v", pins)
	}

	// Unknown page ids fail the turn before anything is stored.
	if _, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "x", NotePageIDs: []int64{999}}, event.Discard); err == nil {
		t.Fatal("unknown page id accepted")
	}
	if ss, _ := c.DB.ListSessions(ctx); len(ss) != 1 {
		t.Fatalf("a failed pin left a session behind: %d", len(ss))
	}
}

// Issue 8, fault 5, end to end: a pinned page of 10,000 characters with no
// newline on an 8k-token window is cut at a sentence, not dropped.
func TestAPinnedOneLinePageSurvivesAnEightKWindow(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv, "CONTEXT_WINDOW_TOKENS=8192", "SESSION_NOTES_CONTENT_LIMIT=10000")
	ctx := context.Background()
	body := strings.Repeat("The deploy key lives in the vault. ", 300)[:10000]
	page, err := c.Notes.Create(ctx, "Runbook", body, "")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "Where is the deploy key?", NotePageIDs: []int64{page.ID}}, event.Discard)
	if err != nil {
		t.Fatal(err)
	}
	tr.Wait()
	var pinned string
	for _, m := range srv.ChatRequests()[0].Messages {
		if strings.HasPrefix(m.Content, "# Pinned note: Runbook") {
			pinned = m.Content
		}
	}
	if strings.Count(pinned, "The deploy key lives in the vault.") < 50 {
		t.Fatalf("the pinned page was (almost) dropped: %d characters sent", len(pinned))
	}
	if !strings.HasSuffix(pinned, "vault."+notes.PinnedCutMarker) {
		t.Fatalf("the cut page does not end after a sentence with the read_note marker: …%q", pinned[len(pinned)-80:])
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
