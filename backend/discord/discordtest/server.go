// Package discordtest is a fake Discord for tests and the end-to-end script:
// the REST API under /api/v{N}/ and a gateway websocket on httptest, which
// github.com/bwmarrin/discordgo v0.29.0 talks to unchanged once PointAt has
// rewritten its endpoint variables.
//
// The gateway speaks HELLO (op 10) → IDENTIFY (op 2) → READY, heartbeat
// (op 1) → ACK (op 11), RESUME (op 6) → replay + RESUMED, and closes with
// 4004 "Authentication failed." on a wrong token, as Discord does. Inject
// dispatches MESSAGE_CREATE; DropConnections cuts every socket (reconnect
// tests); DeleteChannel makes a channel answer 404 Unknown Channel; FailNext and
// RateLimitNext script errors and 429s. Every REST call is recorded with its
// JSON body (Calls, WaitCall, WaitCalls; Call.Pings applies allowed_mentions).
//
// The fake checks what Discord checks and a bot gets wrong: the token (REST
// 401, gateway 4004), intents (no MESSAGE_CREATE without GUILD_MESSAGES /
// DIRECT_MESSAGES, blank content without MESSAGE_CONTENT unless the bot is
// mentioned), content over 2,000 code points (400), empty messages (400),
// allowed_mentions with parse and an id list of the same kind (400). Like
// Discord it echoes the bot's own messages as MESSAGE_CREATE (Options.NoEcho).
//
// Note: discordgo v0.29.0 uses API version 9 (discordgo.APIVersion), so the
// paths it calls are /api/v9/...; the fake serves any /api/v{N}/ (and /api/)
// prefix, and Call.Route gives the path without it ("/channels/42/messages").
package discordtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// DefaultToken is the bot token a Server accepts when Options.Token is empty.
// discordgo sends it as "Bot " + token (pass "Bot "+DefaultToken to discordgo.New).
const DefaultToken = "fake-bot-token"

// Defaults of the bot user the fake logs in as (READY, GET /users/@me).
const (
	DefaultBotID   = "1000"
	DefaultBotName = "playchat-bot"
)

// DefaultHeartbeatInterval is the heartbeat_interval (milliseconds) sent in HELLO,
// Discord's usual value.
const DefaultHeartbeatInterval = 41250

// Options configure a Server. The zero value is usable.
type Options struct {
	// Token is the bot token (without "Bot "). REST calls must carry
	// "Authorization: Bot <Token>"; IDENTIFY/RESUME must carry Token or "Bot <Token>".
	// Empty means DefaultToken.
	Token string
	// BotUser is the bot's user (READY, GET /users/@me, author of sent messages).
	// A zero ID/Username takes DefaultBotID/DefaultBotName; Bot is always true.
	BotUser discordgo.User
	// HeartbeatInterval in milliseconds for HELLO; 0 means DefaultHeartbeatInterval.
	HeartbeatInterval int
	// NoCompress sends every gateway payload as a text frame even when IDENTIFY
	// asks for compress (by default, after IDENTIFY with "compress": true —
	// discordgo's default — payloads are zlib-compressed binary frames).
	NoCompress bool
	// NoEcho turns off the MESSAGE_CREATE that Discord dispatches for the bot's
	// own messages (on by default, as on Discord: a bot must ignore its own messages).
	NoEcho bool
	// DisallowPrivileged closes an IDENTIFY that asks for a privileged intent
	// (GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT) with 4014 "Disallowed
	// intent(s).", as Discord does when the intent is not switched on in the portal.
	DisallowPrivileged bool
	// Control mounts the control API under /_control/ (see ControlHandler).
	Control bool
	// Logf, when set, receives one line per notable event (connections, closes).
	Logf func(format string, args ...any)
	// Now is the clock for message timestamps and snowflakes; nil means time.Now.
	Now func() time.Time
}

