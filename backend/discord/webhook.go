package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jonboulle/clockwork"

	"playchat/backend/apperr"
)

// MaxRetryAfter caps how long WebhookPoster waits when Discord answers 429
// before trying the same part once more.
const MaxRetryAfter = 10 * time.Second

// webhookTimeout bounds each request when WebhookPoster.HTTP is nil.
const webhookTimeout = 15 * time.Second

// WebhookPoster posts to a Discord webhook URL (the scheduled weather and
// tips posts; it needs no bot connection). The zero value is not usable:
// URL must be set. It implements scheduler.Poster.
type WebhookPoster struct {
	// URL is the webhook's URL, https://discord.com/api/webhooks/ID/TOKEN
	// (DISCORD_WEBHOOK_URL). It holds a secret: it never appears in errors
	// or logs.
	URL string
	// HTTP sends the requests; nil means a client with a 15 s timeout.
	HTTP *http.Client
	// Clock times the wait after a 429; nil means the real clock.
	Clock clockwork.Clock
}

// Post sends text as one message per Split part (MaxMessageRunes each), in
// order, each as JSON {"content": part, "allowed_mentions": {"parse": []}}
// to URL with ?wait=true, so an @everyone, role or user mention in the text
// pings nobody. Blank text posts nothing and returns nil.
//
// A 429 answer is honoured once per part: Post waits retry_after seconds
// (the JSON body's float, else the Retry-After header), at most
// MaxRetryAfter, then tries again; a second 429 or any other non-2xx answer
// stops the post with an apperr.DiscordWebhookFailed naming the status and
// Discord's message (parts already sent stay sent). An empty URL gives
// apperr.DiscordNoWebhook; a transport failure or ctx's end is returned
// wrapped, with the URL's token left out.
func (w WebhookPoster) Post(ctx context.Context, text string) error {
	parts := Split(text, MaxMessageRunes)
	if len(parts) == 0 {
		return nil
	}
	if strings.TrimSpace(w.URL) == "" {
		return apperr.New(apperr.DiscordNoWebhook, nil)
	}
	u, err := url.Parse(strings.TrimSpace(w.URL))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return apperr.New(apperr.DiscordWebhookFailed, map[string]any{"status": "bad URL", "detail": "DISCORD_WEBHOOK_URL is not an http(s) URL"})
	}
	q := u.Query()
	q.Set("wait", "true")
	u.RawQuery = q.Encode()
	for i, p := range parts {
		if err := w.postPart(ctx, u.String(), p); err != nil {
			if len(parts) > 1 {
				return fmt.Errorf("discord: webhook part %d of %d: %w", i+1, len(parts), err)
			}
			return err
		}
	}
	return nil
}

type webhookBody struct {
	Content         string          `json:"content"`
	AllowedMentions allowedMentions `json:"allowed_mentions"`
}

type allowedMentions struct {
	Parse []string `json:"parse"`
}

// postPart sends one part, trying once more after a 429.
func (w WebhookPoster) postPart(ctx context.Context, target, part string) error {
	body, err := json.Marshal(webhookBody{Content: part, AllowedMentions: allowedMentions{Parse: []string{}}})
	if err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		status, code, detail, wait, err := w.send(ctx, target, body)
		if err != nil {
			return err
		}
		if code >= 200 && code < 300 {
			return nil
		}
		if code == http.StatusTooManyRequests && attempt == 0 {
			if err := w.sleep(ctx, wait); err != nil {
				return fmt.Errorf("discord: webhook: waiting after 429: %w", err)
			}
			continue
		}
		return apperr.New(apperr.DiscordWebhookFailed, map[string]any{"status": status, "detail": detail})
	}
}

// send makes one request; it returns the status ("429 Too Many Requests"),
// its code, Discord's message and, for a 429, how long to wait.
func (w WebhookPoster) send(ctx context.Context, target string, body []byte) (status string, code int, detail string, wait time.Duration, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return "", 0, "", 0, redact(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "playchat")
	hc := w.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: webhookTimeout}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", 0, "", 0, fmt.Errorf("discord: webhook: %w", redact(err))
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp.Status, resp.StatusCode, "", 0, nil
	}
	var e struct {
		Message    string   `json:"message"`
		RetryAfter *float64 `json:"retry_after"`
	}
	_ = json.Unmarshal(raw, &e)
	detail = e.Message
	if detail == "" && !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("<")) {
		detail = strings.TrimSpace(string(raw))
	}
	if r := []rune(detail); len(r) > 200 {
		detail = string(r[:200]) + "…"
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		secs := 1.0
		if e.RetryAfter != nil {
			secs = *e.RetryAfter
		} else if h, perr := strconv.ParseFloat(strings.TrimSpace(resp.Header.Get("Retry-After")), 64); perr == nil {
			secs = h
		}
		wait = time.Duration(secs * float64(time.Second))
		wait = max(0, min(wait, MaxRetryAfter))
	}
	return resp.Status, resp.StatusCode, detail, wait, nil
}

func (w WebhookPoster) sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	clock := w.Clock
	if clock == nil {
		clock = clockwork.NewRealClock()
	}
	t := clock.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.Chan():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// redact drops the URL (which holds the webhook's token) from a
// *url.Error, keeping the operation and the cause.
func redact(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s webhook: %w", ue.Op, ue.Err)
	}
	return err
}
