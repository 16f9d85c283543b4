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
)

func TestFakediscordPrintsURLAndServesControlAndREST(t *testing.T) {
	ready := filepath.Join(t.TempDir(), "url")
	pr, pw := io.Pipe()
	stop := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- run([]string{"-addr", "127.0.0.1:0", "-token", "T0K", "-ready-file", ready}, pw, io.Discard, stop)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	base := strings.TrimSpace(line)
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("first line %q is not the base URL", line)
	}
	go io.Copy(io.Discard, pr)
	if b, err := os.ReadFile(ready); err != nil || strings.TrimSpace(string(b)) != base {
		t.Errorf("ready file = %q, %v; want %q", b, err, base)
	}

	req, _ := http.NewRequest("POST", base+"/api/v9/channels/9/messages", strings.NewReader(`{"content":"hi"}`))
	req.Header.Set("Authorization", "Bot T0K")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("POST message with the -token = %s", resp.Status)
	}
	resp, err = http.Post(base+"/_control/message", "application/json",
		strings.NewReader(`{"channel_id":"9","author_id":"5","author_name":"bob","content":"<@1000> hi"}`))
	if err != nil {
		t.Fatal(err)
	}
	var msg struct {
		ID       string `json:"id"`
		Mentions []struct {
			ID string `json:"id"`
		} `json:"mentions"`
	}
	err = json.NewDecoder(resp.Body).Decode(&msg)
	resp.Body.Close()
	if err != nil || msg.ID == "" || len(msg.Mentions) != 1 || msg.Mentions[0].ID != "1000" {
		t.Errorf("control message answer = %+v, %v", msg, err)
	}
	resp, err = http.Get(base + "/_control/calls")
	if err != nil {
		t.Fatal(err)
	}
	var calls []struct {
		Route  string          `json:"route"`
		Status int             `json:"status"`
		Body   json.RawMessage `json:"body"`
	}
	err = json.NewDecoder(resp.Body).Decode(&calls)
	resp.Body.Close()
	if err != nil || len(calls) != 1 || calls[0].Route != "/channels/9/messages" || calls[0].Status != 200 || string(calls[0].Body) != `{"content":"hi"}` {
		t.Errorf("calls = %+v, %v", calls, err)
	}
	close(stop)
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
}
