package discordtest

import (
	"bytes"
	"compress/zlib"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// Gateway close codes the fake uses (Discord's values).
const (
	CloseUnknownOpcode        = 4001 // "Unknown opcode."
	CloseDecodeError          = 4002 // "Decode error."
	CloseNotAuthenticated     = 4003 // "Not authenticated."
	CloseAuthenticationFailed = 4004 // "Authentication failed." (wrong token)
	CloseAlreadyAuthenticated = 4005 // "Already authenticated."
	CloseInvalidIntents       = 4013 // "Invalid intent(s)."
	CloseDisallowedIntents    = 4014 // "Disallowed intent(s)."
)

// eventLogSize is how many dispatches a session keeps for RESUME replay.
const eventLogSize = 1000

const writeTimeout = 5 * time.Second

// privilegedIntents need a switch in the developer portal.
const privilegedIntents = discordgo.IntentGuildMembers | discordgo.IntentGuildPresences | discordgo.IntentMessageContent

// allIntents is every intent bit Discord knows (1<<0 … 1<<25).
const allIntents = discordgo.Intent(1<<26 - 1)

// payload is a gateway frame.
type payload struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  *int64          `json:"s"`
	T  *string         `json:"t"`
}

type loggedEvent struct {
	seq int64
	t   string
	d   json.RawMessage
}

// gwSession is one identified gateway session; it outlives its sockets until
// the client closes normally, so RESUME can replay what was missed.
type gwSession struct {
	id       string
	intents  discordgo.Intent
	compress bool

	mu   sync.Mutex // orders seq, log and writes to conn
	seq  int64
	log  []loggedEvent
	conn *gwConn
}

// gwConn is one gateway websocket.
type gwConn struct {
	s        *Server
	ws       *websocket.Conn
	wmu      sync.Mutex
	compress bool       // set by the reader before the conn is shared
	sess     *gwSession // reader goroutine only
	ready    bool       // guarded by s.mu
}

// send writes one frame (zlib-compressed binary after IDENTIFY with compress).
func (c *gwConn) send(op int, seq int64, t string, d any) error {
	raw, err := json.Marshal(d)
	if err != nil {
		return err
	}
	p := payload{Op: op, D: raw}
	if t != "" {
		p.S, p.T = &seq, &t
	}
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_ = c.ws.SetWriteDeadline(time.Now().Add(writeTimeout))
	if !c.compress {
		return c.ws.WriteMessage(websocket.TextMessage, b)
	}
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return c.ws.WriteMessage(websocket.BinaryMessage, buf.Bytes())
}

// closeWith sends a close frame with code and reason, then closes the socket.
func (c *gwConn) closeWith(code int, reason string) {
	c.s.logf("discordtest: gateway closes with %d %s", code, reason)
	c.wmu.Lock()
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
	c.wmu.Unlock()
	_ = c.ws.Close()
}

// dispatchLocked sends a dispatch (op 0) on the session; sess.mu must be held.
func (sess *gwSession) dispatchLocked(t string, d any) {
	b, err := json.Marshal(d)
	if err != nil {
		return
	}
	raw := json.RawMessage(b)
	sess.seq++
	sess.log = append(sess.log, loggedEvent{sess.seq, t, raw})
	if len(sess.log) > eventLogSize {
		sess.log = sess.log[len(sess.log)-eventLogSize:]
	}
	if sess.conn != nil {
		_ = sess.conn.send(0, sess.seq, t, raw) // a broken socket is cleaned up by its reader
	}
}

// dispatch sends event t to every session; build gives the payload for a
// session's intents (false: that session does not get it).
func (s *Server) dispatch(t string, build func(discordgo.Intent) (any, bool)) {
	s.mu.Lock()
	sessions := make([]*gwSession, 0, len(s.sessions))
	for _, sess := range s.sessions {
		sessions = append(sessions, sess)
	}
	s.mu.Unlock()
	for _, sess := range sessions {
		d, ok := build(sess.intents)
		if !ok {
			continue
		}
		sess.mu.Lock()
		sess.dispatchLocked(t, d)
		sess.mu.Unlock()
	}
}

// DropConnections closes every gateway socket abruptly (no close frame), as a
// network failure would. Sessions stay resumable: discordgo reconnects (with
// ShouldReconnectOnError, its default) and sends RESUME; events injected in
// between are replayed before RESUMED.
func (s *Server) DropConnections() {
	s.mu.Lock()
	conns := make([]*gwConn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
		c.ready = false
		delete(s.conns, c)
	}
	s.notifyLocked()
	s.mu.Unlock()
	for _, c := range conns {
		s.detach(c)
		_ = c.ws.Close()
	}
	if len(conns) > 0 {
		s.logf("discordtest: dropped %d gateway connection(s)", len(conns))
	}
}

// detach unhooks c from the session it serves, if any.
func (s *Server) detach(c *gwConn) {
	s.mu.Lock()
	sessions := make([]*gwSession, 0, len(s.sessions))
	for _, sess := range s.sessions {
		sessions = append(sessions, sess)
	}
	s.mu.Unlock()
	for _, sess := range sessions {
		sess.mu.Lock()
		if sess.conn == c {
			sess.conn = nil
		}
		sess.mu.Unlock()
	}
}

