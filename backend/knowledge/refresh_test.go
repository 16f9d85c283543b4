package knowledge_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/llm/llmtest"
	"playchat/backend/websearch/websearchtest"
)

// Refresh searches the entry's query again, re-summarises and keeps the id;
// Find filters by words; Delete removes the row and the file.
func TestRefreshKeepsTheIDAndDeleteRemovesTheFile(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.NewServer(t)
	fake := websearchtest.NewServer(t)
	c := newCore(t, srv, "SEARXNG_URL="+fake.URL)
	srv.Enqueue(callTool("c", "web_search", `{"query":"大阪 天気"}`), llmtest.Response{Reply: summaryReply}, llmtest.Text("晴れ", 1))
	if res, _ := turn(t, c, "大阪の天気"); res.Err != nil {
		t.Fatal(res.Err)
	}
	before, err := c.Knowledge.Get(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	fake.SetHits("大阪 天気", websearchtest.Hit{Title: "新しい記事", URL: "https://new.example/osaka", Content: "雨の予報"})
	srv.Enqueue(llmtest.Response{Reply: "# 大阪は雨\n\n## Key points\n- 雨の予報 [1]\n"})
	after, err := c.Knowledge.Refresh(ctx, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	if after.ID != 1 || after.Heading != "大阪は雨" || len(after.Sources) != 1 || after.Sources[0].URL != "https://new.example/osaka" ||
		!after.FetchedAt.After(before.FetchedAt) || after.Model != before.Model {
		t.Fatalf("refreshed = %+v", after)
	}
	got, _ := c.Knowledge.Get(ctx, 1)
	if got.Heading != "大阪は雨" || len(got.Sources) != 1 || got.ContentHash != after.ContentHash {
		t.Errorf("stored after refresh = %+v", got)
	}
	path := filepath.Join(c.Config().KnowledgeBaseDir, "web_search", "knowledge-1.md")
	if b, err := os.ReadFile(path); err != nil || !strings.Contains(string(b), "# 大阪は雨") || strings.Contains(string(b), "晴れ、最高気温") {
		t.Errorf("file after refresh: %v %s", err, b)
	}
	if es, _ := c.Knowledge.Find(ctx, "雨 予報", 0); len(es) != 1 {
		t.Errorf("find 雨 予報 = %d entries", len(es))
	}
	if es, _ := c.Knowledge.Find(ctx, "雪", 0); len(es) != 0 {
		t.Errorf("find 雪 = %d entries", len(es))
	}
	fake.Fail(500)
	if _, err := c.Knowledge.Refresh(ctx, 1, ""); err == nil {
		t.Error("a failed search refreshed the entry")
	}
	if got, _ := c.Knowledge.Get(ctx, 1); got.Heading != "大阪は雨" {
		t.Errorf("a failed refresh changed the entry: %+v", got)
	}
	if err := c.Knowledge.Delete(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("file still there: %v", err)
	}
	if _, err := c.Knowledge.Get(ctx, 1); err == nil {
		t.Error("entry still there")
	}
}
