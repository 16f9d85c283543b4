package knowledge_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"playchat/backend/chat"
	"playchat/backend/core"
	"playchat/backend/event"
	"playchat/backend/llm"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
	"playchat/backend/websearch"
	"playchat/backend/websearch/websearchtest"
)

type recorder struct {
	mu     sync.Mutex
	events []event.Event
}

func (r *recorder) Emit(e event.Event) { r.mu.Lock(); r.events = append(r.events, e); r.mu.Unlock() }

// tools lists the tool events as "name:status" ("id:status" for ends).
func (r *recorder) tools() []event.ToolActivity {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []event.ToolActivity
	for _, e := range r.events {
		if e.Type == event.Tool {
			out = append(out, e.Value.(event.ToolActivity))
		}
	}
	return out
}

func (r *recorder) sources() []event.Source {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.events {
		if e.Type == event.Sources {
			return e.Value.([]event.Source)
		}
	}
	return nil
}

func noSleep(ctx context.Context, d time.Duration) error { return ctx.Err() }

func newCore(t *testing.T, srv *llmtest.Server, env ...string) *core.Core {
	t.Helper()
	environ := append([]string{"OPENAI_BASE_URL=" + srv.URL, "DEFAULT_MODEL=openai/fake-model"}, env...)
	c, err := core.Open(context.Background(), core.Options{
		DataDir: t.TempDir(), Environ: environ, Logger: slog.New(slog.DiscardHandler),
		LLMOptions: []llm.Option{llm.WithSleep(noSleep)},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func turn(t *testing.T, c *core.Core, text string) (chat.Result, *recorder) {
	t.Helper()
	rec := &recorder{}
	tr, err := c.Chat.Start(context.Background(), chat.TurnRequest{Text: text}, rec)
	if err != nil {
		t.Fatal(err)
	}
	return tr.Wait(), rec
}

func callTool(id, name, args string) llmtest.Response {
	b, _ := json.Marshal(args)
	return llmtest.Response{ToolCallChunks: []string{
		`[{"index":0,"id":"` + id + `","type":"function","function":{"name":"` + name + `","arguments":` + string(b) + `}}]`,
	}}
}

// summaryReply is the model's summary in the asked-for layout, citing
// results 1 and 3 of the three the fake returns.
const summaryReply = "# 東京の天気（12月1日）\n\n## Key points\n- 晴れ、最高気温 14℃ [1]\n- 参考記事あり [3]\n\n" +
	"## Dates\n- 2026-12-01: 晴れの予報 [1]\n\n## Sources\n- [1]\n- [3]\n"

func offered(req llmtest.RecordedRequest, name string) bool {
	for _, tl := range req.Tools {
		if tl.Function != nil && tl.Function.Name == name {
			return true
		}
	}
	return false
}

func toolMessage(req llmtest.RecordedRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "tool" {
			return req.Messages[i].Content
		}
	}
	return ""
}

// The whole path of issue 11: the model calls web_search → the fake
// provider is searched once → the turn's model summarises the results → the
// entry, its sources and its Markdown file (with provenance front matter)
// are saved → the save shows as its own activity item and the sources as
// an event → the file is found by the knowledge-base search → a second
// session's context lists the heading (layer 1) and offers read_knowledge,
// which returns the body → the same query again reuses the entry without
// searching.
func TestAWebSearchLeavesSourcedKnowledgeThatLaterTurnsReuse(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.NewServer(t)
	fake := websearchtest.NewServer(t)
	c := newCore(t, srv, "TAVILY_API_KEY=tvly-test", "TAVILY_BASE_URL="+fake.URL)

	srv.Enqueue(callTool("call_s", "web_search", `{"query":"東京 天気"}`),
		llmtest.Response{Reply: summaryReply}, llmtest.Text("今日の東京は晴れです [1]。", 3))
	res, rec := turn(t, c, "今日の東京の天気は？")
	if res.Err != nil || res.Reply.Content != "今日の東京は晴れです [1]。" {
		t.Fatalf("turn = %+v", res)
	}
	if qs := fake.Queries(); len(qs) != 1 || qs[0].Query != "東京 天気" || qs[0].Provider != "tavily" || qs[0].Auth != "Bearer tvly-test" {
		t.Fatalf("searches = %+v", qs)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d LLM requests, want 3 (tool call, summary, answer)", len(reqs))
	}
	if !offered(reqs[0], "web_search") || offered(reqs[0], "read_knowledge") {
		t.Error("first request: web_search must be offered, read_knowledge not (no entries yet)")
	}
	if reqs[1].Stream || reqs[1].Model != "fake-model" || !strings.Contains(reqs[1].LastUserMessage(), "[3] 東京 天気 – reference") {
		t.Errorf("summary request = %+v", reqs[1].Messages)
	}
	// Activity: web_search starts, save_knowledge runs and ends inside it.
	var seq []string
	for _, a := range rec.tools() {
		seq = append(seq, a.ID+":"+a.Status)
	}
	if got := strings.Join(seq, ","); got != "call_s:running,call_s:save_knowledge:running,call_s:save_knowledge:done,call_s:done" {
		t.Errorf("tool events = %s", got)
	}
	wantSrc := []event.Source{{Title: "東京 天気 – overview", URL: "https://example.com/overview?q=%E6%9D%B1%E4%BA%AC+%E5%A4%A9%E6%B0%97"},
		{Title: "東京 天気 – reference", URL: "https://ref.example.net/wiki/%E6%9D%B1%E4%BA%AC+%E5%A4%A9%E6%B0%97"}}
	if got := rec.sources(); len(got) != 2 || got[0] != wantSrc[0] || got[1] != wantSrc[1] {
		t.Errorf("sources event = %+v", got)
	}
	var stored []event.ToolActivity
	_ = json.Unmarshal([]byte(res.Reply.ToolActivity), &stored)
	if len(stored) != 2 || stored[0].Name != "web_search" || stored[1].Name != "save_knowledge" || stored[1].Status != "done" {
		t.Errorf("stored activity = %s", res.Reply.ToolActivity)
	}
	var storedSrc []event.Source
	if err := json.Unmarshal([]byte(res.Reply.Sources), &storedSrc); err != nil || len(storedSrc) != 2 || storedSrc[0] != wantSrc[0] {
		t.Errorf("sources stored with the reply = %q", res.Reply.Sources)
	}
	if tm := toolMessage(reqs[2]); !strings.Contains(tm, "saved the summary as learned-knowledge entry [1]") || !strings.Contains(tm, "晴れ、最高気温 14℃ [1]") {
		t.Errorf("tool result = %q", tm)
	}

	// The rows.
	es, err := c.Knowledge.List(ctx, 0)
	if err != nil || len(es) != 1 {
		t.Fatalf("entries = %+v, %v", es, err)
	}
	e, err := c.Knowledge.Get(ctx, es[0].ID)
	if err != nil || e.Heading != "東京の天気（12月1日）" || e.Query != "東京 天気" || e.Model != "openai/fake-model" ||
		e.Provider != "tavily" || len(e.Sources) != 2 || e.Sources[1].URL != wantSrc[1].URL ||
		!strings.Contains(e.Body, "- 参考記事あり [2]") || !strings.Contains(e.Body, "## Dates") {
		t.Fatalf("entry = %+v, %v", e, err)
	}

	// The file: front matter with provenance, hash of the text after it.
	path := filepath.Join(c.Config().KnowledgeBaseDir, filepath.FromSlash(e.File))
	raw, err := os.ReadFile(path)
	if err != nil || e.File != "web_search/knowledge-1.md" {
		t.Fatalf("file %s: %v", e.File, err)
	}
	parts := strings.SplitN(string(raw), "---\n", 3)
	var fm struct {
		Title       string   `yaml:"title"`
		Query       string   `yaml:"query"`
		Sources     []string `yaml:"sources"`
		Model       string   `yaml:"model"`
		FetchedAt   string   `yaml:"fetched_at"`
		ContentHash string   `yaml:"content_hash"`
	}
	if len(parts) != 3 || yaml.Unmarshal([]byte(parts[1]), &fm) != nil {
		t.Fatalf("no front matter in %q", raw)
	}
	sum := sha256.Sum256([]byte(strings.TrimPrefix(parts[2], "\n")))
	if fm.Title != e.Heading || fm.Query != "東京 天気" || len(fm.Sources) != 2 || fm.Model != "openai/fake-model" ||
		fm.ContentHash != "sha256:"+hex.EncodeToString(sum[:]) || fm.ContentHash != e.ContentHash {
		t.Errorf("front matter = %+v", fm)
	}
	if _, err := time.Parse(time.RFC3339, fm.FetchedAt); err != nil {
		t.Errorf("fetched_at %q: %v", fm.FetchedAt, err)
	}

	// Indexed like any knowledge-base document.
	c.ReconcileKB(ctx)
	hits, err := c.KB.Search(ctx, "最高気温", 5)
	if err != nil || len(hits) == 0 || hits[0].Path != e.File {
		t.Errorf("kb search hits = %+v, %v", hits, err)
	}

	// A second session: layer 1 lists the heading; read_knowledge reads it;
	// the same query (spelled differently) reuses the entry.
	srv.Enqueue(callTool("call_r", "read_knowledge", `{"id":1}`),
		callTool("call_s2", "web_search", `{"query":"東京　天気？"}`), llmtest.Text("晴れです。", 2))
	res, rec = turn(t, c, "東京の天気をもう一度")
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	reqs = srv.ChatRequests()[3:]
	layer1 := ""
	for _, m := range reqs[0].Messages {
		if m.Role == "system" && strings.Contains(m.Content, "Learned knowledge") {
			layer1 = m.Content
		}
	}
	if !strings.Contains(layer1, "- [1] 東京の天気（12月1日） (") || !offered(reqs[0], "read_knowledge") {
		t.Errorf("layer 1 = %q", layer1)
	}
	if tm := toolMessage(reqs[1]); !strings.Contains(tm, "晴れ、最高気温 14℃") || !strings.Contains(tm, wantSrc[1].URL) {
		t.Errorf("read_knowledge result = %q", tm)
	}
	if tm := toolMessage(reqs[2]); !strings.Contains(tm, "Reused learned-knowledge entry [1]") || !strings.Contains(tm, "no new search was made") {
		t.Errorf("reuse result = %q", tm)
	}
	if n := len(fake.Queries()); n != 1 {
		t.Errorf("%d searches, want still 1 (reused)", n)
	}
	if len(srv.ChatRequests()) != 6 {
		t.Errorf("%d LLM requests, want 6 (a reuse makes no summary request)", len(srv.ChatRequests()))
	}
}

// A provider failure reaches the model as a coded tool error and the turn
// still completes; nothing is saved.
func TestAProviderErrorIsAToolErrorAndTheTurnCompletes(t *testing.T) {
	srv := llmtest.NewServer(t)
	fake := websearchtest.NewServer(t)
	c := newCore(t, srv, "WEB_SEARCH_PROVIDER=searxng", "SEARXNG_URL="+fake.URL)
	fake.Fail(429)
	srv.Enqueue(callTool("call_s", "web_search", `{"query":"ニュース"}`), llmtest.Text("検索できませんでした。", 2))
	res, rec := turn(t, c, "最新ニュースは？")
	if res.Err != nil || res.Reply.Status != store.StatusComplete {
		t.Fatalf("turn = %+v", res)
	}
	acts := rec.tools()
	if len(acts) != 2 || acts[1].Status != "error" || acts[1].Error == nil || acts[1].Error.Code != "websearch.rateLimited" {
		t.Fatalf("activity = %+v", acts)
	}
	if tm := toolMessage(srv.ChatRequests()[1]); !strings.HasPrefix(tm, "error: ") || !strings.Contains(tm, "429") {
		t.Errorf("tool result = %q", tm)
	}
	if es, _ := c.Knowledge.List(context.Background(), 0); len(es) != 0 {
		t.Errorf("entries saved: %+v", es)
	}
}

// A save that fails (here the web_search folder cannot be created) leaves
// no row and no file behind; the model still gets the results and the
// save_knowledge item says it failed.
func TestAFailingSaveChangesNothing(t *testing.T) {
	srv := llmtest.NewServer(t)
	fake := websearchtest.NewServer(t)
	kb := t.TempDir()
	if err := os.WriteFile(filepath.Join(kb, "web_search"), []byte("a file in the way"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := newCore(t, srv, "BRAVE_API_KEY=b", "BRAVE_BASE_URL="+fake.URL, "KNOWLEDGE_BASE_DIR="+kb)
	srv.Enqueue(callTool("call_s", "web_search", `{"query":"富士山"}`),
		llmtest.Response{Reply: summaryReply}, llmtest.Text("富士山は…", 2))
	res, rec := turn(t, c, "富士山について")
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	acts := rec.tools()
	if len(acts) != 4 || acts[2].Name != "save_knowledge" || acts[2].Status != "error" || acts[3].Status != "done" {
		t.Fatalf("activity = %+v", acts)
	}
	if tm := toolMessage(srv.ChatRequests()[2]); !strings.Contains(tm, "could not be saved") || !strings.Contains(tm, "[1] 富士山 – overview") {
		t.Errorf("tool result = %q", tm)
	}
	var n int
	if err := c.DB.Bun().NewRaw(`SELECT (SELECT COUNT(*) FROM knowledge_entries) + (SELECT COUNT(*) FROM knowledge_sources)`).Scan(context.Background(), &n); err != nil || n != 0 {
		t.Errorf("%d rows left, %v", n, err)
	}
	if b, _ := os.ReadFile(filepath.Join(kb, "web_search")); string(b) != "a file in the way" {
		t.Error("the file in the way was changed")
	}
}

// With no provider configured web_search is not offered at all.
func TestWebSearchIsOfferedOnlyWithAProvider(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	srv.Enqueue(llmtest.Text("はい", 1))
	if res, _ := turn(t, c, "こんにちは"); res.Err != nil {
		t.Fatal(res.Err)
	}
	req := srv.ChatRequests()[0]
	if offered(req, "web_search") || offered(req, "read_knowledge") {
		t.Error("web_search or read_knowledge offered without a provider or entries")
	}
	if !offered(req, "read_note") {
		t.Error("the other tools went missing")
	}
}

// A provider that never answers ends in a websearch.timeout tool error
// within the search timeout, and the turn completes with an answer.
func TestASlowProviderTimesOutAndTheTurnCompletes(t *testing.T) {
	defer func(d time.Duration) { websearch.Timeout = d }(websearch.Timeout)
	websearch.Timeout = 200 * time.Millisecond
	srv := llmtest.NewServer(t)
	fake := websearchtest.NewServer(t)
	c := newCore(t, srv, "TAVILY_API_KEY=k", "TAVILY_BASE_URL="+fake.URL)
	srv.Enqueue(callTool("call_s", "web_search", `{"query":"遅い [slow]"}`), llmtest.Text("検索が時間切れでした。", 2))
	res, rec := turn(t, c, "調べて")
	if res.Err != nil || res.Reply.Content != "検索が時間切れでした。" {
		t.Fatalf("turn = %+v", res)
	}
	acts := rec.tools()
	if len(acts) != 2 || acts[1].Error == nil || acts[1].Error.Code != "websearch.timeout" {
		t.Fatalf("activity = %+v", acts)
	}
	if tm := toolMessage(srv.ChatRequests()[1]); !strings.Contains(tm, "did not answer within") {
		t.Errorf("tool result = %q", tm)
	}
}
