package discordtest

import (
	"bytes"
	"compress/zlib"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// rawClient is a bare gateway client, to check the protocol frame by frame.
type rawClient struct {
	t  *testing.T
	ws *websocket.Conn
}

func dialRaw(t *testing.T, srv *Server) *rawClient {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(srv.GatewayURL+"/?v=9&encoding=json", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	_ = ws.SetReadDeadline(time.Now().Add(failsafe))
	return &rawClient{t, ws}
}

func (c *rawClient) send(op int, d any) {
	c.t.Helper()
	if err := c.ws.WriteJSON(map[string]any{"op": op, "d": d}); err != nil {
		c.t.Fatal(err)
	}
}

// read returns the next frame, inflating zlib binary frames; err for a close.
func (c *rawClient) read() (payload, bool, error) {
	mt, b, err := c.ws.ReadMessage()
	if err != nil {
		return payload{}, false, err
	}
	compressed := mt == websocket.BinaryMessage
	if compressed {
		zr, err := zlib.NewReader(bytes.NewReader(b))
		if err != nil {
			c.t.Fatal(err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			c.t.Fatal(err)
		}
	}
	var p payload
	if err := json.Unmarshal(b, &p); err != nil {
		c.t.Fatalf("frame %q: %v", b, err)
	}
	return p, compressed, nil
}

func (c *rawClient) must() (payload, bool) {
	c.t.Helper()
	p, z, err := c.read()
	if err != nil {
		c.t.Fatal(err)
	}
	return p, z
}

func TestGatewayProtocolFrames(t *testing.T) {
	srv := NewServer(t, Options{HeartbeatInterval: 1234})
	c := dialRaw(t, srv)

	hello, z := c.must()
	var h struct {
		HeartbeatInterval int `json:"heartbeat_interval"`
	}
	_ = json.Unmarshal(hello.D, &h)
	if hello.Op != 10 || h.HeartbeatInterval != 1234 || z {
		t.Fatalf("first frame = op %d %s (compressed %v), want text HELLO with 1234", hello.Op, hello.D, z)
	}

	c.send(2, map[string]any{"token": DefaultToken, "compress": true, "intents": int(botIntents)})
	ready, z := c.must()
	var r discordgo.Ready
	_ = json.Unmarshal(ready.D, &r)
	if ready.Op != 0 || *ready.T != "READY" || *ready.S != 1 || !z {
		t.Fatalf("after IDENTIFY: op %d t %v s %v compressed %v", ready.Op, ready.T, ready.S, z)
	}
	var extra struct {
		ResumeGatewayURL string `json:"resume_gateway_url"`
		Guilds           []any  `json:"guilds"`
	}
	_ = json.Unmarshal(ready.D, &extra)
	if r.User == nil || r.User.ID != "1000" || r.User.Username != "playchat-bot" || !r.User.Bot || r.SessionID == "" ||
		extra.ResumeGatewayURL != srv.GatewayURL || extra.Guilds == nil {
		t.Errorf("READY d = %s", ready.D)
	}

	c.send(1, 1)
	if ack, _ := c.must(); ack.Op != 11 {
		t.Errorf("heartbeat answered with op %d, want 11", ack.Op)
	}
	srv.Inject(MessageCreate{Content: "one"})
	srv.Inject(MessageCreate{Content: "two"})
	for want := int64(2); want <= 3; want++ {
		p, _ := c.must()
		if p.Op != 0 || *p.T != "MESSAGE_CREATE" || *p.S != want {
			t.Errorf("dispatch: op %d t %v s %d, want MESSAGE_CREATE s %d", p.Op, *p.T, *p.S, want)
		}
	}

	c.send(2, map[string]any{"token": DefaultToken})
	if _, _, err := c.read(); !isClose(err, CloseAlreadyAuthenticated) {
		t.Errorf("second IDENTIFY: %v, want close 4005", err)
	}

	// RESUME on a new socket replays nothing missed and answers RESUMED with the next seq.
	c2 := dialRaw(t, srv)
	c2.must()
	c2.send(6, map[string]any{"token": "Bot " + DefaultToken, "session_id": r.SessionID, "seq": 3})
	res, _ := c2.must()
	if res.Op != 0 || *res.T != "RESUMED" || *res.S != 4 {
		t.Errorf("RESUME: op %d t %v s %v, want RESUMED s 4", res.Op, res.T, res.S)
	}

	c3 := dialRaw(t, srv)
	c3.must()
	c3.send(6, map[string]any{"token": DefaultToken, "session_id": "no-such-session", "seq": 1})
	if inv, _ := c3.must(); inv.Op != 9 || string(inv.D) != "false" {
		t.Errorf("RESUME of an unknown session: op %d d %s, want op 9 false", inv.Op, inv.D)
	}

	c4 := dialRaw(t, srv)
	c4.must()
	c4.send(99, nil)
	if _, _, err := c4.read(); !isClose(err, CloseUnknownOpcode) {
		t.Errorf("unknown opcode: %v, want close 4001", err)
	}
}

func isClose(err error, code int) bool {
	var ce *websocket.CloseError
	return errors.As(err, &ce) && ce.Code == code
}

func TestWebhookExecuteAndFaults(t *testing.T) {
	srv := NewServer(t)
	post := func(path, body string) *http.Response {
		t.Helper()
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if r := post("/api/webhooks/11/secret", `{"content":"@everyone rain","allowed_mentions":{"parse":[]}}`); r.StatusCode != 204 {
		t.Errorf("webhook execute = %s, want 204", r.Status)
	}
	c, err := srv.WaitCall(ctx(t), func(c Call) bool { return c.Route == "/webhooks/11/secret" })
	if err != nil || !c.Pings().None() {
		t.Errorf("webhook call %+v pings %+v", c, c.Pings())
	}
	if r := post("/api/v10/webhooks/11/secret", `{"content":""}`); r.StatusCode != 400 {
		t.Errorf("empty webhook message = %s, want 400", r.Status)
	}

	srv.RateLimitNext(1, "/webhooks/", 20*time.Millisecond)
	r := post("/api/webhooks/11/secret", `{"content":"x"}`)
	if r.StatusCode != 429 || r.Header.Get("Retry-After") != "1" || r.Header.Get("X-RateLimit-Reset-After") != "0.020" {
		t.Errorf("rate-limited call = %s %v", r.Status, r.Header)
	}
	if r := post("/api/webhooks/11/secret", `{"content":"x"}`); r.StatusCode != 204 {
		t.Errorf("call after the rate limit = %s, want 204", r.Status)
	}

	// discordgo sleeps retry_after and retries a 429 by itself.
	t.Cleanup(PointAt(srv.URL))
	s, _ := discordgo.New("Bot " + DefaultToken)
	srv.RateLimitNext(1, "/channels/", 10*time.Millisecond)
	if _, err := s.ChannelMessageSend("8", "after a 429"); err != nil {
		t.Errorf("send through one 429: %v", err)
	}
	if calls, err := srv.WaitCalls(ctx(t), 2, func(c Call) bool { return c.Route == "/channels/8/messages" }); err != nil || calls[0].Status != 429 || calls[1].Status != 200 {
		t.Errorf("calls = %+v, %v", calls, err)
	}
	srv.FailNext(1, "/channels/8", http.StatusForbidden)
	var re *discordgo.RESTError
	if _, err := s.ChannelMessageSend("8", "x"); !errors.As(err, &re) || re.Response.StatusCode != 403 {
		t.Errorf("FailNext 403: %v", err)
	}
}
