package interop

import (
	"context"
	"encoding/json"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"playchat/backend/apperr"
	"playchat/internal/testnet"
)

func callDomains(t *testing.T, url, token string) error {
	t.Helper()
	cs, err := httpClient(t, url, map[string]string{"Authorization": "Bearer " + token})
	if err != nil {
		return err
	}
	defer cs.Close()
	_, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_kb_domains", Arguments: map[string]any{}})
	return err
}

func TestServingStartsMovesRekeysAndStopsWithTheSettings(t *testing.T) {
	f := newFixture(t)
	s := NewServing(func() *MCP { return NewMCP(f.s, MCPOptions{}) }, nil)
	t.Cleanup(s.Close)
	if st := s.Status(); st.Running || st.URL != "" {
		t.Fatalf("a new Serving runs: %+v", st)
	}
	port := testnet.FreePort(t)
	if err := s.Apply(true, port, "first-token"); err != nil {
		t.Fatal(err)
	}
	st := s.Status()
	want := "http://127.0.0.1:" + strconv.Itoa(port) + HTTPPath
	if !st.Running || st.URL != want || st.Err != "" {
		t.Fatalf("status %+v, want running at %s", st, want)
	}
	if err := callDomains(t, st.URL, "first-token"); err != nil {
		t.Fatalf("a call with the token: %v", err)
	}
	// A session of the first token, then the token changes: that session
	// ends, the old token is refused, the new one works.
	old, err := httpClient(t, st.URL, map[string]string{"Authorization": "Bearer first-token"})
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if err := s.Apply(true, port, "second-token"); err != nil {
		t.Fatal(err)
	}
	if _, err := old.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_kb_domains", Arguments: map[string]any{}}); err == nil {
		t.Fatal("a session of the old token still answers after the token changed")
	}
	if err := callDomains(t, st.URL, "first-token"); err == nil {
		t.Fatal("the old token is still accepted")
	}
	if err := callDomains(t, st.URL, "second-token"); err != nil {
		t.Fatalf("the new token: %v", err)
	}
	// Another port: the old one is free again.
	port2 := testnet.FreePort(t)
	if err := s.Apply(true, port2, "second-token"); err != nil {
		t.Fatal(err)
	}
	if got := s.Status().URL; !strings.Contains(got, ":"+strconv.Itoa(port2)+"/") {
		t.Fatalf("after the port changed the URL is %s", got)
	}
	if ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port)); err != nil {
		t.Fatalf("the old port is still taken: %v", err)
	} else {
		ln.Close()
	}
	// Off: nothing listens.
	if err := s.Apply(false, port2, "second-token"); err != nil {
		t.Fatal(err)
	}
	if st := s.Status(); st.Running || st.URL != "" || st.Err != "" {
		t.Fatalf("after switching off: %+v", st)
	}
	if err := callDomains(t, "http://127.0.0.1:"+strconv.Itoa(port2)+HTTPPath, "second-token"); err == nil {
		t.Fatal("the server still answers after it was switched off")
	}
}

func TestServingRefusesAnEmptyTokenAndReportsATakenPort(t *testing.T) {
	f := newFixture(t)
	s := NewServing(func() *MCP { return NewMCP(f.s, MCPOptions{}) }, nil)
	t.Cleanup(s.Close)
	err := s.Apply(true, testnet.FreePort(t), "  ")
	if apperr.CodeOf(err) != apperr.InteropNoToken {
		t.Fatalf("an empty token: %v, want %s", err, apperr.InteropNoToken)
	}
	if st := s.Status(); st.Running || st.Err == "" {
		t.Fatalf("after an empty token: %+v", st)
	}
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port
	if err := s.Apply(true, port, "tok"); err == nil {
		t.Fatal("listening on a taken port succeeded")
	}
	if st := s.Status(); st.Running || !strings.Contains(st.Err, strconv.Itoa(port)) {
		t.Fatalf("a taken port: %+v", st)
	}
	if err := s.Apply(true, 0, "tok"); err == nil {
		t.Fatal("port 0 was accepted")
	}
}

func TestNewTokenIsLongAndFresh(t *testing.T) {
	a, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewToken()
	if len(a) != 43 || a == b || strings.ContainsAny(a, "+/=") {
		t.Fatalf("tokens %q %q", a, b)
	}
}

