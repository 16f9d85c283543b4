package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Status is one server's row: its configuration's view (secrets masked),
// state and tools.
type Status struct {
	Name      string `json:"name"`
	Transport string `json:"transport"`
	// State is one of the State constants.
	State string `json:"state"`
	// Reason says, in plain words, why the server failed or is not
	// responding ("" otherwise).
	Reason string `json:"reason"`
	// ExitCode is the exit code of a stdio server that ended (nil while it
	// runs or when it never started).
	ExitCode *int `json:"exitCode"`
	// Stderr are the last lines the server wrote to stderr (on failure).
	Stderr []string   `json:"stderr"`
	Tools  []ToolInfo `json:"tools"`
	// LogFile is the server's log (stderr and stray stdout lines).
	LogFile string `json:"logFile"`
	// Config is the server's configuration with secrets masked.
	Config Server `json:"config"`
}

// ToolInfo is one tool of a server.
type ToolInfo struct {
	// Name is the tool's real name (what the server is called with and
	// the UI shows).
	Name string `json:"name"`
	// ModelName is the name the model sees (ModelName/Names).
	ModelName   string          `json:"modelName"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Enabled     bool            `json:"enabled"`
	ReadOnly    bool            `json:"readOnly"`
	Destructive bool            `json:"destructive"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// Options configure a Manager.
type Options struct {
	// DataDir holds the configuration file and the servers' logs.
	DataDir string
	// Environ is the process environment (os.Environ()).
	Environ []string
	// Shell overrides $SHELL for the environment probe (tests).
	Shell string
	Log   *slog.Logger
	// Version is sent as the client's version.
	Version string
	// OnChange is called (without locks held) when a server's state or
	// tools change: the window refreshes the rows.
	OnChange func(server string)
	// Self, when set, refuses entries that would start playchat's own MCP
	// server (default IsSelf).
	Self SelfCheck
}

// Manager starts and stops the configured servers and calls their tools.
// Safe for concurrent use.
type Manager struct {
	store    *Store
	shell    *ShellEnv
	log      *slog.Logger
	logDir   string
	version  string
	onChange func(string)
	self     SelfCheck

	ctx    context.Context
	cancel context.CancelFunc

	mu        sync.Mutex
	runners   map[string]*runner
	closed    bool
	approvals *Approvals
}

// New returns a manager; nothing runs until Start.
func New(o Options) *Manager {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	if o.Self == nil {
		o.Self = IsSelf
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Manager{store: NewStore(o.DataDir), shell: &ShellEnv{Base: o.Environ, Shell: o.Shell}, log: o.Log,
		version: o.Version, onChange: o.OnChange, self: o.Self, ctx: ctx, cancel: cancel,
		runners: map[string]*runner{}}
	if o.DataDir != "" {
		m.logDir = filepath.Join(o.DataDir, "logs", "mcp")
	}
	return m
}

// Store is the configuration store.
func (m *Manager) Store() *Store { return m.store }

// Self is the check refusing playchat's own server.
func (m *Manager) Self() SelfCheck { return m.self }

func (m *Manager) changed(name string) {
	if m.onChange != nil {
		m.onChange(name)
	}
}

// Start starts every enabled server in the background (it does not wait
// for them: a server still starting is simply not offered yet).
func (m *Manager) Start() error { return m.Reload() }

// Reload re-reads the configuration: servers removed or disabled are
// stopped, new or changed ones (re)started, unchanged ones left running.
func (m *Manager) Reload() error {
	cfg, err := m.store.Load()
	if err != nil {
		return err
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	var stop []*runner
	want := map[string]Server{}
	for _, s := range cfg.Servers {
		want[s.Name] = s
	}
	for name, r := range m.runners {
		s, ok := want[name]
		if !ok || s.Disabled || !sameLaunch(r.cfg, s) {
			stop = append(stop, r)
			delete(m.runners, name)
			continue
		}
		r.mu.Lock()
		r.cfg = s // tool switches, approvals, timeout apply at once
		r.mu.Unlock()
	}
	var start []*runner
	for _, s := range cfg.Servers {
		if _, running := m.runners[s.Name]; running || s.Disabled || m.self(s) {
			continue
		}
		r := m.newRunner(s)
		m.runners[s.Name] = r
		start = append(start, r)
	}
	m.mu.Unlock()
	for _, r := range stop {
		r.stop()
	}
	for _, r := range start {
		m.launch(r)
	}
	if len(stop)+len(start) > 0 {
		m.changed("")
	}
	return nil
}

func sameLaunch(a, b Server) bool {
	ja, _ := json.Marshal([]any{a.Transport, a.Command, a.Args, a.Env, a.Cwd, a.URL, a.Headers})
	jb, _ := json.Marshal([]any{b.Transport, b.Command, b.Args, b.Env, b.Cwd, b.URL, b.Headers})
	return string(ja) == string(jb)
}

func (m *Manager) newRunner(s Server) *runner {
	return &runner{m: m, cfg: s, state: StateStarting, done: make(chan struct{}), calls: map[string]func(){}}
}

func (m *Manager) launch(r *runner) {
	ctx, cancel := context.WithCancel(m.ctx)
	r.mu.Lock()
	r.cancel, r.started = cancel, time.Now()
	r.mu.Unlock()
	go r.run(ctx)
}

// Restart stops the server (if it runs) and starts it again.
func (m *Manager) Restart(name string) error {
	cfg, err := m.store.Load()
	if err != nil {
		return err
	}
	s, ok := cfg.Find(name)
	if !ok {
		return fmt.Errorf("no MCP server is named %q", name)
	}
	m.mu.Lock()
	old := m.runners[name]
	delete(m.runners, name)
	var r *runner
	if !s.Disabled && !m.closed {
		r = m.newRunner(s)
		m.runners[name] = r
	}
	m.mu.Unlock()
	if old != nil {
		old.stop()
	}
	if r != nil {
		m.launch(r)
	}
	m.changed(name)
	return nil
}

// Shutdown stops every server and waits until their process trees are
// gone (at most until ctx ends). The manager cannot be started again.
func (m *Manager) Shutdown(ctx context.Context) {
	m.mu.Lock()
	m.closed = true
	rs := make([]*runner, 0, len(m.runners))
	for _, r := range m.runners {
		rs = append(rs, r)
	}
	m.runners = map[string]*runner{}
	m.mu.Unlock()
	m.cancel()
	var wg sync.WaitGroup
	for _, r := range rs {
		wg.Add(1)
		go func() { defer wg.Done(); r.stop() }()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// WaitReady waits until no server is starting any more (ctx bounds it);
// the CLI's ask uses it so a one-shot turn sees the tools.
func (m *Manager) WaitReady(ctx context.Context) {
	for {
		starting := false
		m.mu.Lock()
		for _, r := range m.runners {
			r.mu.Lock()
			if r.state == StateStarting {
				starting = true
			}
			r.mu.Unlock()
		}
		m.mu.Unlock()
		if !starting {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Statuses lists every configured server, in configuration order, with the
// names its tools are sent under.
func (m *Manager) Statuses() ([]Status, error) {
	cfg, err := m.store.Load()
	if err != nil {
		return nil, err
	}
	names := m.names()
	out := make([]Status, 0, len(cfg.Servers))
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range cfg.Servers {
		var st Status
		if r := m.runners[s.Name]; r != nil {
			st = r.status()
		} else {
			st = Status{Name: s.Name, Transport: s.Transport, State: StateStopped, Stderr: []string{}, Tools: []ToolInfo{}}
			if s.Disabled {
				st.State = StateDisabled
			} else if m.self(s) {
				st.State, st.Reason = StateFailed, selfReason
			}
		}
		for i := range st.Tools {
			st.Tools[i].ModelName = names[[2]string{s.Name, st.Tools[i].Name}]
		}
		st.Config = masked(s)
		out = append(out, st)
	}
	return out, nil
}

func masked(s Server) Server {
	c := s.clone()
	c.Env = MaskedMap(c.Env)
	c.Headers = MaskedMap(c.Headers)
	if c.Args == nil {
		c.Args = []string{}
	}
	if c.DisabledTools == nil {
		c.DisabledTools = []string{}
	}
	return c
}

// names gives every listed tool of every running server its model name.
func (m *Manager) names() map[[2]string]string {
	m.mu.Lock()
	var pairs [][2]string
	for name, r := range m.runners {
		r.mu.Lock()
		for _, t := range r.tools {
			pairs = append(pairs, [2]string{name, t.Name})
		}
		r.mu.Unlock()
	}
	m.mu.Unlock()
	return Names(pairs)
}

// Offered is one tool a turn may be offered.
type Offered struct {
	Server    string
	Tool      *mcp.Tool
	ModelName string
	// NeedsApproval: the server is "ask first", or the tool is marked
	// destructive and the server is not "allow always".
	NeedsApproval bool
	AllowDiscord  bool
	Timeout       time.Duration
}

// Offer lists the enabled tools of the ready servers, sorted by model name
// (a stable order). outside leaves out servers not allowed for Discord.
func (m *Manager) Offer(outside bool) []Offered {
	names := m.names()
	var out []Offered
	m.mu.Lock()
	for name, r := range m.runners {
		r.mu.Lock()
		if r.state == StateReady && (!outside || r.cfg.AllowDiscord) {
			for _, t := range r.tools {
				if !r.cfg.ToolEnabled(t.Name) {
					continue
				}
				ti := toolInfo(r.cfg, t)
				out = append(out, Offered{Server: name, Tool: t, ModelName: names[[2]string{name, t.Name}],
					NeedsApproval: !r.cfg.AlwaysAllow && (r.cfg.AskFirst || ti.Destructive),
					AllowDiscord:  r.cfg.AllowDiscord, Timeout: r.cfg.Timeout()})
			}
		}
		r.mu.Unlock()
	}
	m.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].ModelName < out[j].ModelName })
	return out
}

// Lookup finds the tool a model name stands for among the offered tools.
func (m *Manager) Lookup(modelName string, outside bool) (Offered, bool) {
	for _, o := range m.Offer(outside) {
		if o.ModelName == modelName {
			return o, true
		}
	}
	return Offered{}, false
}

// Errors of a call.
var (
	ErrTimeout     = errors.New("the MCP server did not answer in time")
	ErrNotReady    = errors.New("the MCP server is not ready")
	ErrUnknownTool = errors.New("the MCP server has no such tool")
)

// MaxResultRunes caps what one call returns to the model.
const MaxResultRunes = 16000

// CallResult is one call's outcome.
type CallResult struct {
	// Text is the result's text (capped, with a marker when cut).
	Text string
	// IsError is the server's isError: the tool failed, and says how.
	IsError bool
	// Images are the image contents (base64 data and MIME type).
	Images []Image
	// Truncated is true when Text was cut.
	Truncated bool
}

// Image is an image a tool returned.
type Image struct {
	MIMEType string `json:"mimeType"`
	Data     []byte `json:"-"`
}

// Call calls tool (its real name) of server with args (a JSON object),
// within the server's timeout, restarted by every progress notification.
// Cancelling ctx (Stop) cancels the call and the server is told.
func (m *Manager) Call(ctx context.Context, server, tool string, args json.RawMessage) (CallResult, error) {
	m.mu.Lock()
	r := m.runners[server]
	m.mu.Unlock()
	if r == nil {
		return CallResult{}, fmt.Errorf("%w: %s is not running", ErrNotReady, server)
	}
	r.mu.Lock()
	cs, state, timeout := r.session, r.state, r.cfg.Timeout()
	known := false
	for _, t := range r.tools {
		known = known || t.Name == tool
	}
	r.mu.Unlock()
	if cs == nil || state != StateReady {
		return CallResult{}, fmt.Errorf("%w: %s is %s", ErrNotReady, server, state)
	}
	if !known {
		return CallResult{}, fmt.Errorf("%w: %s has no tool %q", ErrUnknownTool, server, tool)
	}
	var a map[string]any
	if len(args) > 0 {
		if err := json.Unmarshal(args, &a); err != nil {
			return CallResult{}, fmt.Errorf("the arguments are not a JSON object: %w", err)
		}
	}
	if a == nil {
		a = map[string]any{}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	timer := time.AfterFunc(timeout, func() { cancel(ErrTimeout) })
	defer timer.Stop()
	token := uuid.NewString()
	r.mu.Lock()
	r.calls[token] = func() { timer.Reset(timeout) }
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.calls, token)
		r.mu.Unlock()
	}()
	params := &mcp.CallToolParams{Name: tool, Arguments: a}
	params.SetProgressToken(token)
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		if errors.Is(context.Cause(ctx), ErrTimeout) {
			return CallResult{}, fmt.Errorf("%w (%s after its last sign of progress)", ErrTimeout, timeout)
		}
		if ctx.Err() != nil {
			return CallResult{}, context.Cause(ctx)
		}
		return CallResult{}, err
	}
	return convert(res, MaxResultRunes), nil
}

// convert turns an MCP result into the model's tool result.
func convert(res *mcp.CallToolResult, maxRunes int) CallResult {
	out := CallResult{IsError: res.IsError}
	var parts []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, c.Text)
		case *mcp.ImageContent:
			out.Images = append(out.Images, Image{MIMEType: c.MIMEType, Data: c.Data})
			parts = append(parts, fmt.Sprintf("[image %d: %s, %d bytes]", len(out.Images), c.MIMEType, len(c.Data)))
		case *mcp.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio: %s, %d bytes, not shown]", c.MIMEType, len(c.Data)))
		case *mcp.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource %s: %s]", c.Name, c.URI))
		case *mcp.EmbeddedResource:
			if c.Resource != nil && c.Resource.Text != "" {
				parts = append(parts, c.Resource.Text)
			} else if c.Resource != nil {
				parts = append(parts, fmt.Sprintf("[resource %s: %s]", c.Resource.URI, c.Resource.MIMEType))
			}
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	out.Text, out.Truncated = CapRunes(strings.Join(parts, "\n"), maxRunes)
	return out
}

