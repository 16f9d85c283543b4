package app

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"playchat/backend/apiserver"
	"playchat/backend/core"
	"playchat/backend/interop"
)

// interopState is what the window serves other tools (issue 23): the MCP
// server over streamable HTTP while MCP_HTTP_ENABLED is on (on
// 127.0.0.1:MCP_HTTP_PORT) and the OpenAI-compatible API while
// API_SERVER_ENABLED is on.
type interopState struct {
	mu      sync.Mutex
	serving *interop.Serving
	api     *apiserver.Runner
	// closed is set by stopInterop: a startInterop still running then
	// starts nothing.
	closed bool
}

// startInterop builds the window's MCP server and applies the settings
// (off the start-up path: listening never delays the window).
func (a *App) startInterop(c *core.Core) {
	svc, err := interop.FromCore(c, nil, nil, nil)
	if err != nil {
		c.Log.Warn("MCP: the tool layer did not start", "err", err)
		return
	}
	// New memories become learned documents too while MEMORY_MIRROR_LEARNED is on.
	c.Summarizer.SetOnArchive(svc.MirrorMemories(func() bool { return c.Config().MemoryMirrorLearned }))
	s := interop.NewServing(func() *interop.MCP {
		return interop.NewMCP(svc, interop.MCPOptions{Version: Version, Log: c.Log})
	}, c.Log)
	a.interop.mu.Lock()
	closed := a.interop.closed
	if !closed {
		a.interop.serving = s
		a.interop.api = &apiserver.Runner{Log: c.Log}
	}
	a.interop.mu.Unlock()
	if !closed {
		a.applyInterop(c)
	}
}

func (a *App) interopServing() *interop.Serving {
	a.interop.mu.Lock()
	defer a.interop.mu.Unlock()
	return a.interop.serving
}

func (a *App) apiRunner() *apiserver.Runner {
	a.interop.mu.Lock()
	defer a.interop.mu.Unlock()
	return a.interop.api
}

// applyInterop brings the MCP server over HTTP and the API to the saved
// settings (at start-up and after every save). Switched on without a
// token, each first generates and saves one: neither ever runs without a
// token. A failure to listen (the port is taken) shows in
// InteropService.Overview.
func (a *App) applyInterop(c *core.Core) {
	s, api := a.interopServing(), a.apiRunner()
	if s == nil || api == nil {
		return
	}
	cfg := c.Config()
	if cfg.APIServerEnabled {
		if _, _, err := c.EnsureAPIToken(context.Background()); err != nil {
			c.Log.Warn("API: saving a new token failed", "err", err)
		}
	}
	if err := api.Apply(cfg.APIServerEnabled, cfg.APIServerListen, cfg.APIServerPort, func(lan bool) (*apiserver.Server, error) {
		return c.APIServer(core.APIServerOptions{Token: func() string { return c.Config().APIServerToken }, AnyHost: lan}), nil
	}); err != nil {
		c.Log.Warn("the OpenAI-compatible API", "err", err)
	}
	if cfg.MCPHTTPEnabled && cfg.MCPHTTPToken == "" {
		if _, err := a.saveNewMCPToken(c); err != nil {
			c.Log.Warn("MCP: saving a new token failed", "err", err)
			return
		}
		cfg = c.Config()
	}
	if err := s.Apply(cfg.MCPHTTPEnabled, cfg.MCPHTTPPort, cfg.MCPHTTPToken); err != nil {
		c.Log.Warn("MCP over HTTP", "err", err)
	}
}

func (a *App) saveNewMCPToken(c *core.Core) (string, error) {
	tok, err := interop.NewToken()
	if err != nil {
		return "", err
	}
	return tok, c.SaveSettings(context.Background(), map[string]string{"MCP_HTTP_TOKEN": tok}, nil)
}

func (a *App) stopInterop() {
	a.interop.mu.Lock()
	a.interop.closed = true
	s, api := a.interop.serving, a.interop.api
	a.interop.mu.Unlock()
	if s != nil {
		s.Close()
	}
	if api != nil {
		api.Close() // running API turns are cancelled and store their partial replies
	}
}

// InteropService is Settings → Use from other tools: the MCP server's
// state, the configurations other tools need, the token and a test call.
type InteropService struct{ app *App }

// InteropOverview is what that section shows.
type InteropOverview struct {
	// HTTP is the streamable-HTTP server's state.
	HTTP interop.ServingStatus `json:"http"`
	// Enabled and Port are MCP_HTTP_ENABLED and MCP_HTTP_PORT as saved.
	Enabled bool `json:"enabled"`
	Port    int  `json:"port"`
	// Token is MCP_HTTP_TOKEN in full ("" when none is saved yet): the
	// user copies it into the other tool.
	Token string `json:"token"`
	// AllowWrite and ShareNotes are INTEROP_ALLOW_WRITE and INTEROP_SHARE_NOTES.
	AllowWrite bool `json:"allowWrite"`
	ShareNotes bool `json:"shareNotes"`
	// Binary is the absolute path of this playchat, which the stdio
	// configurations start.
	Binary string `json:"binary"`
	// Configs are the ready-to-copy configurations (interop.ClientConfigs).
	Configs []interop.ClientConfig `json:"configs"`
	// API is the OpenAI-compatible API's state; APIEnabled is
	// API_SERVER_ENABLED and APIToken API_SERVER_TOKEN in full ("" until
	// one is made).
	API        apiserver.RunnerStatus `json:"api"`
	APIEnabled bool                   `json:"apiEnabled"`
	APIToken   string                 `json:"apiToken"`
}

