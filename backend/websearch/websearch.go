// Package websearch looks things up on the web for the web_search tool
// (issue 11): one Provider interface with adapters for Tavily, Brave Search
// and SearXNG (JSON format), a polite HTTP client with a timeout, coded
// errors for 429, 5xx, timeouts and unreadable answers (apperr.WebSearch*),
// and results cleaned before the model sees them (HTML stripped, whitespace
// normalised, each snippet capped: clean.go).
package websearch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"playchat/backend/apperr"
)

// Provider names, as WEB_SEARCH_PROVIDER takes them.
const (
	ProviderAuto    = "auto" // the first of tavily, brave, searxng that has its key or URL
	ProviderTavily  = "tavily"
	ProviderBrave   = "brave"
	ProviderSearXNG = "searxng"
	ProviderOff     = "off"
)

// Default endpoints, overridable for proxies (TAVILY_BASE_URL, BRAVE_BASE_URL).
const (
	DefaultTavilyBaseURL = "https://api.tavily.com"
	DefaultBraveBaseURL  = "https://api.search.brave.com"
)

// Limits of one search.
const (
	// DefaultMaxResults is how many results a search asks for when the
	// caller gives no number.
	DefaultMaxResults = 5
	// MaxResults caps max_results.
	MaxResults = 10
	// maxBody caps a provider's answer (2 MiB); more is an unreadable answer.
	maxBody = 2 << 20
)

// Timeout bounds one search request (connect, headers and body): 15 s. A
// variable only so tests can shorten it.
var Timeout = 15 * time.Second

// UserAgent identifies playchat to the providers.
var UserAgent = "playchat (+web_search; https://github.com/playchat)"

// Result is one cleaned search hit.
type Result struct {
	// Title is the page title, plain text, at most MaxTitleRunes runes.
	Title string `json:"title"`
	// URL is the page address, always http or https.
	URL string `json:"url"`
	// Snippet is the provider's excerpt, plain text, at most
	// MaxSnippetRunes runes (a longer one ends with "…").
	Snippet string `json:"snippet"`
	// Published is the page's date as the provider gave it ("" unknown).
	Published string `json:"published,omitempty"`
}

// Provider searches the web.
type Provider interface {
	// Name is the provider's name (ProviderTavily, …).
	Name() string
	// Search returns at most max cleaned results for query. Errors are
	// *apperr.Error with a WebSearch* code.
	Search(ctx context.Context, query string, max int) ([]Result, error)
}

// Settings choose and configure the provider (from config.Config).
type Settings struct {
	// Provider is WEB_SEARCH_PROVIDER: auto, tavily, brave, searxng or off.
	Provider      string
	TavilyKey     string // TAVILY_API_KEY (secret)
	TavilyBaseURL string // TAVILY_BASE_URL; "" = DefaultTavilyBaseURL
	BraveKey      string // BRAVE_API_KEY (secret)
	BraveBaseURL  string // BRAVE_BASE_URL; "" = DefaultBraveBaseURL
	SearXNGURL    string // SEARXNG_URL, the instance root (its /search is used)
}

// Chosen returns the provider s selects ("" when none is usable): the named
// one if it has its key or URL, or for auto the first of tavily, brave and
// searxng that has.
func (s Settings) Chosen() string {
	has := map[string]bool{
		ProviderTavily:  strings.TrimSpace(s.TavilyKey) != "",
		ProviderBrave:   strings.TrimSpace(s.BraveKey) != "",
		ProviderSearXNG: strings.TrimSpace(s.SearXNGURL) != "",
	}
	p := strings.ToLower(strings.TrimSpace(s.Provider))
	switch p {
	case ProviderOff:
		return ""
	case "", ProviderAuto:
		for _, n := range []string{ProviderTavily, ProviderBrave, ProviderSearXNG} {
			if has[n] {
				return n
			}
		}
		return ""
	}
	if has[p] {
		return p
	}
	return ""
}

// Configured reports whether a provider is usable (the web_search tool is
// offered only then).
func (s Settings) Configured() bool { return s.Chosen() != "" }