func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered
	}
	c := &gwConn{s: s, ws: ws}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		_ = ws.Close()
		return
	}
	s.conns[c] = struct{}{}
	s.notifyLocked()
	s.mu.Unlock()
	s.logf("discordtest: gateway connection from %s (%s)", r.RemoteAddr, r.URL.RawQuery)

	defer func() {
		s.mu.Lock()
		delete(s.conns, c)
		c.ready = false
		s.notifyLocked()
		s.mu.Unlock()
		s.detach(c)
		_ = ws.Close()
	}()

	if err := c.send(10, 0, "", map[string]int{"heartbeat_interval": s.opts.HeartbeatInterval}); err != nil {
		return
	}
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			if ce, ok := err.(*websocket.CloseError); ok && (ce.Code == websocket.CloseNormalClosure || ce.Code == websocket.CloseGoingAway) && c.sess != nil {
				// Discord ends the session on a normal close: no RESUME after it.
				s.mu.Lock()
				delete(s.sessions, c.sess.id)
				s.mu.Unlock()
			}
			return
		}
		var p payload
		if err := json.Unmarshal(data, &p); err != nil {
			c.closeWith(CloseDecodeError, "Decode error.")
			return
		}
		if !s.handleOp(c, p) {
			return
		}
	}
}

// handleOp answers one client frame; false ends the connection.
func (s *Server) handleOp(c *gwConn, p payload) bool {
	switch p.Op {
	case 1: // heartbeat
		return c.send(11, 0, "", nil) == nil
	case 2:
		return s.identify(c, p.D)
	case 6:
		return s.resume(c, p.D)
	case 3, 4, 8: // presence, voice state, request guild members: accepted, ignored
		if c.sess == nil {
			c.closeWith(CloseNotAuthenticated, "Not authenticated.")
			return false
		}
		return true
	default:
		c.closeWith(CloseUnknownOpcode, "Unknown opcode.")
		return false
	}
}

func (s *Server) tokenOK(t string) bool {
	return t == s.opts.Token || t == "Bot "+s.opts.Token
}

func (s *Server) identify(c *gwConn, d json.RawMessage) bool {
	if c.sess != nil {
		c.closeWith(CloseAlreadyAuthenticated, "Already authenticated.")
		return false
	}
	var id struct {
		Token    string           `json:"token"`
		Compress bool             `json:"compress"`
		Intents  discordgo.Intent `json:"intents"`
		Shard    *[2]int          `json:"shard"`
	}
	if err := json.Unmarshal(d, &id); err != nil {
		c.closeWith(CloseDecodeError, "Decode error.")
		return false
	}
	if !s.tokenOK(id.Token) {
		c.closeWith(CloseAuthenticationFailed, "Authentication failed.")
		return false
	}
	if id.Intents&^allIntents != 0 {
		c.closeWith(CloseInvalidIntents, "Invalid intent(s).")
		return false
	}
	if s.opts.DisallowPrivileged && id.Intents&privilegedIntents != 0 {
		c.closeWith(CloseDisallowedIntents, "Disallowed intent(s).")
		return false
	}
	sess := &gwSession{intents: id.Intents, compress: id.Compress && !s.opts.NoCompress}
	c.compress = sess.compress
	c.sess = sess
	// Hold sess.mu from registration to READY: an Inject racing with IDENTIFY
	// waits and is sent after READY, never lost in between.
	sess.mu.Lock()
	defer sess.mu.Unlock()
	sess.conn = c
	s.mu.Lock()
	s.sessionN++
	sess.id = fmt.Sprintf("fake-session-%d", s.sessionN)
	s.sessions[sess.id] = sess
	s.mu.Unlock()

	shard := [2]int{0, 1}
	if id.Shard != nil {
		shard = *id.Shard
	}
	bot := s.opts.BotUser
	ready := map[string]any{
		"v": 10, "session_id": sess.id, "user": bot, "shard": shard,
		"resume_gateway_url": s.GatewayURL,
		"application":        map[string]any{"id": bot.ID, "flags": 0},
		"guilds":             []any{}, "private_channels": []any{},
	}
	// Counted before the frame leaves, so Readies/WaitReady never lag behind
	// what the client has seen.
	s.markReady(c)
	sess.dispatchLocked("READY", ready)
	return true
}

func (s *Server) resume(c *gwConn, d json.RawMessage) bool {
	if c.sess != nil {
		c.closeWith(CloseAlreadyAuthenticated, "Already authenticated.")
		return false
	}
	var rs struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	if err := json.Unmarshal(d, &rs); err != nil {
		c.closeWith(CloseDecodeError, "Decode error.")
		return false
	}
	if !s.tokenOK(rs.Token) {
		c.closeWith(CloseAuthenticationFailed, "Authentication failed.")
		return false
	}
	s.mu.Lock()
	sess, ok := s.sessions[rs.SessionID]
	s.mu.Unlock()
	if !ok {
		// Invalid session, not resumable: the client identifies anew.
		return c.send(9, 0, "", false) == nil
	}
	c.compress = sess.compress
	c.sess = sess
	sess.mu.Lock()
	old := sess.conn
	sess.conn = c
	for _, e := range sess.log {
		if e.seq > rs.Seq {
			_ = c.send(0, e.seq, e.t, e.d)
		}
	}
	s.markReady(c)
	sess.dispatchLocked("RESUMED", map[string]any{"_trace": []string{"fake-discord"}})
	sess.mu.Unlock()
	if old != nil && old != c {
		_ = old.ws.Close()
	}
	return true
}

// markReady counts a READY/RESUMED about to be sent on c (sess.mu held; lock order sess.mu → s.mu).
func (s *Server) markReady(c *gwConn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.conns[c]; ok {
		c.ready = true
	}
	s.readies++
	s.notifyLocked()
}
