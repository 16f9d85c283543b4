package knowledge_test

import (
	"context"
	"testing"
	"time"

	"playchat/backend/llm/llmtest"
	"playchat/backend/websearch/websearchtest"
)

// With the knowledge-base watcher running (as in the window), the entry's
// file — written into a web_search/ folder that did not exist before — is
// indexed without any reconcile call and found by the knowledge-base search.
func TestTheWatcherIndexesANewEntryFile(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.NewServer(t)
	fake := websearchtest.NewServer(t)
	c := newCore(t, srv, "SEARXNG_URL="+fake.URL)
	if err := c.KB.Start(ctx); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := c.KB.WaitIdle(wctx); err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(callTool("c", "web_search", `{"query":"東京 天気"}`), llmtest.Response{Reply: summaryReply}, llmtest.Text("晴れ", 1))
	if res, _ := turn(t, c, "東京の天気"); res.Err != nil {
		t.Fatal(res.Err)
	}
	// Poll until indexed (the watcher debounces events); the bound is a
	// safety net, not a speed assertion.
	for {
		_ = c.KB.WaitIdle(wctx)
		hits, err := c.KB.Search(ctx, "最高気温", 5)
		if err == nil && len(hits) > 0 && hits[0].Path == "web_search/knowledge-1.md" {
			return
		}
		select {
		case <-wctx.Done():
			t.Fatalf("the entry file was never indexed: hits %+v, %v", hits, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
