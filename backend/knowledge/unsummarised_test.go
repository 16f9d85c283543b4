package knowledge_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"playchat/backend/llm/llmtest"
	"playchat/backend/websearch/websearchtest"
)

// Issue 22: a model that never follows the summary's layout (a small local
// model) left nothing saved, and the searched knowledge was lost. The
// entry is built from the results themselves — the query as heading, the
// snippets as points, every source — marked not summarised; the next
// search for the same query, with a model that does better, summarises it
// in place (same id) without searching again.
func TestAnUnusableSummaryStillSavesTheResultsAndALaterTurnSummarisesThem(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.NewServer(t)
	fake := websearchtest.NewServer(t)
	c := newCore(t, srv, "TAVILY_API_KEY=tvly-test", "TAVILY_BASE_URL="+fake.URL)

	prose := llmtest.Response{Reply: "東京は晴れのようです。詳しくはリンクを見てください。"}
	srv.Enqueue(callTool("call_s", "web_search", `{"query":"東京 天気"}`), prose, prose, llmtest.Text("晴れです [1]。", 2))
	res, rec := turn(t, c, "今日の東京の天気は？")
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	acts := rec.tools()
	if len(acts) != 4 || acts[2].Name != "save_knowledge" || acts[2].Status != "done" || !strings.Contains(acts[2].Result, "not summarised") {
		t.Fatalf("activity = %+v", acts)
	}
	if tm := toolMessage(srv.ChatRequests()[3]); !strings.Contains(tm, "not summarised, as learned-knowledge entry [1]") {
		t.Errorf("tool result = %q", tm)
	}
	es, _ := c.Knowledge.List(ctx, 0)
	if len(es) != 1 {
		t.Fatalf("%d entries, want 1", len(es))
	}
	e, err := c.Knowledge.Get(ctx, es[0].ID)
	if err != nil || e.Summarised || e.Heading != "東京 天気" || len(e.Sources) != 3 ||
		!strings.Contains(e.Body, "東京 天気 – overview") || !strings.Contains(e.Body, "[3]") || e.Sources[0].Snippet == "" {
		t.Fatalf("entry = %+v, %v", e, err)
	}
	raw, err := os.ReadFile(filepath.Join(c.Config().KnowledgeBaseDir, filepath.FromSlash(e.File)))
	if err != nil {
		t.Fatal(err)
	}
	var fm struct {
		Summarised *bool `yaml:"summarised"`
	}
	parts := strings.SplitN(string(raw), "---\n", 3)
	if len(parts) != 3 || yaml.Unmarshal([]byte(parts[1]), &fm) != nil || fm.Summarised == nil || *fm.Summarised {
		t.Fatalf("front matter does not say summarised: false: %q", raw)
	}

	// The same query again, and this time the model follows the layout.
	srv.Enqueue(callTool("call_s2", "web_search", `{"query":"東京 天気"}`), llmtest.Response{Reply: summaryReply},
		llmtest.Text("晴れです。", 2))
	if res, _ := turn(t, c, "もう一度天気を"); res.Err != nil {
		t.Fatal(res.Err)
	}
	if n := len(fake.Queries()); n != 1 {
		t.Errorf("%d searches, want 1: the entry is reused", n)
	}
	e2, err := c.Knowledge.Get(ctx, e.ID)
	if err != nil || !e2.Summarised || e2.Heading != "東京の天気（12月1日）" || len(e2.Sources) != 2 || !e2.FetchedAt.Equal(e.FetchedAt) {
		t.Fatalf("after the later turn: %+v, %v", e2, err)
	}
	if all, _ := c.Knowledge.List(ctx, 0); len(all) != 1 {
		t.Fatalf("%d entries, want the same one", len(all))
	}
}
