package apiserver_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

var corpusKB = map[string]string{
	"vue/computed.md":   "vue-docs-ja/src/guide/essentials/computed.md",
	"vue/lifecycle.md":  "vue-docs-ja/src/guide/essentials/lifecycle.md",
	"rust/ownership.md": "rust-book-ja/src/ch04-01-what-is-ownership.md",
}

type sourceJSON struct {
	Domain, Path, Title string
}

func sourcesIn(t *testing.T, m map[string]any) []sourceJSON {
	t.Helper()
	var out []sourceJSON
	list, _ := m["x_playchat_sources"].([]any)
	for _, x := range list {
		s := x.(map[string]any)
		out = append(out, sourceJSON{Domain: s["domain"].(string), Path: s["path"].(string), Title: s["title"].(string)})
	}
	return out
}

// TestAnAliasAnswersWithTheKnowledgeBase: a playchat/ model's context holds
// the knowledge-base document that answers the question (the model receives
// its text), the client's system message is added after playchat's base
// prompt, and the response names the document in x_playchat_sources.
// x_playchat_kb_domain keeps documents of other folders out.
func TestAnAliasAnswersWithTheKnowledgeBase(t *testing.T) {
	e := newEnv(t, envOpts{kb: corpusKB})
	body := map[string]any{"model": "playchat/openai/fake-chat", "messages": []map[string]string{
		{"role": "system", "content": "CLIENT-SYSTEM: answer briefly."},
		{"role": "user", "content": "Vue の算出プロパティのキャッシュとメソッドの違いは？"}}}
	resp := e.do(t, "POST", "/v1/chat/completions", body, "")
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	m := decode(t, resp)
	sys := systemText(t, e.fake)
	if !strings.Contains(sys, "vue/computed.md") || !strings.Contains(sys, "算出プロパティ") {
		t.Fatalf("the model did not get the document: %.600s", sys)
	}
	first := e.fake.ChatRequests()[0].Messages[0].Content
	if !strings.HasPrefix(first, "You are playchat") || !strings.Contains(first, "CLIENT-SYSTEM: answer briefly.") {
		t.Errorf("first system message: %q", first)
	}
	src := sourcesIn(t, m)
	found := false
	for _, s := range src {
		if s.Path == "vue/computed.md" && s.Domain == "vue" && s.Title != "" {
			found = true
		}
	}
	if !found {
		t.Errorf("x_playchat_sources: %+v", src)
	}
	if u, _ := m["usage"].(map[string]any); u == nil || u["total_tokens"].(float64) == 0 {
		t.Errorf("usage: %v", m["usage"])
	}

	// Limited to the rust folder, the Vue document stays out.
	e.fake.Reset()
	body["x_playchat_kb_domain"] = "rust"
	m = decode(t, e.do(t, "POST", "/v1/chat/completions", body, ""))
	if sys := systemText(t, e.fake); strings.Contains(sys, "vue/computed.md") {
		t.Errorf("domain rust: the Vue document is in the context")
	}
	for _, s := range sourcesIn(t, m) {
		if s.Domain != "rust" {
			t.Errorf("domain rust: source %+v", s)
		}
	}
	for _, bad := range []string{"nosuch", "../vue", "vue/x"} {
		body["x_playchat_kb_domain"] = bad
		wantOpenAIError(t, e.do(t, "POST", "/v1/chat/completions", body, ""), http.StatusBadRequest, "api.badKbDomain")
	}
}