// Overview returns the section's state.
func (s *InteropService) Overview() (InteropOverview, error) {
	c, err := s.app.backend()
	if err != nil {
		return InteropOverview{}, err
	}
	cfg := c.Config()
	bin := executable()
	o := InteropOverview{Enabled: cfg.MCPHTTPEnabled, Port: cfg.MCPHTTPPort, Token: cfg.MCPHTTPToken,
		AllowWrite: cfg.InteropAllowWrite, ShareNotes: cfg.InteropShareNotes, Binary: bin}
	if sv := s.app.interopServing(); sv != nil {
		o.HTTP = sv.Status()
	}
	if r := s.app.apiRunner(); r != nil {
		o.API = r.Status()
	}
	o.APIEnabled, o.APIToken = cfg.APIServerEnabled, cfg.APIServerToken
	o.Configs = interop.ClientConfigs(interop.ClientConfigOptions{Binary: bin, GOOS: runtime.GOOS,
		AllowWrite: cfg.InteropAllowWrite, HTTPURL: o.HTTP.URL, Token: cfg.MCPHTTPToken,
		APIURL: o.API.URL, APIToken: cfg.APIServerToken, APILAN: o.API.LAN, Model: cfg.DefaultModel})
	return o, nil
}

// RotateMCPToken saves a new MCP_HTTP_TOKEN and applies it: sessions
// opened with the old token end, and the other tools need the new one.
func (s *InteropService) RotateMCPToken() (InteropOverview, error) {
	c, err := s.app.backend()
	if err != nil {
		return InteropOverview{}, err
	}
	if _, err := s.app.saveNewMCPToken(c); err != nil {
		return InteropOverview{}, err
	}
	s.app.applyInterop(c)
	return s.Overview()
}

// RotateAPIToken saves a new API_SERVER_TOKEN; the API refuses the old one
// from its next request on.
func (s *InteropService) RotateAPIToken() (InteropOverview, error) {
	c, err := s.app.backend()
	if err != nil {
		return InteropOverview{}, err
	}
	tok, err := interop.NewToken()
	if err != nil {
		return InteropOverview{}, err
	}
	if err := c.SaveSettings(context.Background(), map[string]string{"API_SERVER_TOKEN": "pc-" + tok}, nil); err != nil {
		return InteropOverview{}, err
	}
	return s.Overview()
}

// InteropTest is what Test saw.
type InteropTest struct {
	// MCP holds one result per MCP transport tried (stdio, and http while
	// it runs).
	MCP []interop.ProbeResult `json:"mcp"`
	// APIModels is how many models GET /v1/models listed, -1 when the API
	// does not run; APIMillis how long it took, in milliseconds.
	APIModels int   `json:"apiModels"`
	APIMillis int64 `json:"apiMillis"`
}

// probeTimeout bounds Test: a server that does not answer within it failed.
const probeTimeout = 20 * time.Second

// Test runs one call the way another tool would: it starts this binary's
// `playchat mcp` over stdio (as Claude Desktop's configuration does) and,
// while they run, connects to the MCP server over HTTP and lists the API's
// models, each with its token. Errors: the first that failed, with why.
func (s *InteropService) Test() (InteropTest, error) {
	c, err := s.app.backend()
	if err != nil {
		return InteropTest{}, err
	}
	mcps, err := s.testMCP(c)
	if err != nil {
		return InteropTest{}, err
	}
	out := InteropTest{MCP: mcps, APIModels: -1}
	if r := s.app.apiRunner(); r != nil && r.Status().Running {
		ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
		defer cancel()
		start := time.Now()
		n, err := apiserver.ProbeModels(ctx, r.Status().URL, c.Config().APIServerToken)
		if err != nil {
			return InteropTest{}, fmt.Errorf("the OpenAI-compatible API: %w", err)
		}
		out.APIModels, out.APIMillis = n, time.Since(start).Milliseconds()
	}
	return out, nil
}

func (s *InteropService) testMCP(c *core.Core) ([]interop.ProbeResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, executable(), "mcp")
	cmd.Env = os.Environ()
	var out []interop.ProbeResult
	r, err := interop.Probe(ctx, "stdio", &mcp.CommandTransport{Command: cmd})
	if err != nil {
		return nil, fmt.Errorf("playchat mcp (stdio): %w", err)
	}
	out = append(out, r)
	if st := s.app.interopServing(); st != nil && st.Status().Running {
		tr := &mcp.StreamableClientTransport{Endpoint: st.Status().URL, MaxRetries: -1,
			HTTPClient: interop.BearerClient(c.Config().MCPHTTPToken)}
		r, err := interop.Probe(ctx, "http", tr)
		if err != nil {
			return out, fmt.Errorf("MCP over HTTP: %w", err)
		}
		out = append(out, r)
	}
	return out, nil
}

// executable is the running binary's absolute path (symlinks resolved:
// the path a packaged install really has), or "playchat" when the system
// cannot tell.
func executable() string {
	p, err := os.Executable()
	if err != nil {
		return "playchat"
	}
	return p
}
