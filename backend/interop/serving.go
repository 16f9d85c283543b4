package interop

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Serving runs the MCP server over streamable HTTP on 127.0.0.1 for as long
// as the window's settings ask for it (MCP_HTTP_ENABLED, MCP_HTTP_PORT,
// MCP_HTTP_TOKEN): Apply starts, moves, re-keys or stops it. Safe for
// concurrent use. The zero value is not usable: use NewServing.
type Serving struct {
	newServer func() *MCP
	log       *slog.Logger

	mu    sync.Mutex
	port  int
	token string
	h     *HTTPHandler
	srv   *http.Server
	addr  string
	err   error
}

// ServingStatus is what the settings page shows of the HTTP server.
type ServingStatus struct {
	// Running is true while it listens.
	Running bool `json:"running"`
	// URL is its endpoint while it runs ("http://127.0.0.1:8765/mcp"), "" otherwise.
	URL string `json:"url"`
	// Err is why the last Apply could not start it (the port is taken, …), "" otherwise.
	Err string `json:"err"`
}

// NewServing returns a stopped server that serves the MCPs newServer
// builds; log receives its start, stop and failures (nil discards).
func NewServing(newServer func() *MCP, log *slog.Logger) *Serving {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Serving{newServer: newServer, log: log}
}

// Apply brings the server to the settings: stopped when !enabled; else
// listening on 127.0.0.1:port with token required — started, moved to a
// new port, or re-keyed (Rotate: the old token's sessions end) as needed,
// and its tools synced with the permissions. Errors: an empty token
// (InteropNoToken), a port outside 1–65535, or the port already in use;
// the server is then stopped and Status reports why.
func (s *Serving) Apply(enabled bool, port int, token string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !enabled {
		s.stopLocked()
		s.err = nil
		return nil
	}
	if port < 1 || port > 65535 {
		s.stopLocked()
		s.err = fmt.Errorf("port %d is outside 1–65535", port)
		return s.err
	}
	if s.srv != nil && s.port == port {
		if token != s.token {
			if err := s.h.Rotate(token); err != nil {
				return err
			}
			s.token = token
			s.log.Info("MCP over HTTP: token rotated, old sessions ended")
		}
		s.h.Sync()
		return nil
	}
	s.stopLocked()
	h, err := NewHTTPHandler(s.newServer, token, HTTPOptions{Log: s.log})
	if err != nil {
		s.err = err
		return err
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		h.Close()
		s.err = fmt.Errorf("cannot listen on %s: %w", addr, err)
		s.log.Warn("MCP over HTTP did not start", "err", err)
		return s.err
	}
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Warn("MCP over HTTP stopped", "err", err)
		}
	}()
	s.h, s.srv, s.port, s.token, s.addr, s.err = h, srv, port, token, ln.Addr().String(), nil
	s.log.Info("MCP over HTTP listening", "url", "http://"+s.addr+HTTPPath)
	return nil
}

// Status reports whether it runs, where, and why it does not.
func (s *Serving) Status() ServingStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := ServingStatus{Running: s.srv != nil}
	if s.srv != nil {
		st.URL = "http://" + s.addr + HTTPPath
	}
	if s.err != nil {
		st.Err = s.err.Error()
	}
	return st
}

// Close stops the server (its sessions end); Apply may start it again.
func (s *Serving) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopLocked()
}

func (s *Serving) stopLocked() {
	if s.srv == nil {
		return
	}
	s.h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = s.srv.Shutdown(ctx)
	s.log.Info("MCP over HTTP stopped", "addr", s.addr)
	s.h, s.srv, s.port, s.token, s.addr = nil, nil, 0, "", ""
}

// NewToken returns a fresh bearer token: 32 random bytes, base64url
// without padding (43 characters).
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}
