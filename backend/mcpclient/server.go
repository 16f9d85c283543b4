package mcpclient

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// States of a server.
const (
	StateStopped       = "stopped"
	StateDisabled      = "disabled"
	StateStarting      = "starting"
	StateReady         = "ready"
	StateFailed        = "failed"
	StateNotResponding = "not_responding"
)

// StartTimeout bounds connecting and listing the tools; a server that has
// not answered by then is "not responding" and is stopped.
var StartTimeout = 30 * time.Second

// stderrDrain bounds the wait for a server's stderr to end after its
// process exited (and what it started was killed).
const stderrDrain = 2 * time.Second

// stderrLines is how many of the last stderr lines a failure shows.
const stderrLines = 12

// maxLogBytes caps a server's log file: a bigger one is started afresh.
const maxLogBytes = 1 << 20

// runner is one server's running connection.
type runner struct {
	m   *Manager
	cfg Server

	mu       sync.Mutex
	state    string
	reason   string
	exitCode *int
	stderr   []string
	tools    []*mcp.Tool
	session  *mcp.ClientSession
	tree     *procTree
	stopping bool
	cancel   context.CancelFunc
	done     chan struct{}
	started  time.Time
	// calls maps a progress token to the timer of the call it belongs to.
	calls map[string]func()
}

func (r *runner) set(fn func()) {
	r.mu.Lock()
	fn()
	r.mu.Unlock()
	r.m.changed(r.cfg.Name)
}

func (r *runner) fail(state, reason string) {
	r.set(func() {
		if r.stopping {
			return
		}
		r.state, r.reason, r.tools, r.session = state, reason, nil, nil
	})
	r.m.log.Warn("MCP server failed", "server", r.cfg.Name, "state", state, "reason", reason)
}

// run connects and lists the tools; it returns when the server is ready or
// has failed. A stdio server's exit afterwards marks it failed.
func (r *runner) run(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, StartTimeout)
	defer cancel()
	t, err := r.transport()
	if err != nil {
		r.fail(StateFailed, err.Error())
		return
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "playchat", Version: r.m.version}, &mcp.ClientOptions{
		Capabilities:                &mcp.ClientCapabilities{},
		Logger:                      r.m.log,
		ProgressNotificationHandler: r.progress,
		ToolListChangedHandler: func(ctx context.Context, _ *mcp.ToolListChangedRequest) {
			go r.refreshTools()
		},
	})
	cs, err := client.Connect(ctx, t, nil)
	if err != nil {
		r.connectFailed(ctx, err)
		return
	}
	r.mu.Lock()
	r.session = cs
	r.mu.Unlock()
	tools, err := listTools(ctx, cs)
	if err != nil {
		r.connectFailed(ctx, err)
		_ = cs.Close()
		return
	}
	r.set(func() {
		if r.stopping {
			return
		}
		r.state, r.reason, r.tools = StateReady, "", tools
	})
	r.m.log.Info("MCP server ready", "server", r.cfg.Name, "tools", len(tools), "ms", time.Since(r.started).Milliseconds())
}

func (r *runner) connectFailed(ctx context.Context, err error) {
	if r.isStopping() {
		return
	}
	if ctx.Err() != nil && errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		r.stopProcess()
		r.fail(StateNotResponding, fmt.Sprintf("the server did not answer within %s", StartTimeout))
		return
	}
	// A stdio server that exited says more than the broken pipe.
	if r.waitExit(2 * time.Second) {
		return // waitProcess reported it
	}
	r.fail(StateFailed, "could not connect: "+err.Error())
}

func (r *runner) isStopping() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stopping
}

func listTools(ctx context.Context, cs *mcp.ClientSession) ([]*mcp.Tool, error) {
	var out []*mcp.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("listing the tools: %w", err)
		}
		out = append(out, t)
	}
	return out, nil
}

func (r *runner) refreshTools() {
	r.mu.Lock()
	cs := r.session
	r.mu.Unlock()
	if cs == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), StartTimeout)
	defer cancel()
	tools, err := listTools(ctx, cs)
	if err != nil {
		r.m.log.Warn("MCP tool list refresh", "server", r.cfg.Name, "err", err)
		return
	}
	r.set(func() {
		if r.state == StateReady {
			r.tools = tools
		}
	})
}

