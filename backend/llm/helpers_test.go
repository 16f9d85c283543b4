package llm_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"playchat/backend/llm"
	"playchat/backend/llm/llmtest"
)

// testKey is the API key every test client uses; it must never show up in
// api_logs, errors or the diagnostic log.
const testKey = "sk-test-SECRET"

// testModel routes to the fake through the openai provider.
const testModel = "openai/gpt-test"

// fakeSleep records backoff waits instead of sleeping.
type fakeSleep struct {
	mu sync.Mutex
	ds []time.Duration
}

func (f *fakeSleep) sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	f.ds = append(f.ds, d)
	f.mu.Unlock()
	return ctx.Err()
}

func (f *fakeSleep) waits() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.ds...)
}

// memSink is an in-memory LogSink.
type memSink struct {
	mu   sync.Mutex
	logs []llm.APILog
	fail bool
}

func (m *memSink) RecordAPILog(_ context.Context, l llm.APILog) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.logs = append(m.logs, l)
	if m.fail {
		return errors.New("disk full")
	}
	return nil
}

func (m *memSink) all() []llm.APILog {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]llm.APILog(nil), m.logs...)
}

// syncBuffer is a goroutine-safe log buffer.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// harness is a fake server plus a client pointed at it.
type harness struct {
	srv    *llmtest.Server
	client *llm.Client
	sleep  *fakeSleep
	sink   *memSink
	logBuf *syncBuffer
}

func newHarness(t *testing.T, opts ...llm.Option) *harness {
	t.Helper()
	h := &harness{
		srv:    llmtest.NewServer(t, llmtest.WithAPIKey(testKey)),
		sleep:  &fakeSleep{},
		sink:   &memSink{},
		logBuf: &syncBuffer{},
	}
	logger := slog.New(slog.NewTextHandler(h.logBuf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	base := []llm.Option{
		llm.WithSleep(h.sleep.sleep),
		llm.WithLogSink(h.sink),
		llm.WithLogger(logger),
		llm.WithRetry(3, 100*time.Millisecond),
	}
	h.client = llm.New(llm.Providers{OpenAIKey: testKey, OpenAIBaseURL: h.srv.URL}, append(base, opts...)...)
	return h
}

func userRequest(text string) llm.Request {
	return llm.Request{
		Model:     testModel,
		SessionID: "sess-1",
		Messages: []llm.Message{
			{Role: "system", Content: "You are terse."},
			{Role: "user", Content: text},
		},
	}
}

// stream runs Stream collecting the deltas.
func (h *harness) stream(t *testing.T, ctx context.Context, req llm.Request) (llm.StreamResult, []string, error) {
	t.Helper()
	var deltas []string
	res, err := h.client.Stream(ctx, req, func(s string) { deltas = append(deltas, s) })
	return res, deltas, err
}
