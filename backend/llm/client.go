package llm

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Client talks to every provider through go-openai. It is safe for
// concurrent use; build one with New and share it.
type Client struct {
	mu   sync.RWMutex
	prov Providers

	httpClient  *http.Client
	sink        LogSink
	log         *slog.Logger
	maxAttempts int
	baseDelay   time.Duration
	sleep       func(ctx context.Context, d time.Duration) error

	// refusedParams holds, per "provider/model", the sampling parameters
	// its provider refused (params.go).
	paramMu       sync.Mutex
	refusedParams map[string]map[string]bool
}

// Option configures a Client in New.
type Option func(*Client)

// WithHTTPClient sets the HTTP client used for every request (default: a
// plain &http.Client{} without timeout, since streams are long-lived; bound
// calls with ctx). nil keeps the default.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) {
		if hc != nil {
			c.httpClient = hc
		}
	}
}

// WithLogSink sets the api_logs recorder; every Stream and Complete call
// records one APILog through it. nil records nothing (the default).
func WithLogSink(s LogSink) Option {
	return func(c *Client) { c.sink = s }
}

// WithLogger sets the diagnostic logger (default: discard). Keys and request
// bodies are never logged.
func WithLogger(l *slog.Logger) Option {
	return func(c *Client) {
		if l != nil {
			c.log = l
		}
	}
}

// WithRetry sets how often a request failing before its first byte (HTTP 429,
// 5xx, connection errors) is tried in total (maxAttempts, at least 1; default
// 3) and the first backoff delay (baseDelay, doubled on each further attempt;
// default 500ms). A provider's Retry-After header, capped at 30s, replaces the
// computed delay.
func WithRetry(maxAttempts int, baseDelay time.Duration) Option {
	return func(c *Client) {
		c.maxAttempts = max(maxAttempts, 1)
		c.baseDelay = max(baseDelay, 0)
	}
}

// WithSleep replaces the backoff wait (tests inject a fake that records the
// durations). sleep must return ctx.Err() if ctx ends first, else nil.
func WithSleep(sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(c *Client) {
		if sleep != nil {
			c.sleep = sleep
		}
	}
}

// New returns a Client using the provider settings p.
func New(p Providers, opts ...Option) *Client {
	c := &Client{
		prov:        p,
		httpClient:  &http.Client{},
		log:         slog.New(slog.DiscardHandler),
		maxAttempts: 3,
		baseDelay:   500 * time.Millisecond,
		sleep:       sleepCtx,
	}
	for _, o := range opts {
		o(c)
	}
	return c
}

// SetProviders swaps the provider settings at runtime (settings saved in the
// GUI). Calls already running keep the settings they started with. Safe for
// concurrent use.
func (c *Client) SetProviders(p Providers) {
	c.mu.Lock()
	c.prov = p
	c.mu.Unlock()
}

