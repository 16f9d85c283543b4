package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"
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

// Start kills what the servers of a playchat that died left running
// (SweepOrphans), then starts every enabled server in the background (it
// does not wait for them: a server still starting is simply not offered yet).
func (m *Manager) Start() error {
	if n, err := SweepOrphans(); err != nil {
		m.log.Warn("could not look for MCP server processes left by an earlier playchat", "err", err)
	} else if n > 0 {
		m.log.Info("killed MCP server processes left by a playchat that did not quit", "processes", n)
	}
	return m.Reload()
}

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