// Call is one REST request the fake received (control requests are not recorded).
type Call struct {
	Method string `json:"method"`
	// Path is the URL path as received, e.g. "/api/v9/channels/42/messages".
	Path string `json:"path"`
	// Route is Path without the "/api/v{N}" prefix, e.g. "/channels/42/messages".
	Route string `json:"route"`
	// Query is the raw query string ("" if none).
	Query  string      `json:"query,omitempty"`
	Header http.Header `json:"header"`
	// Body is the JSON body (for multipart requests: the payload_json part);
	// a non-JSON body is kept as a JSON string; an empty body is null.
	Body json.RawMessage `json:"body"`
	// Status is the HTTP status the fake answered.
	Status int `json:"status"`
	// At is when the request arrived (Options.Now), e.g. to check that a
	// reminder was posted on time.
	At time.Time `json:"at"`
}

// Decode unmarshals the call's Body into v (e.g. a *discordgo.MessageSend).
func (c Call) Decode(v any) error { return json.Unmarshal(c.Body, v) }

// MessagePost returns a predicate for WaitCall matching a successful
// POST /channels/{channelID}/messages ("" matches any channel).
func MessagePost(channelID string) func(Call) bool {
	return func(c Call) bool {
		if c.Method != http.MethodPost || c.Status/100 != 2 {
			return false
		}
		if channelID == "" {
			return routeRe.channelMessages.MatchString(c.Route)
		}
		return c.Route == "/channels/"+channelID+"/messages"
	}
}

// Server is a running fake Discord. Create it with NewServer (tests) or
// Listen (cmd/fakediscord); stop it with Close.
type Server struct {
	// URL is the base URL, e.g. "http://127.0.0.1:PORT" (no trailing slash):
	// pass it to PointAt.
	URL string
	// GatewayURL is the websocket URL GET /gateway answers ("ws://…/gateway").
	GatewayURL string

	opts     Options
	hs       *httptest.Server
	upgrader websocket.Upgrader

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced on every change (calls, connections)
	calls    []Call
	conns    map[*gwConn]struct{}
	sessions map[string]*gwSession
	deleted  map[string]bool
	channels map[string]*discordgo.Channel // channels seen (injected or DM-created)
	users    map[string]discordgo.User     // authors seen
	messages map[string]*discordgo.Message // messages sent through REST
	readies  int                           // READY + RESUMED sent, ever
	lastID   uint64
	sessionN int
	faults   []*fault // FailNext / RateLimitNext
	closed   bool
}

// NewServer starts a fake on a loopback port for a test and closes it in
// t.Cleanup. opts is optional (at most one).
func NewServer(t testing.TB, opts ...Options) *Server {
	t.Helper()
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	if o.Logf == nil {
		o.Logf = t.Logf
	}
	s := newServer(o)
	s.hs = httptest.NewServer(s)
	s.setURL()
	t.Cleanup(s.Close)
	return s
}

// Listen starts a fake on addr ("127.0.0.1:0" for any free port). Close it when done.
func Listen(addr string, o Options) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("discordtest: listen %s: %w", addr, err)
	}
	s := newServer(o)
	s.hs = httptest.NewUnstartedServer(s)
	s.hs.Listener.Close()
	s.hs.Listener = ln
	s.hs.Start()
	s.setURL()
	return s, nil
}

func newServer(o Options) *Server {
	if o.Token == "" {
		o.Token = DefaultToken
	}
	if o.BotUser.ID == "" {
		o.BotUser.ID = DefaultBotID
	}
	if o.BotUser.Username == "" {
		o.BotUser.Username = DefaultBotName
	}
	o.BotUser.Bot = true
	if o.HeartbeatInterval <= 0 {
		o.HeartbeatInterval = DefaultHeartbeatInterval
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	return &Server{
		opts:     o,
		changed:  make(chan struct{}),
		conns:    map[*gwConn]struct{}{},
		sessions: map[string]*gwSession{},
		deleted:  map[string]bool{},
		channels: map[string]*discordgo.Channel{},
		users:    map[string]discordgo.User{},
		messages: map[string]*discordgo.Message{},
		upgrader: websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }},
	}
}

