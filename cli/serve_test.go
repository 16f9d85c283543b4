package cli

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"playchat/backend/core"
	"playchat/backend/llm/llmtest"
)

// syncBuffer is a bytes.Buffer safe for a command writing while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func TestServePrintTokenMakesOneTokenAndKeepsIt(t *testing.T) {
	srv := llmtest.NewServer(t)
	env := testEnv(t, srv)
	first := runCLI(t, env, "", "serve", "--print-token")
	again := runCLI(t, env, "", "serve", "--print-token")
	tok := strings.TrimSpace(first.stdout)
	if first.code != 0 || len(tok) < 16 || strings.TrimSpace(again.stdout) != tok {
		t.Fatalf("first %+v, again %+v", first, again)
	}
	if r := runCLI(t, append(env, "PLAYCHAT_API_TOKEN=env-token-0123456789"), "", "serve", "--print-token"); strings.TrimSpace(r.stdout) != "env-token-0123456789" {
		t.Errorf("PLAYCHAT_API_TOKEN: %+v", r)
	}
	if r := runCLI(t, append(env, "PLAYCHAT_API_TOKEN=short"), "", "serve", "--print-token"); r.code != 1 || strings.Contains(r.stderr, "short") {
		t.Errorf("a short PLAYCHAT_API_TOKEN: %+v", r)
	}
	if r := runCLI(t, env, "", "serve", "--listen", "example.com"); r.code != 1 || !strings.Contains(r.stderr, "IP address") {
		t.Errorf("--listen example.com: %+v", r)
	}
}

// TestServeRunsBesideTheWindow: with a window's core holding the data dir,
// playchat serve starts, prints its URL, answers with the token, and stops
// cleanly when its context ends.
func TestServeRunsBesideTheWindow(t *testing.T) {
	srv := llmtest.NewServer(t)
	env := append(testEnv(t, srv), "PLAYCHAT_API_TOKEN=serve-token-0123456789")
	window, err := core.Open(context.Background(), core.Options{Environ: env, Exclusive: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer window.Close()

	for _, listen := range []string{"", "0.0.0.0"} {
		ctx, cancel := context.WithCancel(context.Background())
		var out, errb syncBuffer
		done := make(chan int, 1)
		go func() {
			done <- Run(ctx, []string{"serve", "--port", "0", "--listen", listen}, Env{Stdout: &out, Stderr: &errb, Environ: env, Logger: slog.New(slog.DiscardHandler)})
		}()
		var url string
		deadline := time.Now().Add(20 * time.Second)
		for url == "" && time.Now().Before(deadline) {
			if _, u, ok := strings.Cut(out.String(), "PLAYCHAT_API_URL="); ok && strings.HasSuffix(u, "\n") {
				url = strings.TrimSpace(u)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if url == "" {
			cancel()
			t.Fatalf("no URL; stderr %q", errb.String())
		}
		if listen != "" {
			if !strings.Contains(errb.String(), "WARNING: serving on the local network") {
				t.Errorf("no local-network warning: %q", errb.String())
			}
			url = strings.Replace(url, "0.0.0.0", "127.0.0.1", 1)
		}
		req, _ := http.NewRequest("POST", url+"/chat/completions", strings.NewReader(`{"model":"openai/fake","messages":[{"role":"user","content":"hi"}]}`))
		req.Header.Set("Authorization", "Bearer serve-token-0123456789")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), "fake reply: hi") {
			t.Errorf("%d %s", resp.StatusCode, b)
		}
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("exit %d: %s", code, errb.String())
			}
		case <-time.After(10 * time.Second):
			t.Fatal("serve did not stop")
		}
		if strings.Contains(errb.String(), "serve-token-0123456789") {
			t.Error("the token was printed")
		}
	}
}