// ErrNotConfigured is returned by New when no provider is usable.
var ErrNotConfigured error = apperr.New(apperr.WebSearchNotConfigured, nil)

// New returns the provider s selects, using hc for requests (nil: a client
// with Timeout). It returns ErrNotConfigured when none is usable.
func New(s Settings, hc *http.Client) (Provider, error) {
	if hc == nil {
		hc = &http.Client{Timeout: Timeout}
	}
	c := &client{hc: hc}
	switch s.Chosen() {
	case ProviderTavily:
		return &tavily{c: c, key: s.TavilyKey, base: orDefault(s.TavilyBaseURL, DefaultTavilyBaseURL)}, nil
	case ProviderBrave:
		return &brave{c: c, key: s.BraveKey, base: orDefault(s.BraveBaseURL, DefaultBraveBaseURL)}, nil
	case ProviderSearXNG:
		return &searxng{c: c, base: strings.TrimSpace(s.SearXNGURL)}, nil
	}
	return nil, ErrNotConfigured
}

func orDefault(v, def string) string {
	if v = strings.TrimSpace(v); v != "" {
		return v
	}
	return def
}

// ClampMax turns a requested result count into 1…MaxResults (0 or less:
// DefaultMaxResults).
func ClampMax(n int) int {
	switch {
	case n <= 0:
		return DefaultMaxResults
	case n > MaxResults:
		return MaxResults
	}
	return n
}

// client sends one request and maps failures to coded errors.
type client struct{ hc *http.Client }

// do sends req (with the User-Agent and a deadline of Timeout at most) and
// decodes a 2xx JSON answer into v.
func (c *client) do(ctx context.Context, provider string, req *http.Request, v any) error {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req = req.WithContext(ctx)
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Accept", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return transportError(ctx, provider, req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return transportError(ctx, provider, req.URL, err)
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return apperr.New(apperr.WebSearchRateLimited, map[string]any{"provider": provider, "retryAfter": resp.Header.Get("Retry-After")})
	case resp.StatusCode >= 500:
		return apperr.New(apperr.WebSearchServerError, map[string]any{"provider": provider, "status": resp.StatusCode})
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return apperr.New(apperr.WebSearchRejected, map[string]any{"provider": provider, "status": resp.StatusCode,
			"detail": errorDetail(body)})
	case len(body) > maxBody:
		return apperr.Wrap(apperr.WebSearchBadResponse, fmt.Errorf("answer larger than %d bytes", maxBody), map[string]any{"provider": provider})
	}
	if err := json.Unmarshal(body, v); err != nil {
		return apperr.Wrap(apperr.WebSearchBadResponse, err, map[string]any{"provider": provider})
	}
	return nil
}

// transportError words a failed round trip: a deadline (ours or the
// caller's) is a timeout; anything else, the host could not be reached.
// The caller's cancellation (Stop) is returned as it is.
func transportError(ctx context.Context, provider string, u *url.URL, err error) error {
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) ||
		(errors.As(err, &ne) && ne.Timeout()) {
		return apperr.New(apperr.WebSearchTimeout, map[string]any{"provider": provider, "seconds": max(1, int(Timeout/time.Second))})
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	return apperr.Wrap(apperr.WebSearchUnreachable, unwrapURLError(err), map[string]any{"provider": provider, "host": u.Host})
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// errorDetail takes a short message out of an error body: a JSON "detail",
// "error" or "message" field, else the text itself, cleaned and capped.
func errorDetail(body []byte) string {
	var m map[string]any
	if json.Unmarshal(body, &m) == nil {
		for _, k := range []string{"detail", "error", "message"} {
			switch v := m[k].(type) {
			case string:
				return Clean(v, 200)
			case map[string]any:
				for _, k2 := range []string{"detail", "message", "error"} {
					if s, ok := v[k2].(string); ok {
						return Clean(s, 200)
					}
				}
			}
		}
	}
	return Clean(string(body), 200)
}
