// Package websearchtest is a fake web search server for tests, the CLI and
// the desktop end-to-end run: one server that answers in the response
// formats of all three providers backend/websearch speaks —
//
//	POST /search              Tavily   {"query", "results": [{title, url, content, score, published_date}], …}
//	GET  /res/v1/web/search   Brave    {"type": "search", "web": {"results": [{title, url, description, page_age, age}]}, …}
//	GET  /search?format=json  SearXNG  {"query", "number_of_results", "results": [{url, title, content, engine, publishedDate}], …}
//
// — so its URL serves as TAVILY_BASE_URL, BRAVE_BASE_URL or SEARXNG_URL. It
// returns 429, 500 or a slow answer on demand (Fail, or a query containing
// "[429]", "[500]" or "[slow]"), and records every query.
package websearchtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// Hit is one result the fake returns.
type Hit struct {
	Title     string
	URL       string
	Content   string // may hold HTML, as Brave's descriptions do
	Published string
}

// Query is one search the fake received.
type Query struct {
	Provider string // "tavily", "brave" or "searxng"
	Query    string
	Max      int    // max_results / count (0 for SearXNG)
	Auth     string // the Authorization or X-Subscription-Token header
}

// Server is a running fake. Safe for concurrent use.
type Server struct {
	// URL is the server root, without a trailing slash.
	URL string

	mu      sync.Mutex
	hits    map[string][]Hit // by exact query; nil entry = generated
	fail    int              // status to answer every search with (0 = none)
	slow    time.Duration
	queries []Query

	closeOnce sync.Once
	closeFn   func()
}

// NewServer starts a fake on a loopback port, closed with t.Cleanup.
func NewServer(t testing.TB) *Server {
	t.Helper()
	s := &Server{hits: map[string][]Hit{}, slow: 30 * time.Second}
	hs := httptest.NewServer(s)
	s.URL = hs.URL
	s.closeFn = func() { hs.CloseClientConnections(); hs.Close() }
	t.Cleanup(s.Close)
	return s
}

// Start starts a fake on addr (e.g. "127.0.0.1:0") outside tests (the
// fakesearch command). Stop it with Close.
func Start(addr string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("websearchtest: listen %s: %w", addr, err)
	}
	s := &Server{hits: map[string][]Hit{}, slow: 30 * time.Second}
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	s.URL = "http://" + ln.Addr().String()
	s.closeFn = func() { _ = hs.Close() }
	return s, nil
}

// Close stops the server. Safe to call twice.
func (s *Server) Close() { s.closeOnce.Do(func() { s.closeFn() }) }

// SetHits makes a search for exactly query return hits (instead of the
// generated ones).
func (s *Server) SetHits(query string, hits ...Hit) {
	s.mu.Lock()
	s.hits[query] = hits
	s.mu.Unlock()
}

// Fail makes every search answer with status (429, 500, …); 0 restores
// normal answers.
func (s *Server) Fail(status int) {
	s.mu.Lock()
	s.fail = status
	s.mu.Unlock()
}

// SetSlow sets how long a "[slow]" query waits before answering (default
// 30 s; the request's end stops the wait early).
func (s *Server) SetSlow(d time.Duration) {
	s.mu.Lock()
	s.slow = d
	s.mu.Unlock()
}

// Queries returns the searches received so far, oldest first.
func (s *Server) Queries() []Query {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Query(nil), s.queries...)
}

// GeneratedHits are the results of a query the fake has no SetHits for:
// three pages about it, the first with HTML in its text and a date.
func GeneratedHits(query string) []Hit {
	esc := url.QueryEscape(query)
	return []Hit{
		{Title: query + " – overview", URL: "https://example.com/overview?q=" + esc,
			Content: "<strong>" + query + "</strong> explained: the main facts &amp; figures.", Published: "2026-11-01"},
		{Title: query + " – news", URL: "https://news.example.org/item?q=" + esc,
			Content: "Latest news about " + query + ", updated\n\n   this week."},
		{Title: query + " – reference", URL: "https://ref.example.net/wiki/" + esc,
			Content: "Reference article on " + query + "."},
	}
}