func (s *Server) setURL() {
	s.URL = s.hs.URL
	s.GatewayURL = "ws" + strings.TrimPrefix(s.hs.URL, "http") + "/gateway"
}

// Token returns the bot token the fake accepts (without "Bot ").
func (s *Server) Token() string { return s.opts.Token }

// BotUser returns the bot's user.
func (s *Server) BotUser() discordgo.User { return s.opts.BotUser }

// Close cuts every gateway socket and stops the HTTP server. It is safe to call twice.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.mu.Unlock()
	s.DropConnections()
	s.hs.Close()
}

// logf logs through Options.Logf until Close (t.Logf panics once a test is over).
func (s *Server) logf(format string, args ...any) {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if !closed {
		s.opts.Logf(format, args...)
	}
}

// notifyLocked wakes every waiter; s.mu must be held.
func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// wait blocks until cond (called with s.mu held) is true or ctx ends.
func (s *Server) wait(ctx context.Context, cond func() bool) error {
	for {
		s.mu.Lock()
		ok := cond()
		ch := s.changed
		s.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Calls returns a copy of every REST call recorded so far, in arrival order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// WaitCall waits for a recorded call (already recorded or still to come)
// matching pred and returns the first one; ctx's error if none comes in time.
func (s *Server) WaitCall(ctx context.Context, pred func(Call) bool) (Call, error) {
	var found Call
	err := s.wait(ctx, func() bool {
		for _, c := range s.calls {
			if pred(c) {
				found = c
				return true
			}
		}
		return false
	})
	if err != nil {
		return Call{}, fmt.Errorf("discordtest: no matching call: %w", err)
	}
	return found, nil
}

// WaitCalls waits until n recorded calls match pred and returns them.
func (s *Server) WaitCalls(ctx context.Context, n int, pred func(Call) bool) ([]Call, error) {
	var found []Call
	err := s.wait(ctx, func() bool {
		found = found[:0]
		for _, c := range s.calls {
			if pred(c) {
				found = append(found, c)
			}
		}
		return len(found) >= n
	})
	if err != nil {
		return found, fmt.Errorf("discordtest: %d of %d matching calls: %w", len(found), n, err)
	}
	return found, nil
}

// Connections returns how many gateway sockets are open and past READY or RESUMED.
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.liveLocked()
}

func (s *Server) liveLocked() int {
	n := 0
	for c := range s.conns {
		if c.ready {
			n++
		}
	}
	return n
}

// Readies returns how many READY and RESUMED events the fake has sent in total.
func (s *Server) Readies() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.readies
}

// WaitReady waits until at least one gateway socket is open and past READY
// or RESUMED (after DropConnections: until the client has reconnected).
func (s *Server) WaitReady(ctx context.Context) error {
	if err := s.wait(ctx, func() bool { return s.liveLocked() > 0 }); err != nil {
		return fmt.Errorf("discordtest: no ready gateway connection: %w", err)
	}
	return nil
}

// WaitReadies waits until READY/RESUMED has been sent at least n times in total.
func (s *Server) WaitReadies(ctx context.Context, n int) error {
	if err := s.wait(ctx, func() bool { return s.readies >= n }); err != nil {
		return fmt.Errorf("discordtest: fewer than %d READY/RESUMED: %w", n, err)
	}
	return nil
}

// DeleteChannel makes channel id unknown: REST calls on it answer 404
// {"message": "Unknown Channel", "code": 10003}.
func (s *Server) DeleteChannel(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deleted[id] = true
	delete(s.channels, id)
}

// ServeHTTP routes the gateway, the control API and the REST API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/gateway" || r.URL.Path == "/gateway/":
		s.serveGateway(w, r)
	case strings.HasPrefix(r.URL.Path, "/_control/") && s.opts.Control:
		s.ControlHandler().ServeHTTP(w, r)
	default:
		s.serveREST(w, r)
	}
}
