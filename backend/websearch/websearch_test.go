package websearch

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"playchat/backend/apperr"
)

// fixtureServer answers every request with status and the testdata file
// (when status is 200), recording the last request.
type fixtureServer struct {
	*httptest.Server
	last     *http.Request
	lastBody []byte
}

func newFixtureServer(t *testing.T, status int, fixture string, block bool) *fixtureServer {
	t.Helper()
	var body []byte
	if fixture != "" {
		var err error
		if body, err = os.ReadFile("testdata/" + fixture); err != nil {
			t.Fatal(err)
		}
	}
	fs := &fixtureServer{}
	release := make(chan struct{})
	fs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fs.last = r
		fs.lastBody, _ = io.ReadAll(r.Body)
		if block {
			select {
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		if status == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "12")
		}
		w.WriteHeader(status)
		if status == 200 {
			w.Write(body)
		} else {
			w.Write([]byte(`{"detail":{"error":"Unauthorized: missing or invalid API key."}}`))
		}
	}))
	t.Cleanup(func() { close(release); fs.Close() })
	return fs
}

func providerFor(t *testing.T, name, base string) Provider {
	t.Helper()
	s := Settings{Provider: name}
	switch name {
	case ProviderTavily:
		s.TavilyKey, s.TavilyBaseURL = "tvly-test", base
	case ProviderBrave:
		s.BraveKey, s.BraveBaseURL = "brave-test", base
	case ProviderSearXNG:
		s.SearXNGURL = base
	}
	p, err := New(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var fixtures = map[string]string{ProviderTavily: "tavily.json", ProviderBrave: "brave.json", ProviderSearXNG: "searxng.json"}

// Each adapter reads its provider's documented JSON shape into cleaned
// results: HTML gone, whitespace single, non-http(s) and repeated URLs
// dropped, and sends the request the provider expects.
func TestEachProviderReadsItsResponseFormat(t *testing.T) {
	want := map[string][]Result{
		ProviderTavily: {
			{Title: "東京都の天気 - 日本気象協会 tenki.jp", URL: "https://tenki.jp/forecast/3/16/4410/13101/",
				Snippet: "今日 12月01日(火) 晴れ 最高 14℃ 最低 6℃ 降水確率 0%", Published: "2026-12-01"},
			{Title: "Tokyo weather forecast", URL: "https://weather.example.com/tokyo", Snippet: "Sunny, 14°C, light wind."},
		},
		ProviderBrave: {
			{Title: "Tutorial: Getting started with generics - The Go Programming Language", URL: "https://go.dev/doc/tutorial/generics",
				Snippet:   "This tutorial introduces the basics of generics in Go. With generics, you can declare and use functions or types that are written to work with any of a set of types.",
				Published: "2024-02-06T00:00:00"},
			{Title: "An Introduction To Generics", URL: "https://go.dev/blog/intro-generics",
				Snippet: "The Go 1.18 release adds support for generics. Generics are the biggest change to the language since 1.0."},
		},
		ProviderSearXNG: {
			{Title: "Welcome to SearXNG — SearXNG Documentation", URL: "https://docs.searxng.org/",
				Snippet: "SearXNG is a free internet metasearch engine which aggregates results from more than 70 search services."},
			{Title: "GitHub - searxng/searxng: SearXNG is a free internet metasearch engine", URL: "https://github.com/searxng/searxng",
				Snippet:   "SearXNG is a free internet metasearch engine which aggregates results from various search services and databases. Users are neither tracked nor profiled.",
				Published: "2026-10-12T00:00:00"},
		},
	}
	for name, fixture := range fixtures {
		t.Run(name, func(t *testing.T) {
			srv := newFixtureServer(t, 200, fixture, false)
			got, err := providerFor(t, name, srv.URL+"/").Search(context.Background(), "  東京   天気 ", 5)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want[name]) {
				t.Fatalf("got %d results %+v, want %d", len(got), got, len(want[name]))
			}
			for i := range got {
				if got[i] != want[name][i] {
					t.Errorf("result %d:\n got %+v\nwant %+v", i, got[i], want[name][i])
				}
			}
			r := srv.last
			if ua := r.Header.Get("User-Agent"); !strings.HasPrefix(ua, "playchat") {
				t.Errorf("User-Agent %q", ua)
			}
			switch name {
			case ProviderTavily:
				var body map[string]any
				_ = json.Unmarshal(srv.lastBody, &body)
				if r.Method != "POST" || r.URL.Path != "/search" || r.Header.Get("Authorization") != "Bearer tvly-test" ||
					body["query"] != "東京 天気" || body["max_results"] != float64(5) {
					t.Errorf("tavily request %s %s %v %v", r.Method, r.URL.Path, r.Header, body)
				}
			case ProviderBrave:
				if r.Method != "GET" || r.URL.Path != "/res/v1/web/search" || r.Header.Get("X-Subscription-Token") != "brave-test" ||
					r.URL.Query().Get("q") != "東京 天気" || r.URL.Query().Get("count") != "5" {
					t.Errorf("brave request %s %s", r.Method, r.URL)
				}
			case ProviderSearXNG:
				if r.Method != "GET" || r.URL.Path != "/search" || r.URL.Query().Get("format") != "json" || r.URL.Query().Get("q") != "東京 天気" {
					t.Errorf("searxng request %s %s", r.Method, r.URL)
				}
			}
		})
	}
}

// 429, 5xx, a refused key and a provider that never answers each reach
// the caller as a coded error (never a hang), for every adapter.
func TestProviderFailuresAreCodedErrors(t *testing.T) {
	for name := range fixtures {
		for _, tc := range []struct {
			status int
			block  bool
			want   apperr.Code
		}{
			{http.StatusTooManyRequests, false, apperr.WebSearchRateLimited},
			{http.StatusInternalServerError, false, apperr.WebSearchServerError},
			{http.StatusBadGateway, false, apperr.WebSearchServerError},
			{http.StatusUnauthorized, false, apperr.WebSearchRejected},
			{0, true, apperr.WebSearchTimeout},
		} {
			srv := newFixtureServer(t, tc.status, "", tc.block)
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			_, err := providerFor(t, name, srv.URL).Search(ctx, "q", 3)
			cancel()
			if apperr.CodeOf(err) != tc.want {
				t.Errorf("%s status %d block %v: err = %v (code %q), want %s", name, tc.status, tc.block, err, apperr.CodeOf(err), tc.want)
				continue
			}
			in := apperr.InfoOf(err)
			if in.Params["provider"] != name {
				t.Errorf("%s: params %v lack the provider", name, in.Params)
			}
			if tc.status == http.StatusTooManyRequests && in.Params["retryAfter"] != "12" {
				t.Errorf("%s: retryAfter = %v", name, in.Params["retryAfter"])
			}
			if tc.status == http.StatusUnauthorized && !strings.Contains(err.Error(), "missing or invalid API key") {
				t.Errorf("%s: 401 detail lost: %v", name, err)
			}
		}
	}
}

func TestAnUnreadableAnswerAndAnUnreachableHostAreCoded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>not json")) }))
	defer srv.Close()
	_, err := providerFor(t, ProviderSearXNG, srv.URL).Search(context.Background(), "q", 3)
	if apperr.CodeOf(err) != apperr.WebSearchBadResponse {
		t.Errorf("html answer: %v", err)
	}
	dead := httptest.NewServer(http.NotFoundHandler())
	addr := dead.URL
	dead.Close()
	_, err = providerFor(t, ProviderBrave, addr).Search(context.Background(), "q", 3)
	if apperr.CodeOf(err) != apperr.WebSearchUnreachable {
		t.Errorf("closed port: %v", err)
	}
	_, err = providerFor(t, ProviderBrave, addr).Search(context.Background(), "   ", 3)
	if apperr.CodeOf(err) != apperr.WebSearchEmptyQuery {
		t.Errorf("blank query: %v", err)
	}
}

