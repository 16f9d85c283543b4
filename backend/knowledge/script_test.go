package knowledge_test

import (
	"os"
	"strings"
	"testing"

	"playchat/backend/llm/llmtest"
	"playchat/backend/websearch/websearchtest"
)

// testdata/e2e-web-search.json is the fakellm script of the desktop
// end-to-end run (a Japanese question → web_search → summary → a reply
// citing [1][2]); this runs it through the real core against the fake
// search server, so the script and the e2e stay in step.
func TestTheEndToEndScriptSearchesSavesAndCites(t *testing.T) {
	f, err := os.Open("testdata/e2e-web-search.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	script, err := llmtest.LoadScript(f)
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t)
	fake := websearchtest.NewServer(t)
	c := newCore(t, srv, "SEARXNG_URL="+fake.URL)
	srv.Enqueue(script...)
	res, rec := turn(t, c, "今日の東京の天気を調べて")
	if res.Err != nil || !strings.Contains(res.Reply.Content, "[1][2]") {
		t.Fatalf("turn = %+v", res)
	}
	if srv.Pending() != 0 || len(fake.Queries()) != 1 || fake.Queries()[0].Query != "東京 天気 今日" {
		t.Fatalf("pending %d, searches %+v", srv.Pending(), fake.Queries())
	}
	if src := rec.sources(); len(src) != 2 || !strings.HasPrefix(src[0].URL, "https://example.com/overview") {
		t.Errorf("sources = %+v", src)
	}
	if es, _ := c.Knowledge.List(t.Context(), 0); len(es) != 1 || es[0].Heading != "東京の今日の天気" {
		t.Errorf("entries = %+v", es)
	}
}
