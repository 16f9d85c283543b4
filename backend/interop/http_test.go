package interop

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// headerRT adds headers to every request.
type headerRT struct {
	set map[string]string
	rt  http.RoundTripper
}

func (h headerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.set {
		if k == "Host" {
			r.Host = v
			continue
		}
		r.Header.Set(k, v)
	}
	return h.rt.RoundTrip(r)
}

func httpFixture(t *testing.T) (*fixture, *HTTPHandler, *httptest.Server) {
	t.Helper()
	f := newFixture(t)
	h, err := NewHTTPHandler(func() *MCP { return NewMCP(f.s, MCPOptions{}) }, "s3cret-token", HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, h)
	srv := httptest.NewServer(mux) // 127.0.0.1
	t.Cleanup(func() { h.Close(); srv.Close() })
	return f, h, srv
}

// httpClient connects an SDK client with these headers.
func httpClient(t *testing.T, url string, headers map[string]string) (*mcp.ClientSession, error) {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: headerRT{set: headers, rt: http.DefaultTransport}}}
	return mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil).Connect(context.Background(), tr, nil)
}

func TestHTTPNeedsTheTokenALoopbackHostAndNoForeignOrigin(t *testing.T) {
	_, _, srv := httpFixture(t)
	url := srv.URL + HTTPPath
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	for _, tc := range []struct {
		name    string
		headers map[string]string
		want    int
	}{
		{"no token", nil, http.StatusUnauthorized},
		{"wrong token", map[string]string{"Authorization": "Bearer wrong"}, http.StatusUnauthorized},
		{"token prefix", map[string]string{"Authorization": "Bearer s3cret"}, http.StatusUnauthorized},
		{"basic scheme", map[string]string{"Authorization": "Basic s3cret-token"}, http.StatusUnauthorized},
		{"foreign Host", map[string]string{"Authorization": "Bearer s3cret-token", "Host": "evil.example:" + port}, http.StatusForbidden},
		{"rebinding Host", map[string]string{"Authorization": "Bearer s3cret-token", "Host": "attacker.test"}, http.StatusForbidden},
		{"other port Host", map[string]string{"Authorization": "Bearer s3cret-token", "Host": "127.0.0.1:1"}, http.StatusForbidden},
		{"foreign Origin", map[string]string{"Authorization": "Bearer s3cret-token", "Origin": "https://evil.example"}, http.StatusForbidden},
		{"null Origin", map[string]string{"Authorization": "Bearer s3cret-token", "Origin": "null"}, http.StatusForbidden},
		{"loopback Origin, other port", map[string]string{"Authorization": "Bearer s3cret-token", "Origin": "http://localhost:1"}, http.StatusForbidden},
		{"foreign Origin without token", map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		{"same Origin", map[string]string{"Authorization": "Bearer s3cret-token", "Origin": "http://127.0.0.1:" + port}, http.StatusOK},
		{"localhost Host", map[string]string{"Authorization": "bearer s3cret-token", "Host": "localhost:" + port}, http.StatusOK},
		{"no Origin", map[string]string{"Authorization": "Bearer s3cret-token"}, http.StatusOK},
	} {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(init))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range tc.headers {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
		if tc.want == http.StatusUnauthorized && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: no WWW-Authenticate: Bearer", tc.name)
		}
	}
	if _, err := httpClient(t, url, nil); err == nil {
		t.Error("an SDK client without the token connected")
	}
}

func TestHTTPServesTheToolsAndRotationEndsSessions(t *testing.T) {
	_, h, srv := httpFixture(t)
	url := srv.URL + HTTPPath
	ctx := context.Background()
	cs, err := httpClient(t, url, map[string]string{"Authorization": "Bearer s3cret-token"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "query_kb", Arguments: map[string]any{"query": "所有権"}})
	if err != nil || r.IsError || !strings.Contains(textOf(r), `"domain":"rust"`) {
		t.Fatalf("query_kb over HTTP: %v %s", err, textOf(r))
	}
	if err := h.Rotate(""); err == nil {
		t.Error("rotating to an empty token was accepted")
	}
	if err := h.Rotate("new-token"); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "query_kb", Arguments: map[string]any{"query": "所有権"}}); err == nil {
		t.Error("a session of the old token still works after rotation")
	}
	if _, err := httpClient(t, url, map[string]string{"Authorization": "Bearer s3cret-token"}); err == nil {
		t.Error("the old token still connects after rotation")
	}
	cs2, err := httpClient(t, url, map[string]string{"Authorization": "Bearer new-token"})
	if err != nil {
		t.Fatalf("the new token: %v", err)
	}
	defer cs2.Close()
	if r, err := cs2.CallTool(ctx, &mcp.CallToolParams{Name: "list_kb_domains"}); err != nil || r.IsError {
		t.Errorf("list_kb_domains with the new token: %v", err)
	}
}

func TestHTTPHandlerNeedsATokenAndALoopbackAddress(t *testing.T) {
	if _, err := NewHTTPHandler(func() *MCP { return nil }, " ", HTTPOptions{}); err == nil {
		t.Error("an empty token was accepted")
	}
	for addr, ok := range map[string]bool{"127.0.0.1:8765": true, "localhost:0": true, "[::1]:9": true,
		"0.0.0.0:8765": false, ":8765": false, "192.168.1.2:80": false, "example.com:80": false} {
		if err := CheckLoopbackAddr(addr); (err == nil) != ok {
			t.Errorf("CheckLoopbackAddr(%q) = %v", addr, err)
		}
	}
}
