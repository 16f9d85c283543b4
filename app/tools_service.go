package app

import (
	"errors"
	"sort"

	"playchat/backend/core"
	"playchat/backend/mcpclient"
)

// ToolsChangedEvent is emitted (no payload) when a user's MCP server
// changes state or tools: Settings → Tools (MCP) reloads its rows.
const ToolsChangedEvent = "tools:changed"

// ToolsService is Settings → Tools (MCP): the user's own MCP servers
// (issue 24) — add, import, switch on and off, restart, per-tool switches,
// and the approval of calls waiting in a turn's activity list.
type ToolsService struct{ app *App }

// ToolsServer is one server's row.
type ToolsServer struct {
	Name      string `json:"name"`
	Transport string `json:"transport"`
	// State: starting | ready | failed | not_responding | stopped | disabled.
	State string `json:"state"`
	// Reason says why it failed, in plain words ("" otherwise).
	Reason   string      `json:"reason"`
	ExitCode *int        `json:"exitCode"`
	Stderr   []string    `json:"stderr"`
	LogFile  string      `json:"logFile"`
	Tools    []ToolsTool `json:"tools"`
	Config   ToolsConfig `json:"config"`
}

// ToolsTool is one tool of a server.
type ToolsTool struct {
	// Name is the real name; ModelName what the model sees.
	Name        string `json:"name"`
	ModelName   string `json:"modelName"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Enabled     bool   `json:"enabled"`
	ReadOnly    bool   `json:"readOnly"`
	Destructive bool   `json:"destructive"`
}

// ToolsConfig is a server's configuration; secret env and header values
// are "••••••" (sent back unchanged, they keep the stored value).
type ToolsConfig struct {
	Name           string            `json:"name"`
	Transport      string            `json:"transport"`
	Command        string            `json:"command"`
	Args           []string          `json:"args"`
	Env            map[string]string `json:"env"`
	Cwd            string            `json:"cwd"`
	URL            string            `json:"url"`
	Headers        map[string]string `json:"headers"`
	Disabled       bool              `json:"disabled"`
	AskFirst       bool              `json:"askFirst"`
	AlwaysAllow    bool              `json:"alwaysAllow"`
	AllowDiscord   bool              `json:"allowDiscord"`
	TimeoutSeconds int               `json:"timeoutSeconds"`
}

// ToolsImport is what an import did. Applied is false when entries were
// refused and nothing was written (import again with skipRefused).
type ToolsImport struct {
	Applied  bool           `json:"applied"`
	Added    []string       `json:"added"`
	Replaced []string       `json:"replaced"`
	Refused  []ToolsRefusal `json:"refused"`
	Servers  []ToolsServer  `json:"servers"`
}

// ToolsRefusal is an entry that was not understood, and why.
type ToolsRefusal struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

func (s *ToolsService) mgr() (*mcpclient.Manager, error) {
	c, err := s.app.backend()
	if err != nil {
		return nil, err
	}
	return c.MCP, nil
}

// List returns every server's row.
func (s *ToolsService) List() ([]ToolsServer, error) {
	m, err := s.mgr()
	if err != nil {
		return nil, err
	}
	return listServers(m)
}

func listServers(m *mcpclient.Manager) ([]ToolsServer, error) {
	sts, err := m.Statuses()
	if err != nil {
		return nil, err
	}
	out := make([]ToolsServer, 0, len(sts))
	for _, st := range sts {
		row := ToolsServer{Name: st.Name, Transport: st.Transport, State: st.State, Reason: st.Reason,
			ExitCode: st.ExitCode, Stderr: st.Stderr, LogFile: st.LogFile, Tools: []ToolsTool{}, Config: toConfig(st.Config)}
		if row.Stderr == nil {
			row.Stderr = []string{}
		}
		for _, t := range st.Tools {
			row.Tools = append(row.Tools, ToolsTool{Name: t.Name, ModelName: t.ModelName, Title: t.Title,
				Description: t.Description, Enabled: t.Enabled, ReadOnly: t.ReadOnly, Destructive: t.Destructive})
		}
		sort.SliceStable(row.Tools, func(i, j int) bool { return row.Tools[i].Name < row.Tools[j].Name })
		out = append(out, row)
	}
	return out, nil
}

func toConfig(c mcpclient.Server) ToolsConfig {
	tc := ToolsConfig{Name: c.Name, Transport: c.Transport, Command: c.Command, Args: c.Args, Env: c.Env, Cwd: c.Cwd,
		URL: c.URL, Headers: c.Headers, Disabled: c.Disabled, AskFirst: c.AskFirst, AlwaysAllow: c.AlwaysAllow,
		AllowDiscord: c.AllowDiscord, TimeoutSeconds: c.TimeoutSeconds}
	if tc.Args == nil {
		tc.Args = []string{}
	}
	if tc.Env == nil {
		tc.Env = map[string]string{}
	}
	if tc.Headers == nil {
		tc.Headers = map[string]string{}
	}
	return tc
}

// Import adds the servers of pasted JSON (Claude Desktop / Cursor
// mcpServers, VS Code servers, Claude Code .mcp.json). With refused
// entries nothing is written unless skipRefused.
func (s *ToolsService) Import(text string, skipRefused bool) (ToolsImport, error) {
	m, err := s.mgr()
	if err != nil {
		return ToolsImport{}, err
	}
	res, err := m.Import([]byte(text), mcpclient.ImportOptions{SkipRefused: skipRefused})
	out := ToolsImport{Added: res.Added, Replaced: res.Replaced, Refused: []ToolsRefusal{}}
	for _, r := range res.Refused {
		out.Refused = append(out.Refused, ToolsRefusal{Name: r.Name, Reason: r.Reason})
	}
	if out.Added == nil {
		out.Added = []string{}
	}
	if out.Replaced == nil {
		out.Replaced = []string{}
	}
	if err != nil && !errors.Is(err, mcpclient.ErrRefusedEntries) {
		return ToolsImport{}, err
	}
	out.Applied = err == nil
	out.Servers, err = listServers(m)
	return out, err
}

// Save adds a server (previousName "") or changes one (renamed from
// previousName).
func (s *ToolsService) Save(cfg ToolsConfig, previousName string) ([]ToolsServer, error) {
	m, err := s.mgr()
	if err != nil {
		return nil, err
	}
	srv := mcpclient.Server{Name: cfg.Name, Transport: cfg.Transport, Command: cfg.Command, Args: cfg.Args, Env: cfg.Env,
		Cwd: cfg.Cwd, URL: cfg.URL, Headers: cfg.Headers, Disabled: cfg.Disabled, AskFirst: cfg.AskFirst,
		AlwaysAllow: cfg.AlwaysAllow, AllowDiscord: cfg.AllowDiscord, TimeoutSeconds: cfg.TimeoutSeconds}
	if prev, ok := findServer(m, previousName); ok {
		srv.DisabledTools = prev.DisabledTools
	}
	if err := m.Save(srv, previousName); err != nil {
		return nil, err
	}
	return listServers(m)
}

func findServer(m *mcpclient.Manager, name string) (mcpclient.Server, bool) {
	if name == "" {
		return mcpclient.Server{}, false
	}
	c, err := m.Store().Load()
	if err != nil {
		return mcpclient.Server{}, false
	}
	return c.Find(name)
}

// SetEnabled switches a server on (started) or off (stopped).
func (s *ToolsService) SetEnabled(name string, on bool) ([]ToolsServer, error) {
	return s.patch(name, func(srv *mcpclient.Server) { srv.Disabled = !on })
}

// SetSafety sets a server's "ask first", "allow always" and "allowed for
// Discord" switches.
func (s *ToolsService) SetSafety(name string, askFirst, alwaysAllow, allowDiscord bool) ([]ToolsServer, error) {
	return s.patch(name, func(srv *mcpclient.Server) {
		srv.AskFirst, srv.AlwaysAllow, srv.AllowDiscord = askFirst, alwaysAllow, allowDiscord
	})
}

func (s *ToolsService) patch(name string, fn func(*mcpclient.Server)) ([]ToolsServer, error) {
	m, err := s.mgr()
	if err != nil {
		return nil, err
	}
	srv, ok := findServer(m, name)
	if !ok {
		return nil, errors.New("no MCP server is named " + name)
	}
	fn(&srv)
	if err := m.Save(srv, name); err != nil {
		return nil, err
	}
	return listServers(m)
}

// SetToolEnabled switches one tool (by its real name) on or off.
func (s *ToolsService) SetToolEnabled(server, tool string, on bool) ([]ToolsServer, error) {
	m, err := s.mgr()
	if err != nil {
		return nil, err
	}
	if err := m.SetToolEnabled(server, tool, on); err != nil {
		return nil, err
	}
	return listServers(m)
}

// Restart stops and starts a server.
func (s *ToolsService) Restart(name string) ([]ToolsServer, error) {
	m, err := s.mgr()
	if err != nil {
		return nil, err
	}
	if err := m.Restart(name); err != nil {
		return nil, err
	}
	return listServers(m)
}

// Remove deletes a server and stops it.
func (s *ToolsService) Remove(name string) ([]ToolsServer, error) {
	m, err := s.mgr()
	if err != nil {
		return nil, err
	}
	if err := m.Remove(name); err != nil {
		return nil, err
	}
	return listServers(m)
}

// Decide answers a call waiting for approval in a turn's activity list:
// "once", "always" (for this server) or "deny". False when no call waits
// under callID (it ended, or was answered).
func (s *ToolsService) Decide(callID, decision string) (bool, error) {
	switch decision {
	case mcpclient.AllowOnce, mcpclient.AllowAlways, mcpclient.Deny:
	default:
		return false, errors.New("decision must be once, always or deny")
	}
	return s.app.approvals.Decide(callID, decision), nil
}

// startTools starts the user's MCP servers (off the start-up path) with
// the window's approvals.
func (a *App) startTools(c *core.Core) {
	c.MCP.SetApprovals(a.approvals)
	if err := c.StartMCP(); err != nil {
		c.Log.Warn("MCP servers", "err", err)
	}
}

// toolsChanged tells the window a server changed.
func (a *App) toolsChanged(string) {
	if p := a.plat(); p != nil {
		p.Emit(ToolsChangedEvent, nil)
	}
}