// A Stop (the turn's context cancelled) is passed through as cancellation,
// not worded as a provider failure.
func TestCancellationIsNotAProviderError(t *testing.T) {
	srv := newFixtureServer(t, 0, "", true)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := providerFor(t, ProviderTavily, srv.URL).Search(ctx, "q", 3)
	if !errors.Is(err, context.Canceled) || apperr.CodeOf(err) != "" {
		t.Errorf("err = %v", err)
	}
}

func TestTheProviderIsChosenByNameOrTheFirstConfigured(t *testing.T) {
	for _, tc := range []struct {
		s    Settings
		want string
	}{
		{Settings{}, ""},
		{Settings{Provider: "auto", SearXNGURL: "http://x"}, ProviderSearXNG},
		{Settings{BraveKey: "b", SearXNGURL: "http://x"}, ProviderBrave},
		{Settings{TavilyKey: "t", BraveKey: "b"}, ProviderTavily},
		{Settings{Provider: "Brave", TavilyKey: "t", BraveKey: "b"}, ProviderBrave},
		{Settings{Provider: "brave", TavilyKey: "t"}, ""},
		{Settings{Provider: "off", TavilyKey: "t"}, ""},
	} {
		if got := tc.s.Chosen(); got != tc.want {
			t.Errorf("%+v: Chosen = %q, want %q", tc.s, got, tc.want)
		}
		if _, err := New(tc.s, nil); (err == nil) != (tc.want != "") {
			t.Errorf("%+v: New err = %v", tc.s, err)
		}
	}
	if _, err := New(Settings{}, nil); !errors.Is(err, ErrNotConfigured) {
		t.Errorf("unconfigured: %v", err)
	}
}

func TestMaxResultsIsClampedAndHonoured(t *testing.T) {
	if ClampMax(0) != DefaultMaxResults || ClampMax(50) != MaxResults || ClampMax(2) != 2 {
		t.Error("ClampMax")
	}
	srv := newFixtureServer(t, 200, "brave.json", false)
	got, err := providerFor(t, ProviderBrave, srv.URL).Search(context.Background(), "q", 1)
	if err != nil || len(got) != 1 {
		t.Fatalf("got %d results, err %v", len(got), err)
	}
}
