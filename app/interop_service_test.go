package app

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"playchat/backend/apiserver"
	"playchat/backend/interop"
	"playchat/internal/testnet"
)

// Switching the servers on in Settings starts them with fresh tokens; the
// overview shows where they run and configurations that name them; a new
// token is applied at once; switching off stops them (issue 23).
func TestInteropServersFollowTheSettings(t *testing.T) {
	a, _ := newTestApp(t, "DEFAULT_MODEL=openai/test-model", "OLLAMA_API_BASE=http://127.0.0.1:9",
		"LM_STUDIO_API_BASE=http://127.0.0.1:9/v1")
	c := a.core
	a.startInterop(c)
	t.Cleanup(a.stopInterop)
	svc := &InteropService{a}
	o, err := svc.Overview()
	if err != nil {
		t.Fatal(err)
	}
	if o.HTTP.Running || o.API.Running || o.Token != "" || len(o.Configs) != 4 {
		t.Fatalf("before switching on: %+v", o)
	}
	mcpPort, apiPort := testnet.FreePort(t), testnet.FreePort(t)
	if _, err := (&SettingsService{a}).Save(SettingsUpdate{Values: map[string]string{
		"MCP_HTTP_ENABLED": "true", "MCP_HTTP_PORT": strconv.Itoa(mcpPort),
		"API_SERVER_ENABLED": "true", "API_SERVER_PORT": strconv.Itoa(apiPort),
	}}); err != nil {
		t.Fatal(err)
	}
	o, err = svc.Overview()
	if err != nil {
		t.Fatal(err)
	}
	if !o.HTTP.Running || !strings.HasSuffix(o.HTTP.URL, ":"+strconv.Itoa(mcpPort)+interop.HTTPPath) || len(o.Token) < 16 {
		t.Fatalf("the MCP server: %+v (token %q)", o.HTTP, o.Token)
	}
	if !o.API.Running || o.API.URL != "http://127.0.0.1:"+strconv.Itoa(apiPort)+"/v1" || !strings.HasPrefix(o.APIToken, "pc-") {
		t.Fatalf("the API: %+v (token %q)", o.API, o.APIToken)
	}
	clients := map[string]string{}
	for _, cc := range o.Configs {
		clients[cc.Client] = cc.Text
	}
	if !strings.Contains(clients["vscode-http"], o.HTTP.URL) || !strings.Contains(clients["vscode-http"], "Bearer "+o.Token) ||
		!strings.Contains(clients["open-webui-api"], o.API.URL) || !strings.Contains(clients["claude-desktop"], o.Binary) {
		t.Fatalf("the configurations do not name the servers: %+v", clients)
	}
	ctx := context.Background()
	if _, err := interop.Probe(ctx, "http", httpTransport(o.HTTP.URL, o.Token)); err != nil {
		t.Fatalf("an MCP call with the token: %v", err)
	}
	if n, err := apiserver.ProbeModels(ctx, o.API.URL, o.APIToken); err != nil || n == 0 {
		t.Fatalf("the API's models: %d %v", n, err)
	}
	// New tokens: the old ones are refused at once, the new ones work.
	old, oldAPI := o.Token, o.APIToken
	if o, err = svc.RotateMCPToken(); err != nil {
		t.Fatal(err)
	}
	if o, err = svc.RotateAPIToken(); err != nil {
		t.Fatal(err)
	}
	if o.Token == old || o.APIToken == oldAPI {
		t.Fatal("a rotated token did not change")
	}
	if _, err := interop.Probe(ctx, "http", httpTransport(o.HTTP.URL, old)); err == nil {
		t.Fatal("the old MCP token still works")
	}
	if _, err := apiserver.ProbeModels(ctx, o.API.URL, oldAPI); err == nil {
		t.Fatal("the old API token still works")
	}
	if _, err := interop.Probe(ctx, "http", httpTransport(o.HTTP.URL, o.Token)); err != nil {
		t.Fatalf("the new MCP token: %v", err)
	}
	if _, err := apiserver.ProbeModels(ctx, o.API.URL, o.APIToken); err != nil {
		t.Fatalf("the new API token: %v", err)
	}
	// A token can be replaced, never cleared.
	if _, err := (&SettingsService{a}).Save(SettingsUpdate{Clear: []string{"MCP_HTTP_TOKEN"}}); err == nil {
		t.Fatal("clearing the MCP token was accepted")
	}
	// Off: both stop.
	if _, err := (&SettingsService{a}).Save(SettingsUpdate{Values: map[string]string{
		"MCP_HTTP_ENABLED": "false", "API_SERVER_ENABLED": "false"}}); err != nil {
		t.Fatal(err)
	}
	if o, _ = svc.Overview(); o.HTTP.Running || o.API.Running {
		t.Fatalf("after switching off: %+v %+v", o.HTTP, o.API)
	}
}

func httpTransport(url, token string) *mcp.StreamableClientTransport {
	return &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1, HTTPClient: interop.BearerClient(token)}
}
