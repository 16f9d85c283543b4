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

	"playchat/backend/core"
	"playchat/backend/interop"
)

// interopState is the window's MCP server over streamable HTTP (issue 23):
// it runs while MCP_HTTP_ENABLED is on, on 127.0.0.1:MCP_HTTP_PORT.
type interopState struct {
	mu      sync.Mutex
	serving *interop.Serving
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
	s := interop.NewServing(func() *interop.MCP {
		return interop.NewMCP(svc, interop.MCPOptions{Version: Version, Log: c.Log})
	}, c.Log)
	a.interop.mu.Lock()
	closed := a.interop.closed
	if !closed {
		a.interop.serving = s
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

// applyInterop brings the HTTP server to the saved settings (at start-up
// and after every save). Switched on without a token, it first generates
// and saves one: the server never runs without a token. A failure to
// listen (the port is taken) shows in InteropService.Overview.
func (a *App) applyInterop(c *core.Core) {
	s := a.interopServing()
	if s == nil {
		return
	}
	cfg := c.Config()
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
	s := a.interop.serving
	a.interop.mu.Unlock()
	if s != nil {
		s.Close()
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
	o.Configs = interop.ClientConfigs(interop.ClientConfigOptions{Binary: bin, GOOS: runtime.GOOS,
		AllowWrite: cfg.InteropAllowWrite, HTTPURL: o.HTTP.URL, Token: cfg.MCPHTTPToken})
	return o, nil
}

// RotateToken saves a new MCP_HTTP_TOKEN and applies it: sessions opened
// with the old token end, and the other tools need the new one.
func (s *InteropService) RotateToken() (InteropOverview, error) {
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

// probeTimeout bounds Test: a server that does not answer within it failed.
const probeTimeout = 20 * time.Second

// Test runs one call the way another tool would: it starts this binary's
// `playchat mcp` over stdio (as Claude Desktop's configuration does) and,
// while the HTTP server runs, connects to it with the token too. Errors:
// the first transport that failed, with why.
func (s *InteropService) Test() ([]interop.ProbeResult, error) {
	c, err := s.app.backend()
	if err != nil {
		return nil, err
	}
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
