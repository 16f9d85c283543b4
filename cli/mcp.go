package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"playchat/backend/core"
	"playchat/backend/interop"
)

// MCPTokenEnv names the environment variable that gives `playchat mcp
// --http` its token (before MCP_HTTP_TOKEN of the settings).
const MCPTokenEnv = "PLAYCHAT_MCP_TOKEN"

// settingsPoll is how often `playchat mcp` re-reads the settings, so the
// window's switches (INTEROP_ALLOW_WRITE, INTEROP_SHARE_NOTES) apply to a
// running server.
const settingsPoll = 3 * time.Second

// mcpCmd runs `playchat mcp [--allow-write] [--share-notes] [--http ADDR]`:
// playchat's MCP server over stdio (or streamable HTTP on ADDR, 127.0.0.1
// only). stdout carries nothing but protocol frames: the log goes to the
// data dir's log file, errors before the server starts to stderr. It runs
// beside an open window on the same data dir.
func mcpCmd(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	allowWrite := fs.Bool("allow-write", false, "offer the writing tools (write_note, append_learning) even when INTEROP_ALLOW_WRITE is off")
	shareNotes := fs.Bool("share-notes", false, "offer the notes tools even when INTEROP_SHARE_NOTES is off")
	httpAddr := fs.String("http", "", "serve streamable HTTP on this 127.0.0.1 address (e.g. 127.0.0.1:8765) at "+interop.HTTPPath+
		" instead of stdio; the token is "+MCPTokenEnv+" or MCP_HTTP_TOKEN")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError{fmt.Sprintf("mcp takes no arguments, not %q", pos[0])}
	}
	if *httpAddr != "" {
		if err := interop.CheckLoopbackAddr(*httpAddr); err != nil {
			return usageError{err.Error()}
		}
	}
	c, err := openCore(ctx, env)
	if err != nil {
		return err
	}
	defer c.Close()

	// The index is brought up to date once, in the background (the window's
	// watcher keeps it fresh while it runs); query_kb waits a little for it.
	var indexing atomic.Bool
	indexed := make(chan struct{})
	indexing.Store(true)
	go c.Guard.Do("mcp.reconcile", func() {
		defer close(indexed)
		defer indexing.Store(false)
		c.ReconcileKB(ctx)
	})
	perms := func() interop.Permissions {
		cfg := c.Config()
		return interop.Permissions{AllowWrite: *allowWrite || cfg.InteropAllowWrite, ShareNotes: *shareNotes || cfg.InteropShareNotes}
	}
	wait := func(ctx context.Context) {
		select {
		case <-indexed:
		case <-ctx.Done():
		}
	}
	svc, err := interop.FromCore(c, perms, indexing.Load, wait)
	if err != nil {
		return err
	}
	newServer := func() *interop.MCP { return interop.NewMCP(svc, interop.MCPOptions{Version: Version, Log: c.Log}) }
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if *httpAddr != "" {
		return serveMCPHTTP(ctx, c, *httpAddr, newServer, env)
	}
	m := newServer()
	go followSettings(ctx, c, m.Sync)
	c.Log.Info("MCP server on stdio", "allowWrite", perms().AllowWrite, "shareNotes", perms().ShareNotes)
	var t mcp.Transport = &mcp.StdioTransport{}
	if env.Stdin != nil && env.Stdin != os.Stdin {
		t = &mcp.IOTransport{Reader: io.NopCloser(env.Stdin), Writer: nopWriteCloser{env.Stdout}}
	}
	err = m.Server().Run(ctx, t)
	<-indexed
	if err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		c.Log.Warn("MCP server ended", "err", err)
		return err
	}
	return nil
}

// followSettings re-reads the settings every settingsPoll and calls sync,
// until ctx ends.
func followSettings(ctx context.Context, c *core.Core, sync func()) {
	t := time.NewTicker(settingsPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := c.Reload(ctx); err != nil {
				if ctx.Err() == nil {
					c.Log.Warn("MCP: reading the settings failed", "err", err)
				}
				continue
			}
			sync()
		}
	}
}

// serveMCPHTTP serves the MCP server over streamable HTTP on addr until ctx
// ends, and prints the URL it listens on to stderr.
func serveMCPHTTP(ctx context.Context, c *core.Core, addr string, newServer func() *interop.MCP, env Env) error {
	token := strings.TrimSpace(lookupEnv(env.Environ, MCPTokenEnv))
	if token == "" {
		token = c.Config().MCPHTTPToken
	}
	h, err := interop.NewHTTPHandler(newServer, token, interop.HTTPOptions{Log: c.Log})
	if err != nil {
		return err
	}
	defer h.Close()
	go followSettings(ctx, c, h.Sync)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle(interop.HTTPPath, h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(env.Stderr, "playchat mcp: listening on http://%s%s\n", ln.Addr(), interop.HTTPPath)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		h.Close()
		_ = srv.Shutdown(sctx)
		return nil
	case err := <-errc:
		return err
	}
}

// lookupEnv returns the last value of key in environ ("" when unset).
func lookupEnv(environ []string, key string) string {
	v := ""
	for _, kv := range environ {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return strings.TrimSpace(v)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
