package websearch

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"playchat/backend/apperr"
)

// tavily is Tavily's search API: POST {base}/search with a JSON body and
// "Authorization: Bearer <key>"; the answer's results carry title, url,
// content, score and (topic news) published_date.
type tavily struct {
	c         *client
	key, base string
}

type tavilyAnswer struct {
	Results []struct {
		Title         string `json:"title"`
		URL           string `json:"url"`
		Content       string `json:"content"`
		PublishedDate string `json:"published_date"`
	} `json:"results"`
}

func (t *tavily) Name() string { return ProviderTavily }

func (t *tavily) Search(ctx context.Context, query string, max int) ([]Result, error) {
	query, max, err := checkQuery(query, max)
	if err != nil {
		return nil, err
	}
	body, _ := json.Marshal(map[string]any{"query": query, "max_results": max, "search_depth": "basic",
		"include_answer": false, "include_raw_content": false, "include_images": false})
	req, err := http.NewRequest(http.MethodPost, joinURL(t.base, "/search"), bytes.NewReader(body))
	if err != nil {
		return nil, badBase(ProviderTavily, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+t.key)
	var a tavilyAnswer
	if err := t.c.do(ctx, ProviderTavily, req, &a); err != nil {
		return nil, err
	}
	out := make([]Result, 0, len(a.Results))
	for _, r := range a.Results {
		out = append(out, Result{Title: r.Title, URL: r.URL, Snippet: r.Content, Published: r.PublishedDate})
	}
	return CleanResults(out, max), nil
}

// brave is Brave's Web Search API: GET {base}/res/v1/web/search?q=&count=
// with "X-Subscription-Token: <key>"; web.results carry title, url,
// description (with <strong> highlights), page_age and age.
type brave struct {
	c         *client
	key, base string
}

type braveAnswer struct {
	Web struct {
		Results []struct {
			Title         string   `json:"title"`
			URL           string   `json:"url"`
			Description   string   `json:"description"`
			PageAge       string   `json:"page_age"`
			Age           string   `json:"age"`
			ExtraSnippets []string `json:"extra_snippets"`
		} `json:"results"`
	} `json:"web"`
}

func (b *brave) Name() string { return ProviderBrave }

func (b *brave) Search(ctx context.Context, query string, max int) ([]Result, error) {
	query, max, err := checkQuery(query, max)
	if err != nil {
		return nil, err
	}
	q := url.Values{"q": {query}, "count": {strconv.Itoa(max)}}
	req, err := http.NewRequest(http.MethodGet, joinURL(b.base, "/res/v1/web/search")+"?"+q.Encode(), nil)
	if err != nil {
		return nil, badBase(ProviderBrave, err)
	}
	req.Header.Set("X-Subscription-Token", b.key)
	var a braveAnswer
	if err := b.c.do(ctx, ProviderBrave, req, &a); err != nil {
		return nil, err
	}
	out := make([]Result, 0, len(a.Web.Results))
	for _, r := range a.Web.Results {
		snippet := r.Description
		if len(r.ExtraSnippets) > 0 {
			snippet += " " + strings.Join(r.ExtraSnippets, " ")
		}
		out = append(out, Result{Title: r.Title, URL: r.URL, Snippet: snippet, Published: firstNonEmpty(r.PageAge, r.Age)})
	}
	return CleanResults(out, max), nil
}

// searxng is a SearXNG instance's search API: GET {base}/search?q=&format=json
// (the instance must allow the json format, else it answers 403); results
// carry url, title, content and publishedDate. It takes no count: the
// first max results are kept.
type searxng struct {
	c    *client
	base string
}

type searxngAnswer struct {
	Results []struct {
		URL           string `json:"url"`
		Title         string `json:"title"`
		Content       string `json:"content"`
		PublishedDate any    `json:"publishedDate"` // a string, or null
	} `json:"results"`
}

func (s *searxng) Name() string { return ProviderSearXNG }

func (s *searxng) Search(ctx context.Context, query string, max int) ([]Result, error) {
	query, max, err := checkQuery(query, max)
	if err != nil {
		return nil, err
	}
	q := url.Values{"q": {query}, "format": {"json"}}
	req, err := http.NewRequest(http.MethodGet, joinURL(s.base, "/search")+"?"+q.Encode(), nil)
	if err != nil {
		return nil, badBase(ProviderSearXNG, err)
	}
	var a searxngAnswer
	if err := s.c.do(ctx, ProviderSearXNG, req, &a); err != nil {
		return nil, err
	}
	out := make([]Result, 0, len(a.Results))
	for _, r := range a.Results {
		pub, _ := r.PublishedDate.(string)
		out = append(out, Result{Title: r.Title, URL: r.URL, Snippet: r.Content, Published: pub})
	}
	return CleanResults(out, max), nil
}

func checkQuery(query string, max int) (string, int, error) {
	query = strings.Join(strings.Fields(query), " ")
	if query == "" {
		return "", 0, apperr.New(apperr.WebSearchEmptyQuery, nil)
	}
	if r := []rune(query); len(r) > 400 {
		query = string(r[:400]) // providers refuse very long queries
	}
	return query, ClampMax(max), nil
}

// joinURL appends path to base without doubling the slash.
func joinURL(base, path string) string {
	return strings.TrimRight(strings.TrimSpace(base), "/") + path
}

func badBase(provider string, err error) error {
	return apperr.Wrap(apperr.WebSearchUnreachable, err, map[string]any{"provider": provider, "host": ""})
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}