// transport builds the connection: a process playchat owns, or HTTP.
func (r *runner) transport() (mcp.Transport, error) {
	switch r.cfg.Transport {
	case TransportHTTP, TransportSSE:
		env, _ := r.m.shell.Environ()
		u, err := Expand(r.cfg.URL, env)
		if err != nil {
			return nil, err
		}
		headers := map[string]string{}
		for k, v := range r.cfg.Headers {
			if headers[k], err = Expand(v, env); err != nil {
				return nil, fmt.Errorf("header %s: %w", k, err)
			}
		}
		hc := &http.Client{Transport: headerTransport{headers: headers, rt: http.DefaultTransport}}
		if r.cfg.Transport == TransportSSE {
			return &mcp.SSEClientTransport{Endpoint: u, HTTPClient: hc}, nil
		}
		return &mcp.StreamableClientTransport{Endpoint: u, HTTPClient: hc, MaxRetries: 2}, nil
	}
	return r.startProcess()
}

type headerTransport struct {
	headers map[string]string
	rt      http.RoundTripper
}

func (h headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range h.headers {
		req.Header.Set(k, v)
	}
	return h.rt.RoundTrip(req)
}

// startProcess starts the stdio server in a process tree of its own.
func (r *runner) startProcess() (mcp.Transport, error) {
	shellEnv, serr := r.m.shell.Environ()
	if serr != nil {
		r.m.log.Warn("login-shell environment not available; using playchat's own", "err", serr)
	}
	env := shellEnv
	for k, v := range r.cfg.Env {
		x, err := Expand(v, shellEnv)
		if err != nil {
			return nil, fmt.Errorf("env %s: %w", k, err)
		}
		env = setEnv(env, k, x)
	}
	env = utf8Env(env)
	if mark := ownerMark(); mark != "" {
		env = setEnv(env, ownerEnv, mark) // found by SweepOrphans if playchat dies
	}
	command, err := Expand(r.cfg.Command, env)
	if err != nil {
		return nil, err
	}
	args := make([]string, len(r.cfg.Args))
	for i, a := range r.cfg.Args {
		if args[i], err = Expand(a, env); err != nil {
			return nil, err
		}
	}
	path, err := LookPath(command, env)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, args...)
	cmd.Env = env
	if r.cfg.Cwd != "" {
		cwd, err := Expand(r.cfg.Cwd, env)
		if err != nil {
			return nil, err
		}
		if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("working folder %s does not exist", cwd)
		}
		cmd.Dir = cwd
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	// stderr is a pipe of our own, not cmd.StderrPipe: Wait closes that one
	// as soon as the process exits, so the lines it wrote just before (a
	// crash's reason) could be lost to the reader (a flaky
	// TestAServerThatExitsShowsItsExitCodeAndLastStderrLines). This one is
	// read to its end — once the process and what it started are gone —
	// before the exit is reported.
	stderr, stderrW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = stderrW
	tree, err := startTree(cmd)
	stderrW.Close() // the child has its own copy
	if err != nil {
		stderr.Close()
		return nil, fmt.Errorf("could not start %s: %w", path, err)
	}
	r.mu.Lock()
	r.tree = tree
	r.mu.Unlock()
	logf := r.m.openLog(r.cfg.Name)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); r.readStderr(stderr, logf) }()
	pr, pw := io.Pipe()
	go r.filterStdout(stdout, pw, logf)
	go func() {
		err := cmd.Wait()
		code := -1
		if cmd.ProcessState != nil {
			code = cmd.ProcessState.ExitCode()
		}
		// Whatever the leader left behind goes with it; then nothing holds
		// stderr open and its last lines are read.
		tree.kill()
		tree.release()
		read := make(chan struct{})
		go func() { wg.Wait(); close(read) }()
		select {
		case <-read:
		case <-time.After(stderrDrain): // something that escaped the tree holds it open
		}
		stderr.Close() // ends a read still waiting
		<-read
		if logf != nil {
			fmt.Fprintf(logf, "--- %s exited (code %d): %v\n", time.Now().Format(time.RFC3339), code, err)
			logf.Close()
		}
		_ = pw.Close()
		r.exited(code)
	}()
	return &mcp.IOTransport{Reader: pr, Writer: stdin}, nil
}

// exited records the end of the process.
func (r *runner) exited(code int) {
	r.mu.Lock()
	r.exitCode = &code
	stopping := r.stopping
	tail := append([]string(nil), r.stderr...)
	done := r.done
	r.mu.Unlock()
	close(done)
	if stopping {
		return
	}
	reason := fmt.Sprintf("the server exited with code %d", code)
	if len(tail) > 0 {
		reason += "; its last output: " + strings.Join(tail, " | ")
	}
	r.fail(StateFailed, reason)
}

// waitExit waits up to d for the process to exit; it reports whether it did.
func (r *runner) waitExit(d time.Duration) bool {
	r.mu.Lock()
	done, tree := r.done, r.tree
	r.mu.Unlock()
	if tree == nil {
		return false
	}
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

func (r *runner) readStderr(rd io.Reader, logf *os.File) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if logf != nil {
			fmt.Fprintln(logf, line)
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		r.mu.Lock()
		r.stderr = append(r.stderr, clip(line, 300))
		if len(r.stderr) > stderrLines {
			r.stderr = r.stderr[len(r.stderr)-stderrLines:]
		}
		r.mu.Unlock()
	}
}