// CapRunes cuts s after n characters (never inside one; invalid UTF-8 is
// replaced) and appends a visible marker saying how much was shown.
func CapRunes(s string, n int) (string, bool) {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	total := utf8.RuneCountInString(s)
	if total <= n {
		return s, false
	}
	i, k := 0, 0
	for k < n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		k++
	}
	return s[:i] + fmt.Sprintf("\n…(truncated: %d of %d characters shown)", n, total), true
}

// SetToolEnabled switches one tool of a server on or off.
func (m *Manager) SetToolEnabled(server, tool string, on bool) error {
	_, err := m.store.Update(func(c *Config) error {
		for i := range c.Servers {
			if c.Servers[i].Name != server {
				continue
			}
			s := &c.Servers[i]
			var keep []string
			for _, t := range s.DisabledTools {
				if t != tool {
					keep = append(keep, t)
				}
			}
			if !on {
				keep = append(keep, tool)
			}
			s.DisabledTools = keep
			return nil
		}
		return fmt.Errorf("no MCP server is named %q", server)
	})
	if err != nil {
		return err
	}
	return m.Reload()
}

// Save adds or replaces one server from a form. Values still Mask keep
// the stored secret. playchat's own server is refused.
func (m *Manager) Save(s Server, previousName string) error {
	if err := s.Validate(); err != nil {
		return err
	}
	if m.self(s) {
		return errors.New(selfReason)
	}
	_, err := m.store.Update(func(c *Config) error {
		if previousName == "" {
			previousName = s.Name
		}
		for i, old := range c.Servers {
			if old.Name == previousName {
				s.Env = KeepMasked(s.Env, old.Env)
				s.Headers = KeepMasked(s.Headers, old.Headers)
				if s.Extra == nil {
					s.Extra = old.Extra
				}
				c.Servers[i] = s
				return nil
			}
		}
		for k, v := range s.Env {
			if v == Mask {
				delete(s.Env, k)
			}
		}
		c.Servers = append(c.Servers, s)
		return nil
	})
	if err != nil {
		return err
	}
	return m.Reload()
}

// Remove deletes a server (and stops it).
func (m *Manager) Remove(name string) error {
	_, err := m.store.Update(func(c *Config) error {
		for i, s := range c.Servers {
			if s.Name == name {
				c.Servers = append(c.Servers[:i], c.Servers[i+1:]...)
				return nil
			}
		}
		return fmt.Errorf("no MCP server is named %q", name)
	})
	if err != nil {
		return err
	}
	return m.Reload()
}

// Import stores the servers of a pasted or read file and starts them.
func (m *Manager) Import(data []byte, o ImportOptions) (ImportResult, error) {
	res, err := m.store.Import(data, m.self, o)
	if err != nil {
		return res, err
	}
	// Replaced servers restart with their new command.
	return res, m.Reload()
}

// ShellProbe reports the login-shell probe (for a row's failure hint).
func (m *Manager) ShellProbe() error {
	_, err := m.shell.Environ()
	return err
}

var _ = os.Getpid