// ServeHTTP answers in the format the path and method select.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var q Query
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/search":
		var body struct {
			Query      string `json:"query"`
			MaxResults int    `json:"max_results"`
		}
		b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err := json.Unmarshal(b, &body); err != nil {
			http.Error(w, `{"detail":{"error":"invalid JSON body"}}`, http.StatusBadRequest)
			return
		}
		q = Query{Provider: "tavily", Query: body.Query, Max: body.MaxResults, Auth: r.Header.Get("Authorization")}
	case r.Method == http.MethodGet && r.URL.Path == "/res/v1/web/search":
		n := 0
		fmt.Sscan(r.URL.Query().Get("count"), &n)
		q = Query{Provider: "brave", Query: r.URL.Query().Get("q"), Max: n, Auth: r.Header.Get("X-Subscription-Token")}
	case r.Method == http.MethodGet && r.URL.Path == "/search":
		if r.URL.Query().Get("format") != "json" {
			http.Error(w, "format not allowed", http.StatusForbidden)
			return
		}
		q = Query{Provider: "searxng", Query: r.URL.Query().Get("q")}
	default:
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	s.queries = append(s.queries, q)
	fail, slow := s.fail, s.slow
	hits, ok := s.hits[q.Query]
	s.mu.Unlock()
	if !ok {
		hits = GeneratedHits(q.Query)
	}
	switch {
	case strings.Contains(q.Query, "[429]"):
		fail = http.StatusTooManyRequests
	case strings.Contains(q.Query, "[500]"):
		fail = http.StatusInternalServerError
	case strings.Contains(q.Query, "[slow]"):
		select {
		case <-r.Context().Done():
			return
		case <-time.After(slow):
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if fail != 0 {
		if fail == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "30")
		}
		w.WriteHeader(fail)
		fmt.Fprintf(w, `{"detail":{"error":"fake %d"}}`, fail)
		return
	}
	if q.Max > 0 && len(hits) > q.Max {
		hits = hits[:q.Max]
	}
	_ = json.NewEncoder(w).Encode(answer(q, hits))
}

// answer builds the provider's JSON shape.
func answer(q Query, hits []Hit) any {
	switch q.Provider {
	case "tavily":
		rs := make([]map[string]any, len(hits))
		for i, h := range hits {
			rs[i] = map[string]any{"title": h.Title, "url": h.URL, "content": h.Content,
				"score": 0.9 - float64(i)/10, "raw_content": nil}
			if h.Published != "" {
				rs[i]["published_date"] = h.Published
			}
		}
		return map[string]any{"query": q.Query, "follow_up_questions": nil, "answer": nil, "images": []any{},
			"results": rs, "response_time": 0.42}
	case "brave":
		rs := make([]map[string]any, len(hits))
		for i, h := range hits {
			u, _ := url.Parse(h.URL)
			host := ""
			if u != nil {
				host = u.Host
			}
			rs[i] = map[string]any{"type": "search_result", "title": h.Title, "url": h.URL, "description": h.Content,
				"is_source_local": false, "language": "en", "family_friendly": true,
				"meta_url": map[string]any{"scheme": "https", "netloc": host, "hostname": host}}
			if h.Published != "" {
				rs[i]["page_age"] = h.Published + "T00:00:00"
				rs[i]["age"] = h.Published
			}
		}
		return map[string]any{"type": "search", "query": map[string]any{"original": q.Query, "more_results_available": false},
			"mixed": map[string]any{"type": "mixed"}, "web": map[string]any{"type": "search", "results": rs, "family_friendly": true}}
	default:
		rs := make([]map[string]any, len(hits))
		for i, h := range hits {
			var pub any
			if h.Published != "" {
				pub = h.Published + "T00:00:00"
			}
			rs[i] = map[string]any{"url": h.URL, "title": h.Title, "content": h.Content, "engine": "duckduckgo",
				"engines": []string{"duckduckgo"}, "score": 1.0, "category": "general", "publishedDate": pub}
		}
		return map[string]any{"query": q.Query, "number_of_results": 0, "results": rs, "answers": []any{},
			"corrections": []any{}, "infoboxes": []any{}, "suggestions": []any{}, "unresponsive_engines": []any{}}
	}
}
