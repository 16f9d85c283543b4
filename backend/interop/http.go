package interop

import (
	"crypto/subtle"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"playchat/backend/apperr"
)

// HTTPPath is where the window and `playchat mcp --http` mount the handler.
const HTTPPath = "/mcp"

// HTTPOptions configure NewHTTPHandler.
type HTTPOptions struct {
	// Log receives refused requests (without their token) and the SDK's
	// warnings; nil discards.
	Log *slog.Logger
}

// HTTPHandler serves an MCP server over streamable HTTP (the MCP spec's
// transport), for a listener on 127.0.0.1 only. Every request must:
//
//   - name a loopback Host (127.0.0.1, localhost or [::1], with the port the
//     request arrived on) — else 403, which stops DNS rebinding;
//   - carry no Origin, or the same loopback origin (http://127.0.0.1:port,
//     http://localhost:port) — else 403, so a web page in the user's
//     browser cannot drive it;
//   - carry "Authorization: Bearer <token>" with the current token
//     (compared in constant time) — else 401.
//
// Rotate replaces the token and ends every session opened with the old one.
// Safe for concurrent use.
type HTTPHandler struct {
	newServer func() *MCP
	log       *slog.Logger

	mu    sync.RWMutex
	token []byte
	cur   *generation
}

// generation is one token's server and SDK handler; rotating the token
// starts a new one and closes the old one's sessions.
type generation struct {
	m *MCP
	h *mcp.StreamableHTTPHandler
}

// NewHTTPHandler returns a handler serving the MCPs newServer builds (one
// now, and a fresh one after each Rotate) with token required. An empty
// token is refused (InteropNoToken): the server never runs without one.
func NewHTTPHandler(newServer func() *MCP, token string, o HTTPOptions) (*HTTPHandler, error) {
	if strings.TrimSpace(token) == "" {
		return nil, apperr.New(apperr.InteropNoToken, nil)
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	h := &HTTPHandler{newServer: newServer, log: o.Log, token: []byte(token)}
	h.cur = h.generation()
	return h, nil
}

func (h *HTTPHandler) generation() *generation {
	m := h.newServer()
	sh := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return m.Server() },
		&mcp.StreamableHTTPOptions{Logger: h.log})
	return &generation{m: m, h: sh}
}

// Rotate makes token the only one accepted and closes every session of the
// old token (their next request gets 401, or 404 with the new token). An
// empty token is refused and nothing changes.
func (h *HTTPHandler) Rotate(token string) error {
	if strings.TrimSpace(token) == "" {
		return apperr.New(apperr.InteropNoToken, nil)
	}
	next := h.generation()
	h.mu.Lock()
	old := h.cur
	h.token, h.cur = []byte(token), next
	h.mu.Unlock()
	closeSessions(old)
	return nil
}

// Sync applies changed permissions to the current server (see MCP.Sync).
func (h *HTTPHandler) Sync() {
	h.mu.RLock()
	g := h.cur
	h.mu.RUnlock()
	g.m.Sync()
}

// Close ends every session (the listener is the caller's to close).
func (h *HTTPHandler) Close() {
	h.mu.RLock()
	g := h.cur
	h.mu.RUnlock()
	closeSessions(g)
}

func closeSessions(g *generation) {
	var ss []*mcp.ServerSession
	for s := range g.m.Server().Sessions() {
		ss = append(ss, s)
	}
	for _, s := range ss {
		_ = s.Close()
	}
}

// ServeHTTP checks Host, Origin and the token, then hands the request to
// the SDK's streamable HTTP handler.
func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	port := localPort(r)
	if !loopbackHost(r.Host, port) {
		h.log.Warn("MCP HTTP: refused a foreign Host", "host", r.Host)
		http.Error(w, "Forbidden: the Host must be 127.0.0.1 or localhost", http.StatusForbidden)
		return
	}
	if o, ok := r.Header["Origin"]; ok && (len(o) != 1 || !loopbackOrigin(o[0], port)) {
		h.log.Warn("MCP HTTP: refused a foreign Origin", "origin", strings.Join(o, ", "))
		http.Error(w, "Forbidden: cross-origin requests are not allowed", http.StatusForbidden)
		return
	}
	h.mu.RLock()
	token, g := h.token, h.cur
	h.mu.RUnlock()
	if !validBearer(r.Header.Get("Authorization"), token) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="playchat"`)
		http.Error(w, "Unauthorized: send Authorization: Bearer <token> (Settings → Use from other tools)", http.StatusUnauthorized)
		return
	}
	g.h.ServeHTTP(w, r)
}

// validBearer compares the request's bearer token with token in constant
// time (for tokens of equal length; the length itself is not secret).
func validBearer(header string, token []byte) bool {
	scheme, got, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	got = strings.TrimSpace(got)
	return got != "" && subtle.ConstantTimeCompare([]byte(got), token) == 1
}

// localPort is the port the request arrived on ("" when unknown).
func localPort(r *http.Request) string {
	a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || a == nil {
		return ""
	}
	_, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return ""
	}
	return port
}

// isLoopbackName reports whether host (without port or brackets) names the
// loopback interface.
func isLoopbackName(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// loopbackHost reports whether a Host header names the loopback interface
// with port (any port when port is "").
func loopbackHost(hostport, port string) bool {
	host, p, err := net.SplitHostPort(hostport)
	if err != nil {
		var addrErr *net.AddrError
		if !errors.As(err, &addrErr) || !strings.Contains(addrErr.Err, "missing port") {
			return false
		}
		host, p = strings.Trim(hostport, "[]"), ""
	}
	if !isLoopbackName(host) {
		return false
	}
	return port == "" || p == port || (p == "" && port == "80")
}

// loopbackOrigin reports whether an Origin header is http(s) on the
// loopback interface with port.
func loopbackOrigin(origin, port string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil || (u.Path != "" && u.Path != "/") {
		return false
	}
	return loopbackHost(u.Host, port)
}

// CheckLoopbackAddr refuses a listen address that is not on the loopback
// interface (InteropNotLoopback): the MCP server over HTTP binds 127.0.0.1.
func CheckLoopbackAddr(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || !isLoopbackName(host) {
		return apperr.New(apperr.InteropNotLoopback, map[string]any{"addr": addr})
	}
	return nil
}