func TestClientConfigsAreValidJSONWithTheBinaryEscaped(t *testing.T) {
	for _, tc := range []struct{ goos, bin string }{
		{"linux", "/opt/play chat/playchat"},
		{"windows", `C:\Program Files\playchat\playchat.exe`},
		{"darwin", "/Applications/playchat.app/Contents/MacOS/playchat"},
	} {
		cs := ClientConfigs(ClientConfigOptions{Binary: tc.bin, GOOS: tc.goos, AllowWrite: true,
			HTTPURL: "http://127.0.0.1:8765/mcp", Token: "tok&<en>"})
		seen := map[string]ClientConfig{}
		for _, c := range cs {
			seen[c.Client] = c
		}
		for _, name := range []string{"claude-desktop", "vscode", "cursor", "claude-code", "vscode-http", "open-webui"} {
			if _, ok := seen[name]; !ok {
				t.Fatalf("%s: no %s config in %+v", tc.goos, name, cs)
			}
		}
		var claude struct {
			MCPServers map[string]struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"mcpServers"`
		}
		if err := json.Unmarshal([]byte(seen["claude-desktop"].Text), &claude); err != nil {
			t.Fatalf("%s: Claude Desktop's config is not JSON: %v\n%s", tc.goos, err, seen["claude-desktop"].Text)
		}
		if p := claude.MCPServers["playchat"]; p.Command != tc.bin || strings.Join(p.Args, " ") != "mcp --allow-write" {
			t.Fatalf("%s: Claude Desktop runs %q %q", tc.goos, p.Command, p.Args)
		}
		if tc.goos == "windows" && !strings.Contains(seen["claude-desktop"].Text, `C:\\Program Files\\playchat\\playchat.exe`) {
			t.Fatalf("the Windows path is not JSON-escaped:\n%s", seen["claude-desktop"].Text)
		}
		var vs struct {
			Servers map[string]map[string]any `json:"servers"`
		}
		if err := json.Unmarshal([]byte(seen["vscode"].Text), &vs); err != nil || vs.Servers["playchat"]["type"] != "stdio" {
			t.Fatalf("%s: VS Code's config: %v %+v", tc.goos, err, vs)
		}
		if err := json.Unmarshal([]byte(seen["vscode-http"].Text), &vs); err != nil || vs.Servers["playchat"]["type"] != "http" {
			t.Fatalf("%s: VS Code's HTTP config: %v %+v", tc.goos, err, vs)
		}
		if !strings.Contains(seen["vscode-http"].Text, "Bearer tok&<en>") {
			t.Fatalf("the token is escaped: %s", seen["vscode-http"].Text)
		}
		if !strings.Contains(seen["claude-code"].Text, "claude mcp add playchat -- ") {
			t.Fatalf("Claude Code: %s", seen["claude-code"].Text)
		}
	}
	api := ClientConfigs(ClientConfigOptions{Binary: "/usr/bin/playchat", GOOS: "linux",
		APIURL: "http://0.0.0.0:8901/v1", APIToken: "pc-tok", APILAN: true, Model: "ollama/qwen3:8b"})
	byName := map[string]string{}
	for _, c := range api {
		byName[c.Client] = c.Text
	}
	if !strings.Contains(byName["open-webui-api"], "http://host.docker.internal:8901/v1") ||
		!strings.Contains(byName["openai-python"], `model="playchat/ollama/qwen3:8b"`) ||
		!strings.Contains(byName["openai-js"], "apiKey: 'pc-tok'") {
		t.Fatalf("the API's configs: %+v", byName)
	}
	if got := ClientConfigs(ClientConfigOptions{Binary: "/usr/bin/playchat", GOOS: "linux"}); len(got) != 4 {
		t.Fatalf("without the HTTP server: %d configs, want the 4 stdio ones", len(got))
	}
	if got := shellWord("/opt/play chat/it's", "linux"); got != `'/opt/play chat/it'\''s'` {
		t.Fatalf("shellWord: %s", got)
	}
	if got := shellWord(`C:\Program Files\p.exe`, "windows"); got != `"C:\Program Files\p.exe"` {
		t.Fatalf("shellWord on Windows: %s", got)
	}
}

func TestProbeListsToolsAndCallsListKBDomains(t *testing.T) {
	f := newFixture(t)
	m := NewMCP(f.s, MCPOptions{})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := m.Server().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	r, err := Probe(context.Background(), "stdio", ct)
	if err != nil {
		t.Fatal(err)
	}
	if r.Transport != "stdio" || r.Tools < 5 || r.Domains < 1 || r.Millis < 0 {
		t.Fatalf("probe: %+v", r)
	}
	// Over HTTP with a wrong token: a clear error, not a result.
	s := NewServing(func() *MCP { return NewMCP(f.s, MCPOptions{}) }, nil)
	t.Cleanup(s.Close)
	if err := s.Apply(true, testnet.FreePort(t), "right"); err != nil {
		t.Fatal(err)
	}
	if _, err := Probe(context.Background(), "http", &mcp.StreamableClientTransport{Endpoint: s.Status().URL, MaxRetries: -1}); err == nil {
		t.Fatal("a probe without the token succeeded")
	}
}
