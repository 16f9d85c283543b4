package mcpclient

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeServerEnv makes the test binary, started again, run a small MCP
// server over stdio (TestMain) in the mode the variable names.
const fakeServerEnv = "MCPCLIENT_FAKE_SERVER"

// fakeAppEnv makes the test binary, started again, act as a playchat with
// one stdio server whose tool started a grandchild: it prints the
// grandchild's pid and waits to be killed (orphans_linux_test.go).
const fakeAppEnv = "MCPCLIENT_FAKE_APP"

func runFakeApp(dir string) {
	exe, _ := os.Executable()
	m := New(Options{DataDir: dir, Environ: os.Environ(), Shell: "/bin/sh"})
	srv := Server{Name: "s", Transport: TransportStdio, Command: exe, Args: []string{"-test.run=^$"},
		Env: map[string]string{fakeServerEnv: "normal", fakeAppEnv: ""}}
	if _, err := m.Store().Update(func(c *Config) error { c.Servers = []Server{srv}; return nil }); err != nil {
		fmt.Println("error:", err)
		return
	}
	if err := m.Start(); err != nil {
		fmt.Println("error:", err)
		return
	}
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if res, err := m.Call(context.Background(), "s", "spawn", nil); err == nil {
			fmt.Println(res.Text)
			select {} // until killed
		}
	}
	fmt.Println("error: the server never answered")
}

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeServerEnv); mode != "" {
		runFake(mode)
		os.Exit(0)
	}
	if dir := os.Getenv(fakeAppEnv); dir != "" {
		runFakeApp(dir)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type echoIn struct {
	Text string `json:"text" jsonschema:"what to echo"`
}

type sleepIn struct {
	Millis int `json:"millis"`
	// Progress sends a progress notification every Progress ms.
	Progress int `json:"progress,omitempty"`
}

type sizeIn struct {
	Runes int `json:"runes"`
}

// fakeServer is the server of the tests, over any transport.
func fakeServer(name string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: name, Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echo the text",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + in.Text}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "sleep", Description: "sleep a while"},
		func(ctx context.Context, req *mcp.CallToolRequest, in sleepIn) (*mcp.CallToolResult, any, error) {
			end := time.After(time.Duration(in.Millis) * time.Millisecond)
			var tick <-chan time.Time
			if in.Progress > 0 {
				t := time.NewTicker(time.Duration(in.Progress) * time.Millisecond)
				defer t.Stop()
				tick = t.C
			}
			n := 0.0
			for {
				select {
				case <-end:
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "slept"}}}, nil, nil
				case <-tick:
					n++
					_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: n})
				case <-ctx.Done():
					if f := os.Getenv("MCPCLIENT_CANCEL_FILE"); f != "" {
						_ = os.WriteFile(f, []byte("cancelled"), 0o600)
					}
					return nil, nil, ctx.Err()
				}
			}
		})
	mcp.AddTool(s, &mcp.Tool{Name: "big", Description: "a long Japanese text"},
		func(ctx context.Context, _ *mcp.CallToolRequest, in sizeIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("あ", in.Runes)}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "fails"},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "disk is full"}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "picture", Description: "an image"},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{MIMEType: "image/png", Data: []byte("PNGDATA")}}}, nil, nil
		})
	yes := true
	mcp.AddTool(s, &mcp.Tool{Name: "delete_everything", Description: "deletes",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &yes}},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "deleted"}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "args", Description: "the server's arguments and env"},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(os.Args[1:], "|") + " FOO=" + os.Getenv("FOO")}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "spawn", Description: "starts a grandchild"},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			c := exec.Command("sleep", "300")
			if err := c.Start(); err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(c.Process.Pid)}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "crash", Description: "exits at once"},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "fatal: crashing on purpose")
			os.Exit(3)
			return nil, nil, nil
		})
	return s
}

func runFake(mode string) {
	switch mode {
	case "exit":
		fmt.Fprintln(os.Stderr, "Error: Cannot find module '@example/missing'")
		fmt.Fprintln(os.Stderr, "node:internal/modules/cjs/loader:1228")
		os.Exit(2)
	case "hang":
		_, _ = io.Copy(io.Discard, os.Stdin) // reads, never answers
		return
	case "banner":
		fmt.Println("Server starting… (a banner on stdout)")
	}
	_ = fakeServer("fake").Run(context.Background(), &mcp.StdioTransport{})
}

// fakeStdio is a stdio server entry running the test binary in mode.
func fakeStdio(t *testing.T, name, mode string) Server {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Server{Name: name, Transport: TransportStdio, Command: exe, Args: []string{"-test.run=^$"},
		Env: map[string]string{fakeServerEnv: mode}}
}

// fakeHTTP serves the fake over streamable HTTP, requiring header
// X-Token: secret.
func fakeHTTP(t *testing.T) string {
	t.Helper()
	srv := fakeServer("fake-http")
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Token") != "secret" {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	return hs.URL
}

// newManager writes servers into a fresh data dir and starts a manager.
func newManager(t *testing.T, servers ...Server) *Manager {
	t.Helper()
	dir := t.TempDir()
	m := New(Options{DataDir: dir, Environ: os.Environ(), Shell: "/bin/sh"})
	if _, err := m.Store().Update(func(c *Config) error { c.Servers = servers; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	return m
}

// waitState waits until server reaches state.
func waitState(t *testing.T, m *Manager, server, state string) Status {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	var last Status
	for time.Now().Before(deadline) {
		sts, err := m.Statuses()
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range sts {
			if s.Name == server {
				last = s
				if s.State == state {
					return s
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s: state %q, want %q (%s)", server, last.State, state, last.Reason)
	return last
}
