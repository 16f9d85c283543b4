// Package apiserver is playchat's OpenAI-compatible HTTP API (issue 23,
// `playchat serve`): GET /v1/models, GET /v1/models/{id} and POST
// /v1/chat/completions, streamed and not, in OpenAI's wire format, so Open
// WebUI, Ollama front-ends and the OpenAI SDKs can use playchat.
//
// A plain model id ("openai/gpt-4o-mini") is passed on to its provider with
// the user's keys, tools and sampling parameters included. A playchat/ alias
// ("playchat/openai/gpt-4o-mini") runs playchat's own turn pipeline with its
// context layers (learned knowledge, notes, the local knowledge base, the
// clock; with a session also long-term memory); the client's system
// messages are added to playchat's base prompt, after it. Without
// x_playchat_session nothing is stored (front-ends send titles, tags and
// follow-up questions as requests of their own); with it the turn is stored
// in that session like a turn of the window.
//
// Every request needs the token (Authorization: Bearer), compared in
// constant time; a request from a web page (an Origin header not in the
// allow-list) is refused and no CORS header is ever sent; on loopback the
// Host must name this computer (DNS rebinding). Bodies over MaxBodyBytes get
// 413.
package apiserver

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/chat"
	"playchat/backend/llm"
)

// MaxBodyBytes caps a request body (8 MiB); a larger one gets 413.
const MaxBodyBytes = 8 << 20

// AliasPrefix starts a playchat/ model id: "playchat/<provider>/<model>".
const AliasPrefix = "playchat/"

// LLM is what the server needs of the LLM client (backend/llm.Client).
type LLM interface {
	// Stream runs one streamed completion (llm.Client.Stream).
	Stream(ctx context.Context, req llm.Request, onDelta func(string)) (llm.StreamResult, error)
	// Providers returns the provider settings model ids resolve against.
	Providers() llm.Providers
}

// Options configure a Server. Token, LLM and Chat are required.
type Options struct {
	// Token returns the token every request must carry. It is asked on
	// every request (a rotated token applies at once); "" refuses every
	// request.
	Token func() string
	// LLM passes plain model ids on to their providers.
	LLM LLM
	// Chat runs the turns of playchat/ models.
	Chat *chat.Service
	// Models lists the user's "provider/model" ids (DEFAULT_MODEL, presets,
	// the providers' lists); nil lists none. Errors fail GET /v1/models.
	Models func(ctx context.Context) ([]string, error)
	// KBDomains lists the knowledge base's top-level folders, which
	// x_playchat_kb_domain must name; nil refuses every domain.
	KBDomains func(ctx context.Context) ([]string, error)
	// ShareNotes reports whether playchat/ turns may use the shared notes
	// (INTEROP_SHARE_NOTES, asked per request; nil: never) — notes reach
	// other tools only when the user says so, as over MCP.
	ShareNotes func() bool
	// Log records in api_logs the requests that fail before any LLM call
	// (a bad body, an unknown model), so every request the API answered
	// shows in the Logs panel; nil records none. The LLM client records
	// the calls themselves.
	Log llm.LogSink
	// AnyHost accepts any Host header (the local-network mode); otherwise
	// the Host must be a loopback address or "localhost".
	AnyHost bool
	// AllowedOrigins are the Origin header values accepted (exact match,
	// e.g. "http://localhost:3000"); a request with any other Origin gets
	// 403. Empty: no web page may call the API.
	AllowedOrigins []string
	// Logger gets one line per request; nil discards.
	Logger *slog.Logger
	// Clock is for tests; default time.Now.
	Clock func() time.Time
	// ModelsTimeout bounds the providers' model lists of one GET /v1/models
	// (default 3 s).
	ModelsTimeout time.Duration
}

// Server is the API's http.Handler. It is safe for concurrent use.
type Server struct {
	o       Options
	mux     *http.ServeMux
	started int64 // unix seconds: the "created" of every model
}

