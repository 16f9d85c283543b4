package discord

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"playchat/backend/apperr"
)

// fakeWebhook records every POST and answers from a script (one answer per
// request, then 200 with a message object).
type fakeWebhook struct {
	mu      sync.Mutex
	calls   []webhookCall
	answers []func(w http.ResponseWriter)
}

type webhookCall struct {
	Path, Wait string
	Body       map[string]any
}

func (f *fakeWebhook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	_ = json.NewDecoder(r.Body).Decode(&body)
	f.mu.Lock()
	f.calls = append(f.calls, webhookCall{Path: r.URL.Path, Wait: r.URL.Query().Get("wait"), Body: body})
	var answer func(http.ResponseWriter)
	if len(f.answers) > 0 {
		answer, f.answers = f.answers[0], f.answers[1:]
	}
	f.mu.Unlock()
	if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	if answer != nil {
		answer(w)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"id":"1","content":"ok"}`))
}

func (f *fakeWebhook) recorded() []webhookCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]webhookCall(nil), f.calls...)
}

func jsonAnswer(code int, body string, header ...string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_, _ = w.Write([]byte(body))
	}
}

func newFakeWebhook(t *testing.T, answers ...func(http.ResponseWriter)) (*fakeWebhook, string) {
	t.Helper()
	f := &fakeWebhook{answers: answers}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv.URL + "/api/webhooks/42/secret-token"
}

func TestWebhookPostsEachPartWithNoMentionsAllowed(t *testing.T) {
	f, u := newFakeWebhook(t)
	text := "@everyone <@&99> " + strings.Repeat("あ", 2500)
	if err := (WebhookPoster{URL: u}).Post(context.Background(), text); err != nil {
		t.Fatal(err)
	}
	calls := f.recorded()
	want := Split(text, MaxMessageRunes)
	if len(calls) != len(want) || len(want) != 2 {
		t.Fatalf("%d requests, want one per part (%d)", len(calls), len(want))
	}
	for i, c := range calls {
		if c.Path != "/api/webhooks/42/secret-token" || c.Wait != "true" {
			t.Errorf("call %d went to %s?wait=%s", i, c.Path, c.Wait)
		}
		if c.Body["content"] != want[i] {
			t.Errorf("call %d content is not part %d", i, i)
		}
		am, ok := c.Body["allowed_mentions"].(map[string]any)
		if !ok {
			t.Fatalf("call %d has no allowed_mentions: %v", i, c.Body)
		}
		if parse, ok := am["parse"].([]any); !ok || len(parse) != 0 {
			t.Errorf("call %d allowed_mentions = %v, want {\"parse\": []}", i, am)
		}
	}
}

func TestWebhookBlankTextPostsNothing(t *testing.T) {
	f, u := newFakeWebhook(t)
	if err := (WebhookPoster{URL: u}).Post(context.Background(), " \n "); err != nil || len(f.recorded()) != 0 {
		t.Fatalf("blank text: err %v, %d requests", err, len(f.recorded()))
	}
	err := (WebhookPoster{}).Post(context.Background(), "hello")
	if apperr.CodeOf(err) != apperr.DiscordNoWebhook {
		t.Fatalf("no URL: got %v, want %s", err, apperr.DiscordNoWebhook)
	}
}

// postAsync runs Post on a goroutine; the result arrives on the channel.
func postAsync(w WebhookPoster, text string) chan error {
	done := make(chan error, 1)
	go func() { done <- w.Post(context.Background(), text) }()
	return done
}

func failsafe(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestWebhook429WaitsRetryAfterThenRetriesOnce(t *testing.T) {
	cases := []struct {
		name   string
		answer func(http.ResponseWriter)
		wait   time.Duration
	}{
		{"json body", jsonAnswer(429, `{"message":"You are being rate limited.","retry_after":2.5,"global":false}`), 2500 * time.Millisecond},
		{"header only", jsonAnswer(429, `{}`, "Retry-After", "3"), 3 * time.Second},
		{"capped at 10 s", jsonAnswer(429, `{"retry_after":3600}`), MaxRetryAfter},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, u := newFakeWebhook(t, tc.answer)
			clock := clockwork.NewFakeClock()
			done := postAsync(WebhookPoster{URL: u, Clock: clock}, "hello")
			ctx := failsafe(t)
			if err := clock.BlockUntilContext(ctx, 1); err != nil {
				t.Fatal("Post did not wait after the 429")
			}
			if n := len(f.recorded()); n != 1 {
				t.Fatalf("%d requests before the wait ended, want 1", n)
			}
			clock.Advance(tc.wait - time.Millisecond)
			if err := clock.BlockUntilContext(ctx, 1); err != nil {
				t.Fatal("the wait ended before retry_after")
			}
			clock.Advance(time.Millisecond)
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-ctx.Done():
				t.Fatal("Post did not finish after the wait")
			}
			if n := len(f.recorded()); n != 2 {
				t.Fatalf("%d requests, want 2 (one retry)", n)
			}
		})
	}
}

func TestWebhookSecond429IsAnError(t *testing.T) {
	limited := jsonAnswer(429, `{"message":"You are being rate limited.","retry_after":1}`)
	f, u := newFakeWebhook(t, limited, limited)
	clock := clockwork.NewFakeClock()
	done := postAsync(WebhookPoster{URL: u, Clock: clock}, "hello")
	ctx := failsafe(t)
	if err := clock.BlockUntilContext(ctx, 1); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	select {
	case err := <-done:
		if apperr.CodeOf(err) != apperr.DiscordWebhookFailed || !strings.Contains(err.Error(), "429") {
			t.Fatalf("got %v, want %s naming 429", err, apperr.DiscordWebhookFailed)
		}
	case <-ctx.Done():
		t.Fatal("Post did not finish")
	}
	if n := len(f.recorded()); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}
}

func TestWebhookErrorNamesTheStatusAndHidesTheToken(t *testing.T) {
	_, u := newFakeWebhook(t, jsonAnswer(404, `{"message":"Unknown Webhook","code":10015}`))
	err := (WebhookPoster{URL: u}).Post(context.Background(), "hello")
	if apperr.CodeOf(err) != apperr.DiscordWebhookFailed {
		t.Fatalf("got %v, want %s", err, apperr.DiscordWebhookFailed)
	}
	if msg := err.Error(); !strings.Contains(msg, "404") || !strings.Contains(msg, "Unknown Webhook") || strings.Contains(msg, "secret-token") {
		t.Fatalf("error %q should name 404 and Discord's message, not the token", msg)
	}

	// A transport failure does not show the URL either.
	srv := httptest.NewServer(http.NotFoundHandler())
	dead := srv.URL + "/api/webhooks/42/secret-token"
	srv.Close()
	err = (WebhookPoster{URL: dead}).Post(context.Background(), "hello")
	if err == nil || strings.Contains(err.Error(), "secret-token") {
		t.Fatalf("transport error %v should not hold the token", err)
	}
}

func TestWebhookStopsAtTheFirstFailingPart(t *testing.T) {
	f, u := newFakeWebhook(t, jsonAnswer(200, `{}`), jsonAnswer(500, `{"message":"boom"}`))
	err := (WebhookPoster{URL: u}).Post(context.Background(), strings.Repeat("x", 4500))
	if apperr.CodeOf(err) != apperr.DiscordWebhookFailed || !strings.Contains(err.Error(), "part 2 of 3") {
		t.Fatalf("got %v, want a failure of part 2 of 3", err)
	}
	if n := len(f.recorded()); n != 2 {
		t.Fatalf("%d requests, want 2 (the third part is not sent)", n)
	}
}