// filterStdout passes JSON-RPC lines on and logs any other line (a banner
// printed to stdout must not break the connection).
func (r *runner) filterStdout(rd io.Reader, w *io.PipeWriter, logf *os.File) {
	br := bufio.NewReaderSize(rd, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			t := bytes.TrimSpace(line)
			if len(t) > 0 && (t[0] == '{' || t[0] == '[') {
				if _, werr := w.Write(line); werr != nil {
					return
				}
			} else if len(t) > 0 {
				r.m.log.Info("MCP server wrote a non-protocol line on stdout", "server", r.cfg.Name, "line", clip(string(t), 200))
				if logf != nil {
					fmt.Fprintf(logf, "[stdout, not protocol] %s\n", t)
				}
			}
		}
		if err != nil {
			return
		}
	}
}

// stop ends the connection and the process tree: stdin is closed, then
// the group gets SIGTERM, then SIGKILL.
func (r *runner) stop() {
	r.mu.Lock()
	if r.stopping {
		r.mu.Unlock()
		return
	}
	r.stopping = true
	cs, tree, cancel := r.session, r.tree, r.cancel
	r.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	if cs != nil {
		closed := make(chan struct{})
		go func() { _ = cs.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(time.Second):
		}
	}
	if tree != nil {
		r.stopProcess()
	}
	r.set(func() { r.state, r.tools, r.session, r.reason = StateStopped, nil, nil, "" })
}

func (r *runner) stopProcess() {
	r.mu.Lock()
	tree := r.tree
	r.mu.Unlock()
	if tree == nil {
		return
	}
	if !r.waitExit(1500 * time.Millisecond) {
		tree.terminate()
		if !r.waitExit(1500 * time.Millisecond) {
			tree.kill()
			r.waitExit(3 * time.Second)
		}
	}
	tree.kill() // descendants that outlived the leader
}

// progress restarts the timeout of the call the notification belongs to.
func (r *runner) progress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	tok := fmt.Sprint(req.Params.ProgressToken)
	r.mu.Lock()
	extend := r.calls[tok]
	r.mu.Unlock()
	if extend != nil {
		extend()
	}
}

// Status is what a server's row shows.
func (r *runner) status() Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := Status{Name: r.cfg.Name, Transport: r.cfg.Transport, State: r.state, Reason: r.reason,
		ExitCode: r.exitCode, Stderr: append([]string{}, r.stderr...), Tools: []ToolInfo{},
		LogFile: r.m.logPath(r.cfg.Name)}
	if r.state != StateFailed && r.state != StateNotResponding {
		st.Stderr = []string{}
		st.ExitCode = nil
	}
	for _, t := range r.tools {
		st.Tools = append(st.Tools, toolInfo(r.cfg, t))
	}
	return st
}

func toolInfo(cfg Server, t *mcp.Tool) ToolInfo {
	schema, _ := json.Marshal(t.InputSchema)
	ti := ToolInfo{Name: t.Name, Title: t.Title, Description: t.Description, Enabled: cfg.ToolEnabled(t.Name),
		InputSchema: schema}
	if a := t.Annotations; a != nil {
		ti.ReadOnly = a.ReadOnlyHint
		// The spec's default for a tool that is not read-only is
		// destructive; playchat asks only when the server says so.
		ti.Destructive = !a.ReadOnlyHint && a.DestructiveHint != nil && *a.DestructiveHint
		if ti.Title == "" {
			ti.Title = a.Title
		}
	}
	return ti
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// logPath is the server's log file.
func (m *Manager) logPath(name string) string {
	if m.logDir == "" {
		return ""
	}
	return filepath.Join(m.logDir, slug(name)+"-"+shortHash(name)+".log")
}

func (m *Manager) openLog(name string) *os.File {
	p := m.logPath(name)
	if p == "" {
		return nil
	}
	if err := os.MkdirAll(m.logDir, 0o700); err != nil {
		return nil
	}
	flag := os.O_CREATE | os.O_WRONLY | os.O_APPEND
	if fi, err := os.Stat(p); err == nil && fi.Size() > maxLogBytes {
		flag |= os.O_TRUNC
	}
	f, err := os.OpenFile(p, flag, 0o600)
	if err != nil {
		m.log.Warn("MCP server log", "err", err)
		return nil
	}
	fmt.Fprintf(f, "--- %s start\n", time.Now().Format(time.RFC3339))
	return f
}

var _ = slog.LevelInfo