// New returns the API handler.
func New(o Options) *Server {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.ModelsTimeout <= 0 {
		o.ModelsTimeout = 3 * time.Second
	}
	s := &Server{o: o, mux: http.NewServeMux(), started: o.Clock().Unix()}
	s.mux.HandleFunc("GET /v1/models", s.listModels)
	s.mux.HandleFunc("GET /v1/models/{id...}", s.getModel)
	s.mux.HandleFunc("POST /v1/chat/completions", s.chatCompletions)
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeFailure(w, apperr.New(apperr.APINotFound, map[string]any{"method": r.Method, "path": r.URL.Path}))
	})
	return s
}

// ServeHTTP checks the Host, the Origin and the token, caps the body and
// routes the request. No CORS header is ever written.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.o.AnyHost && !loopbackHost(r.Host) {
		writeFailure(w, apperr.New(apperr.APIForbiddenHost, map[string]any{"host": r.Host}))
		return
	}
	if o := r.Header.Get("Origin"); o != "" && !slices.Contains(s.o.AllowedOrigins, o) {
		writeFailure(w, apperr.New(apperr.APIForbiddenOrigin, map[string]any{"origin": o}))
		return
	}
	if !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="playchat"`)
		writeFailure(w, apperr.New(apperr.APIUnauthorized, nil))
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	start := s.o.Clock()
	s.mux.ServeHTTP(w, r)
	s.o.Logger.Info("api request", "method", r.Method, "path", r.URL.Path, "ms", s.o.Clock().Sub(start).Milliseconds())
}

// authorized compares the request's bearer token with the current one in
// constant time (of their SHA-256 digests, so the length is not told
// either). An empty configured token authorizes nothing.
func (s *Server) authorized(r *http.Request) bool {
	want := ""
	if s.o.Token != nil {
		want = s.o.Token()
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if want == "" || !ok {
		return false
	}
	a, b := sha256.Sum256([]byte(strings.TrimSpace(got))), sha256.Sum256([]byte(want))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// loopbackHost reports whether a Host header names this computer by a
// loopback address or "localhost" (any port).
func loopbackHost(host string) bool {
	h := host
	if hh, _, err := net.SplitHostPort(host); err == nil {
		h = hh
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// models returns the ids GET /v1/models lists: the user's models, each
// also as its playchat/ alias, in order, each once.
func (s *Server) models(ctx context.Context) ([]modelObject, error) {
	var ids []string
	if s.o.Models != nil {
		ctx, cancel := context.WithTimeout(ctx, s.o.ModelsTimeout)
		defer cancel()
		var err error
		if ids, err = s.o.Models(ctx); err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{}
	var plain, alias []modelObject
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" || seen[id] || strings.HasPrefix(id, AliasPrefix) {
			continue
		}
		seen[id] = true
		provider, _, _ := strings.Cut(id, "/")
		plain = append(plain, modelObject{ID: id, Object: "model", Created: s.started, OwnedBy: provider})
		alias = append(alias, modelObject{ID: AliasPrefix + id, Object: "model", Created: s.started, OwnedBy: "playchat"})
	}
	return append(plain, alias...), nil
}

func (s *Server) listModels(w http.ResponseWriter, r *http.Request) {
	ms, err := s.models(r.Context())
	if err != nil {
		writeFailure(w, err)
		return
	}
	if ms == nil {
		ms = []modelObject{}
	}
	writeJSON(w, http.StatusOK, modelList{Object: "list", Data: ms})
}

// getModel answers GET /v1/models/{id...}: the id may hold slashes, plain
// or escaped as %2F.
func (s *Server) getModel(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	ms, err := s.models(r.Context())
	if err != nil {
		writeFailure(w, err)
		return
	}
	for _, m := range ms {
		if m.ID == id {
			writeJSON(w, http.StatusOK, m)
			return
		}
	}
	writeFailure(w, apperr.New(apperr.APIModelNotFound, map[string]any{"model": id}))
}

// writeJSON writes v as the JSON body with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// writeFailure writes err as OpenAI's error JSON with its status.
func writeFailure(w http.ResponseWriter, err error) {
	f := failureOf(err)
	writeJSON(w, f.status, errorBody{Error: f.body})
}
