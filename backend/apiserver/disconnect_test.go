package apiserver_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"playchat/backend/apperr"
)

// endlessUpstream is an OpenAI-compatible provider whose streams never end:
// it sends a delta every 20 ms until the request's context ends, and then
// reports the moment on ended.
func endlessUpstream(t *testing.T) (url string, ended <-chan time.Time) {
	ch := make(chan time.Time, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		for i := 0; ; i++ {
			select {
			case <-r.Context().Done():
				ch <- time.Now()
				return
			case <-time.After(20 * time.Millisecond):
			}
			fmt.Fprintf(w, "data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"word%d \"}}]}\n\n", i)
			if rc.Flush() != nil {
				ch <- time.Now()
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", ch
}

// TestAClientThatGoesAwayCancelsTheCall: a client that disconnects
// mid-stream ends the provider's request within 1 s and leaves no running
// turn — for a plain model, a playchat/ model without a session, and one
// with a session (whose partial reply is stored).
func TestAClientThatGoesAwayCancelsTheCall(t *testing.T) {
	up, ended := endlessUpstream(t)
	e := newEnv(t, envOpts{upstream: up})
	for _, tc := range []struct{ name, body string }{
		{"plain", `{"model":"openai/fake-chat","stream":true,"messages":[{"role":"user","content":"go on"}]}`},
		{"alias", `{"model":"playchat/openai/fake-chat","stream":true,"messages":[{"role":"user","content":"go on"}]}`},
		{"session", `{"model":"playchat/openai/fake-chat","stream":true,"x_playchat_session":"new","messages":[{"role":"user","content":"go on"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, "POST", e.srv.URL+"/v1/chat/completions", strings.NewReader(tc.body))
			req.Header.Set("Authorization", "Bearer "+testToken)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() && !strings.Contains(sc.Text(), "word1") {
			}
			if e.c.Chat.Running() == 0 && tc.name != "plain" {
				t.Error("no running turn mid-stream")
			}
			gone := time.Now()
			cancel()
			resp.Body.Close()
			select {
			case at := <-ended:
				if d := at.Sub(gone); d > time.Second {
					t.Errorf("the provider's request ended %v after the client went away", d)
				}
			case <-time.After(2 * time.Second):
				t.Fatal("the provider's request did not end")
			}
			eventually(t, time.Second, "no running turn", func() bool { return e.c.Chat.Running() == 0 })
		})
	}
	ss, err := e.c.DB.ListSessions(context.Background())
	if err != nil || len(ss) != 1 {
		t.Fatalf("sessions %d, %v", len(ss), err)
	}
	msgs, err := e.c.DB.SessionMessages(context.Background(), ss[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 || msgs[1].Status != "partial" || !strings.Contains(msgs[1].Content, "word0") {
		t.Errorf("the stopped turn stored %+v", msgs)
	}
	// Each cancelled call's API log says the client went away, not that
	// the user pressed Stop.
	e.c.FlushAPILogs()
	logs, _, err := e.c.DB.ListAPILogs(context.Background(), 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	gone := 0
	for _, l := range logs {
		switch apperr.ParseStored(l.Error).Code {
		case apperr.LLMClientGone:
			gone++
		case apperr.LLMCancelled:
			t.Errorf("a call the client's disconnect cancelled is logged as stopped by the user: %+v", l)
		}
	}
	if gone != 3 {
		t.Errorf("%d of the 3 calls logged as llm.clientGone (%d logs)", gone, len(logs))
	}
}
