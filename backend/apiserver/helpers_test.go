package apiserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"playchat/backend/core"
	"playchat/backend/llm"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
	"playchat/internal/testcorpus"
)

const testToken = "test-token-0123456789abcdef"

// closedURL is a base URL nothing listens on: the local providers' model
// lists fail at once, so /v1/models is deterministic.
const closedURL = "http://127.0.0.1:9"

// apiEnv is a core on a temp data dir whose openai/ provider is the fake
// (or upstream), served by the API handler on an httptest server.
type apiEnv struct {
	c      *core.Core
	fake   *llmtest.Server
	srv    *httptest.Server
	client *openai.Client
	kbDir  string
}

type envOpts struct {
	// upstream replaces the fake as the openai/ provider (its URL ends in /v1).
	upstream string
	// kb copies corpus documents into the knowledge base: destination path
	// (relative to the KB folder) → corpus path (relative to the corpus).
	kb map[string]string
	// fakeOpts configure the fake server.
	fakeOpts []llmtest.Option
}

func noSleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

func newEnv(t *testing.T, o envOpts) *apiEnv {
	t.Helper()
	e := &apiEnv{fake: llmtest.NewServer(t, append([]llmtest.Option{llmtest.WithModels("fake-chat")}, o.fakeOpts...)...)}
	base := e.fake.URL
	if o.upstream != "" {
		base = o.upstream
	}
	dir := t.TempDir()
	e.kbDir = filepath.Join(dir, "kb")
	if err := os.MkdirAll(e.kbDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if len(o.kb) > 0 {
		corpus := testcorpus.Dir(t)
		for dst, src := range o.kb {
			b, err := os.ReadFile(filepath.Join(corpus, src))
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(e.kbDir, filepath.FromSlash(dst))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	c, err := core.Open(context.Background(), core.Options{
		DataDir: filepath.Join(dir, "data"), Logger: slog.New(slog.DiscardHandler),
		Environ: []string{"OPENAI_BASE_URL=" + base, "DEFAULT_MODEL=openai/fake-chat", "AUTO_TAGS=false",
			"OLLAMA_API_BASE=" + closedURL, "LM_STUDIO_API_BASE=" + closedURL + "/v1", "KNOWLEDGE_BASE_DIR=" + e.kbDir},
		LLMOptions: []llm.Option{llm.WithSleep(noSleep)},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.ReconcileKB(context.Background())
	e.c = c
	e.srv = httptest.NewServer(c.APIServer(core.APIServerOptions{Token: func() string { return testToken }}))
	t.Cleanup(e.srv.Close)
	cfg := openai.DefaultConfig(testToken)
	cfg.BaseURL = e.srv.URL + "/v1"
	e.client = openai.NewClientWithConfig(cfg)
	return e
}

// do sends a request with the token (or the given Authorization value when
// auth is not "") and returns the response; body may be a string or any
// value to encode as JSON.
func (e *apiEnv) do(t *testing.T, method, path string, body any, auth string) *http.Response {
	t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	case []byte:
		r = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if auth == "" {
		auth = "Bearer " + testToken
	}
	if auth != "none" {
		req.Header.Set("Authorization", auth)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// decode reads resp's JSON body into a map.
func decode(t *testing.T, resp *http.Response) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// wantOpenAIError checks resp is status with OpenAI's error JSON: exactly
// {error:{message,type,param,code}}, message not empty, and code (when
// not "") as given.
func wantOpenAIError(t *testing.T, resp *http.Response, status int, code string) map[string]any {
	t.Helper()
	if resp.StatusCode != status {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d, want %d: %s", resp.StatusCode, status, b)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	m := decode(t, resp)
	eo, ok := m["error"].(map[string]any)
	if !ok || len(m) != 1 {
		t.Fatalf("not OpenAI's error JSON: %v", m)
	}
	for _, k := range []string{"message", "type", "param", "code"} {
		if _, ok := eo[k]; !ok {
			t.Errorf("error has no %q: %v", k, eo)
		}
	}
	if msg, _ := eo["message"].(string); msg == "" {
		t.Errorf("empty message: %v", eo)
	}
	if code != "" && eo["code"] != code {
		t.Errorf("code %v, want %q", eo["code"], code)
	}
	return eo
}

// systemText joins the system messages of the fake's last chat request.
func systemText(t *testing.T, fake *llmtest.Server) string {
	t.Helper()
	reqs := fake.ChatRequests()
	if len(reqs) == 0 {
		t.Fatal("the model got no request")
	}
	var b strings.Builder
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "system" {
			b.WriteString(m.Content + "\n")
		}
	}
	return b.String()
}

// sessionCount is how many sessions the database holds.
func sessionCount(t *testing.T, db *store.DB) int {
	t.Helper()
	ss, err := db.ListSessions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return len(ss)
}

// eventually polls cond every 10 ms until it holds or within passes.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", within, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
