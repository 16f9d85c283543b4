package websearch_test

import (
	"context"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/websearch"
	"playchat/backend/websearch/websearchtest"
)

// The fake server of the test helpers speaks each provider's format well
// enough for the real adapters, and fails on demand.
func TestTheFakeServerSpeaksEveryProvidersFormat(t *testing.T) {
	fake := websearchtest.NewServer(t)
	for _, s := range []websearch.Settings{
		{Provider: "tavily", TavilyKey: "k", TavilyBaseURL: fake.URL},
		{Provider: "brave", BraveKey: "k", BraveBaseURL: fake.URL},
		{Provider: "searxng", SearXNGURL: fake.URL},
	} {
		p, err := websearch.New(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := p.Search(context.Background(), "富士山 標高", 2)
		if err != nil || len(rs) != 2 || rs[0].Snippet != "富士山 標高 explained: the main facts & figures." {
			t.Errorf("%s: %+v, %v", p.Name(), rs, err)
		}
		if _, err := p.Search(context.Background(), "x [429]", 2); apperr.CodeOf(err) != apperr.WebSearchRateLimited {
			t.Errorf("%s [429]: %v", p.Name(), err)
		}
		if _, err := p.Search(context.Background(), "x [500]", 2); apperr.CodeOf(err) != apperr.WebSearchServerError {
			t.Errorf("%s [500]: %v", p.Name(), err)
		}
	}
	qs := fake.Queries()
	if len(qs) != 9 || qs[0].Provider != "tavily" || qs[0].Auth != "Bearer k" || qs[3].Provider != "brave" || qs[6].Provider != "searxng" {
		t.Errorf("queries %+v", qs)
	}
}
