package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFakellmServesScriptThenDefaultReply(t *testing.T) {
	script := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(script, []byte(`[{"chunks":["scripted"],"first_byte_delay":"10ms"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	stop := make(chan os.Signal, 1)
	done := make(chan error, 1)
	go func() {
		done <- run([]string{"-addr", "127.0.0.1:0", "-reply", "hello there", "-chunks", "3", "-script", script, "-models", "a,b"}, pw, stop)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	base, ok := strings.CutPrefix(strings.TrimSpace(line), "FAKELLM_URL=")
	if !ok || !strings.HasSuffix(base, "/v1") {
		t.Fatalf("first line %q", line)
	}
	go io.Copy(io.Discard, pr)

	complete := func() string {
		resp, err := http.Post(base+"/chat/completions", "application/json",
			strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct {
			Choices []struct {
				Message struct{ Content string } `json:"message"`
			} `json:"choices"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Choices) != 1 {
			t.Fatalf("decode: %v %+v", err, out)
		}
		return out.Choices[0].Message.Content
	}
	if got := complete(); got != "scripted" {
		t.Errorf("first reply %q, want the scripted one", got)
	}
	if got := complete(); got != "hello there" {
		t.Errorf("second reply %q, want the -reply text", got)
	}
	resp, err := http.Get(base + "/models")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"id":"a"`) || !strings.Contains(string(b), `"id":"b"`) {
		t.Errorf("models = %s", b)
	}

	stop <- os.Interrupt
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("fakellm did not stop")
	}
}

func TestFakellmRejectsBadScript(t *testing.T) {
	script := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(script, []byte(`[{"first_byte_delay":"soon"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-script", script}, io.Discard, nil); err == nil {
		t.Fatal("bad script accepted")
	}
}
