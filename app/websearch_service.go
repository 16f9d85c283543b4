package app

import (
	"context"
	"strings"

	"playchat/backend/core"
	"playchat/backend/websearch"
)

// WebSearchService lets Settings try the web search provider (issue 11).
type WebSearchService struct{ app *App }

// WebSearchTest is the outcome of a test search.
type WebSearchTest struct {
	// Provider is the provider that answered (tavily, brave, searxng).
	Provider string `json:"provider"`
	// Query is the query that was sent.
	Query string `json:"query"`
	// Count is how many cleaned results came back.
	Count int `json:"count"`
	// Titles are the first results' titles (at most 3), to show it worked.
	Titles []string `json:"titles"`
}

// testSearchQuery is searched when the caller gives no query.
const testSearchQuery = "playchat"

// TestSearch runs one search with the saved settings (query "" searches
// "playchat") and reports how many results came back. It saves nothing.
// Errors are coded: websearch.notConfigured, websearch.rateLimited,
// websearch.serverError, websearch.rejected (e.g. a wrong key),
// websearch.timeout, websearch.unreachable, websearch.badResponse.
func (s *WebSearchService) TestSearch(query string) (WebSearchTest, error) {
	c, err := s.app.backend()
	if err != nil {
		return WebSearchTest{}, err
	}
	if query = strings.TrimSpace(query); query == "" {
		query = testSearchQuery
	}
	p, err := websearch.New(core.WebSearchSettings(c.Config()), nil)
	if err != nil {
		return WebSearchTest{}, err
	}
	rs, err := p.Search(context.Background(), query, websearch.DefaultMaxResults)
	if err != nil {
		return WebSearchTest{}, err
	}
	out := WebSearchTest{Provider: p.Name(), Query: query, Count: len(rs), Titles: []string{}}
	for _, r := range rs[:min(3, len(rs))] {
		out.Titles = append(out.Titles, r.Title)
	}
	return out, nil
}
