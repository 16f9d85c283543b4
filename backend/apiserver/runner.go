package apiserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
)

// Runner runs the API for the window for as long as its settings ask for
// it (API_SERVER_ENABLED, API_SERVER_LISTEN, API_SERVER_PORT): Apply starts,
// moves or stops it. The token is read by the handler on every request, so
// a new token needs no restart. Safe for concurrent use; the zero value is
// a stopped Runner.
type Runner struct {
	// Log receives its start, stop and failures (nil discards).
	Log *slog.Logger

	mu     sync.Mutex
	addr   string
	lan    bool
	cancel context.CancelFunc
	done   chan struct{}
	err    error
}

// RunnerStatus is what the settings page shows of the API.
type RunnerStatus struct {
	// Running is true while it listens.
	Running bool `json:"running"`
	// URL is its base URL while it runs ("http://127.0.0.1:8901/v1").
	URL string `json:"url"`
	// LAN is true in the local-network mode (it accepts any Host).
	LAN bool `json:"lan"`
	// Err is why the last Apply could not start it, "" otherwise.
	Err string `json:"err"`
}

// Apply brings the API to the settings: stopped when !enabled; else
// listening on ListenAddr(listen, port) with the handler newHandler builds
// (lan: the local-network mode) — started, or restarted on a new address.
// Errors: a bad address (APIBadListen) or the port in use; it is then
// stopped and Status says why.
func (r *Runner) Apply(enabled bool, listen string, port int, newHandler func(lan bool) (*Server, error)) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !enabled {
		r.stopLocked()
		r.err = nil
		return nil
	}
	addr, lan, err := ListenAddr(listen, port)
	if err != nil {
		r.stopLocked()
		r.err = err
		return err
	}
	if r.cancel != nil && addr == r.addr {
		return nil
	}
	r.stopLocked()
	h, err := newHandler(lan)
	if err != nil {
		r.err = err
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		r.err = fmt.Errorf("cannot listen on %s: %w", addr, err)
		r.log().Warn("the API did not start", "err", err)
		return r.err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := Serve(ctx, ln, h); err != nil {
			r.log().Warn("the API stopped", "err", err)
		}
	}()
	r.addr, r.lan, r.cancel, r.done, r.err = ln.Addr().String(), lan, cancel, done, nil
	r.log().Info("the OpenAI-compatible API is listening", "url", "http://"+r.addr+"/v1", "lan", lan)
	return nil
}

// Status reports whether it runs, where, and why it does not.
func (r *Runner) Status() RunnerStatus {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := RunnerStatus{Running: r.cancel != nil, LAN: r.lan}
	if r.cancel != nil {
		st.URL = "http://" + r.addr + "/v1"
	}
	if r.err != nil {
		st.Err = r.err.Error()
	}
	return st
}

// Close stops it and waits for running requests (at most the shutdown
// grace); Apply may start it again.
func (r *Runner) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopLocked()
}

func (r *Runner) stopLocked() {
	if r.cancel == nil {
		return
	}
	r.cancel()
	<-r.done
	r.log().Info("the OpenAI-compatible API stopped", "addr", r.addr)
	r.addr, r.lan, r.cancel, r.done = "", false, nil, nil
}

func (r *Runner) log() *slog.Logger {
	if r.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return r.Log
}

// ProbeModels lists the models of the API at baseURL (".../v1") with token,
// as an OpenAI client's first call does, and returns how many there are.
// Errors: the request failed, or the answer was not 200 with OpenAI's list.
func ProbeModels(ctx context.Context, baseURL, token string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(baseURL, "/")+"/models", nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var list struct {
		Object string            `json:"object"`
		Data   []json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 8<<20)).Decode(&list); err != nil || resp.StatusCode != http.StatusOK || list.Object != "list" {
		return 0, fmt.Errorf("GET /v1/models answered %s", resp.Status)
	}
	return len(list.Data), nil
}