// TestABackgroundRequestIsNotStored: front-ends send titles, tags and
// follow-up questions as requests of their own: without x_playchat_session
// a playchat/ request stores no session, message or memory, leaves no
// running turn, and is still in api_logs (as api_turn).
func TestABackgroundRequestIsNotStored(t *testing.T) {
	e := newEnv(t, envOpts{})
	ctx := context.Background()
	for _, stream := range []bool{false, true} {
		resp := e.do(t, "POST", "/v1/chat/completions", map[string]any{"model": "playchat/openai/fake-chat", "stream": stream,
			"messages": []map[string]string{{"role": "user", "content": "Generate a concise title for this chat."},
				{"role": "assistant", "content": "ok"}, {"role": "user", "content": "### Task: suggest 3 tags"}}}, "")
		if resp.StatusCode != 200 {
			t.Fatalf("status %d", resp.StatusCode)
		}
		if _, err := io.ReadAll(resp.Body); err != nil {
			t.Fatal(err)
		}
	}
	if n := sessionCount(t, e.c.DB); n != 0 {
		t.Errorf("%d sessions stored", n)
	}
	var msgs, mems int
	if err := e.c.DB.Bun().QueryRowContext(ctx, `SELECT (SELECT count(*) FROM messages), (SELECT count(*) FROM memories)`).Scan(&msgs, &mems); err != nil {
		t.Fatal(err)
	}
	if msgs != 0 || mems != 0 || e.c.Chat.Running() != 0 {
		t.Errorf("messages %d, memories %d, running %d", msgs, mems, e.c.Chat.Running())
	}
	reqs := e.fake.ChatRequests()
	if len(reqs) != 2 || len(reqs[0].Tools) != 0 {
		t.Fatalf("%d requests (tools %d)", len(reqs), len(reqs[0].Tools))
	}
	if last := reqs[0].Messages[len(reqs[0].Messages)-1]; last.Content != "### Task: suggest 3 tags" {
		t.Errorf("last message %q", last.Content)
	}
	e.c.FlushAPILogs()
	logs, _, err := e.c.DB.ListAPILogs(ctx, 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(logs) != 2 || logs[0].Purpose != "api_turn" {
		t.Errorf("api_logs: %+v", logs)
	}
}

// TestASessionRequestIsStoredAndContinued: x_playchat_session "new" starts
// a session and stores the turn; its id comes back and continues it (the
// model then gets the stored history).
func TestASessionRequestIsStoredAndContinued(t *testing.T) {
	e := newEnv(t, envOpts{})
	ask := func(session, text string) map[string]any {
		resp := e.do(t, "POST", "/v1/chat/completions", map[string]any{"model": "playchat/openai/fake-chat", "x_playchat_session": session,
			"messages": []map[string]string{{"role": "user", "content": text}}}, "")
		if resp.StatusCode != 200 {
			t.Fatalf("status %d", resp.StatusCode)
		}
		return decode(t, resp)
	}
	m := ask("new", "first question")
	id, _ := m["x_playchat_session"].(string)
	if id == "" {
		t.Fatalf("no session id: %v", m)
	}
	ask(id, "second question")
	msgs, err := e.c.DB.SessionMessages(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 4 || msgs[2].Content != "second question" || msgs[3].Content != "fake reply: second question" {
		t.Errorf("stored: %+v", msgs)
	}
	reqs := e.fake.ChatRequests()
	var users []string
	for _, mm := range reqs[len(reqs)-1].Messages {
		if mm.Role == "user" {
			users = append(users, mm.Content)
		}
	}
	if strings.Join(users, "|") != "first question|second question" {
		t.Errorf("history sent: %q", users)
	}
	wantOpenAIError(t, e.do(t, "POST", "/v1/chat/completions", map[string]any{"model": "playchat/openai/fake-chat", "x_playchat_session": "no-such-session",
		"messages": []map[string]string{{"role": "user", "content": "x"}}}, ""), http.StatusNotFound, "api.sessionNotFound")
	wantOpenAIError(t, e.do(t, "POST", "/v1/chat/completions", map[string]any{"model": "playchat/openai/fake-chat",
		"messages": []map[string]string{{"role": "user", "content": "x"}, {"role": "assistant", "content": "y"}}}, ""), http.StatusBadRequest, "api.lastNotUser")
}

// The notes reach a playchat/ turn only while INTEROP_SHARE_NOTES is on, as
// over MCP: off (the default), the notes index is not in the model's context.
func TestAnAliasUsesTheNotesOnlyWhenTheyAreShared(t *testing.T) {
	e := newEnv(t, envOpts{})
	if _, err := e.c.Notes.Create(context.Background(), "ヒミツの買い物メモ", "卵と牛乳", ""); err != nil {
		t.Fatal(err)
	}
	ask := func() string {
		body := map[string]any{"model": "playchat/openai/fake-chat",
			"messages": []map[string]string{{"role": "user", "content": "こんにちは"}}}
		resp := e.do(t, "POST", "/v1/chat/completions", body, "")
		if resp.StatusCode != 200 {
			t.Fatalf("status %d", resp.StatusCode)
		}
		resp.Body.Close()
		reqs := e.fake.ChatRequests()
		var all strings.Builder
		for _, m := range reqs[len(reqs)-1].Messages {
			all.WriteString(m.Content)
		}
		return all.String()
	}
	if got := ask(); strings.Contains(got, "ヒミツの買い物メモ") {
		t.Fatalf("the notes reached the model while not shared: %.400s", got)
	}
	if err := e.c.SaveSettings(context.Background(), map[string]string{"INTEROP_SHARE_NOTES": "true"}, nil); err != nil {
		t.Fatal(err)
	}
	if got := ask(); !strings.Contains(got, "ヒミツの買い物メモ") {
		t.Fatalf("the shared notes did not reach the model: %.400s", got)
	}
}