// Providers returns the current provider settings (they include keys: do not
// log them).
func (c *Client) Providers() Providers {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.prov
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// attemptState is what the transport saw during one HTTP attempt.
type attemptState struct {
	status     int
	retryAfter time.Duration
	sawDone    bool // "data: [DONE]" appeared in the body
}

// trackingDoer wraps the HTTP client for one attempt: it records the status
// and Retry-After (go-openai drops response headers on errors) and watches
// the body for the SSE "[DONE]" marker.
type trackingDoer struct {
	hc *http.Client
	st *attemptState
}

func (d *trackingDoer) Do(req *http.Request) (*http.Response, error) {
	resp, err := d.hc.Do(req)
	if err != nil {
		return nil, err
	}
	d.st.status = resp.StatusCode
	d.st.retryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	if resp.StatusCode < 300 {
		resp.Body = newDoneSniffer(resp.Body, d.st)
	}
	return resp, nil
}

// doneSniffer sets st.sawDone once a "data: [DONE]" line passes through.
// It looks at each read where it lies and keeps only the last bytes of the
// stream (tail) for a marker cut between two reads: nothing is copied or
// allocated per read.
type doneSniffer struct {
	io.ReadCloser
	st    *attemptState
	tail  [len(doneLine)]byte // the stream's last bytes, right-aligned
	tailN int                 // how many of them are set
}

const (
	doneLine      = "\ndata: [DONE]"
	doneLineTight = "\ndata:[DONE]"
)

var doneMarker, doneMarkerTight = []byte(doneLine), []byte(doneLineTight)

// newDoneSniffer wraps body; the stream counts as starting after a line
// break, so a body opening with the marker is seen too.
func newDoneSniffer(body io.ReadCloser, st *attemptState) *doneSniffer {
	s := &doneSniffer{ReadCloser: body, st: st, tailN: 1}
	s.tail[len(s.tail)-1] = '\n'
	return s
}

func (s *doneSniffer) Read(p []byte) (int, error) {
	n, err := s.ReadCloser.Read(p)
	if n > 0 && !s.st.sawDone {
		b := p[:n]
		// A marker cut between reads lies in the tail plus b's first
		// bytes; when b is short, joint is the tail plus all of b.
		var joint [2 * len(doneLine)]byte
		j := append(joint[:0], s.tail[len(s.tail)-s.tailN:]...)
		j = append(j, b[:min(n, len(doneMarker)-1)]...)
		if hasDone(j) || hasDone(b) {
			s.st.sawDone = true
		}
		if n >= len(s.tail) {
			copy(s.tail[:], b[n-len(s.tail):])
			s.tailN = len(s.tail)
		} else { // n < len(tail) bytes: j is the old tail plus all of b
			s.tailN = min(len(j), len(s.tail))
			copy(s.tail[len(s.tail)-s.tailN:], j[len(j)-s.tailN:])
		}
	}
	return n, err
}

// hasDone reports whether b holds either form of the [DONE] line's start.
func hasDone(b []byte) bool {
	return bytes.Contains(b, doneMarker) || bytes.Contains(b, doneMarkerTight)
}

// openaiClient builds a go-openai client for one attempt against ep.
func (c *Client) openaiClient(ep Endpoint) (*openai.Client, *attemptState) {
	st := &attemptState{}
	cfg := openai.DefaultConfig(ep.APIKey)
	cfg.BaseURL = ep.BaseURL
	cfg.HTTPClient = &trackingDoer{hc: c.httpClient, st: st}
	return openai.NewClientWithConfig(cfg), st
}

// wrapErr turns an attempt's error into what callers see: ctx's error when
// ctx ended, an *APIError for provider answers, else the transport error.
func wrapErr(ctx context.Context, err error, st *attemptState) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return convertError(err, st)
}

// withRetry runs attempt until it succeeds, fails for good, or maxAttempts
// run out. attempt reports whether the reply started (then nothing is
// retried). Retried: *APIError 429/5xx and transport errors.
func (c *Client) withRetry(ctx context.Context, ep Endpoint, op string, attempt func() (started bool, err error)) error {
	for n := 1; ; n++ {
		started, err := attempt()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var ae *APIError
		isAPI := errors.As(err, &ae)
		retry := !started && n < c.maxAttempts && ((isAPI && ae.retryable()) || (!isAPI && isConnError(ctx, err)))
		if !retry {
			return withBaseURLHint(err, ep)
		}
		delay := c.baseDelay << (n - 1)
		if isAPI && ae.RetryAfter > 0 {
			delay = ae.RetryAfter
		}
		delay = min(delay, maxRetryAfter)
		c.log.Warn("llm: retrying", "op", op, "provider", ep.Provider, "model", ep.Model,
			"attempt", n, "delay", delay, "err", scrub(err.Error(), ep.APIKey))
		if err := c.sleep(ctx, delay); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
	}
}

// chatRequest is buildChatRequest without what ep's provider refused
// before (params.go).
func (c *Client) chatRequest(ep Endpoint, req Request) openai.ChatCompletionRequest {
	cr := buildChatRequest(ep, req)
	if req.Adjust == nil {
		stripParams(&cr, keys(c.refused(req.Model)))
	}
	return cr
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// buildChatRequest maps a Request onto go-openai's request for ep.
func buildChatRequest(ep Endpoint, req Request) openai.ChatCompletionRequest {
	cr := openai.ChatCompletionRequest{
		Model:    ep.Model,
		Messages: req.Messages,
		Tools:    req.Tools,
	}
	if req.MaxTokens > 0 {
		if ep.Provider == ProviderOpenAI && (ep.BaseURL == DefaultOpenAIBaseURL || reasoningModel(ep.Model)) {
			cr.MaxCompletionTokens = req.MaxTokens // OpenAI deprecated max_tokens; reasoning models reject it
		} else {
			cr.MaxTokens = req.MaxTokens
		}
	}
	applySampling(ep, req, &cr, nil)
	if req.Adjust != nil {
		req.Adjust(&cr)
		cr.Model, cr.Messages = ep.Model, req.Messages
	}
	return cr
}

func reasoningModel(m string) bool {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}
