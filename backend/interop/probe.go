package interop

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ProbeResult is what one test call through a real MCP transport saw
// (Settings → Use from other tools → Test).
type ProbeResult struct {
	// Transport is "stdio" or "http".
	Transport string `json:"transport"`
	// Tools is how many tools the server offered.
	Tools int `json:"tools"`
	// Domains is how many knowledge-base domains list_kb_domains returned.
	Domains int `json:"domains"`
	// Millis is the time from connecting to the answer, in milliseconds.
	Millis int64 `json:"millis"`
}

// Probe connects to an MCP server through t as a client named
// "playchat-test" would, lists its tools and calls list_kb_domains — the
// one call a client's first use makes. Errors: the connection, the listing
// or the call failed, or the call answered with isError (its text).
func Probe(ctx context.Context, transport string, t mcp.Transport) (ProbeResult, error) {
	start := time.Now()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "playchat-test", Version: "1"}, nil).Connect(ctx, t, nil)
	if err != nil {
		return ProbeResult{}, fmt.Errorf("connecting over %s: %w", transport, err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		return ProbeResult{}, fmt.Errorf("listing the tools: %w", err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_kb_domains", Arguments: map[string]any{}})
	if err != nil {
		return ProbeResult{}, fmt.Errorf("calling list_kb_domains: %w", err)
	}
	if res.IsError {
		return ProbeResult{}, fmt.Errorf("list_kb_domains: %s", resultText(res))
	}
	var out DomainList
	b, err := json.Marshal(res.StructuredContent)
	if err == nil {
		err = json.Unmarshal(b, &out)
	}
	if err != nil {
		return ProbeResult{}, fmt.Errorf("list_kb_domains answered: %w", err)
	}
	return ProbeResult{Transport: transport, Tools: len(tools.Tools), Domains: len(out.Domains),
		Millis: time.Since(start).Milliseconds()}, nil
}

// resultText is the text content of a tool result, joined by new lines.
func resultText(r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// BearerClient is an HTTP client that sends "Authorization: Bearer token"
// with every request (for a StreamableClientTransport).
func BearerClient(token string) *http.Client {
	return &http.Client{Transport: bearerTransport{token: token, rt: http.DefaultTransport}}
}

type bearerTransport struct {
	token string
	rt    http.RoundTripper
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.rt.RoundTrip(r)
}
