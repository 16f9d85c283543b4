package mcpclient

// This file: the tools the servers offer a turn, and calls to them (Manager.Call).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Offered is one tool a turn may be offered.
type Offered struct {
	Server    string
	Tool      *mcp.Tool
	ModelName string
	// NeedsApproval: the server is "ask first", or the tool is marked
	// destructive and the server is not "allow always".
	NeedsApproval bool
	AllowDiscord  bool
	Timeout       time.Duration
}

// Offer lists the enabled tools of the ready servers, sorted by model name
// (a stable order). outside leaves out servers not allowed for Discord.
func (m *Manager) Offer(outside bool) []Offered {
	names := m.names()
	var out []Offered
	m.mu.Lock()
	for name, r := range m.runners {
		r.mu.Lock()
		if r.state == StateReady && (!outside || r.cfg.AllowDiscord) {
			for _, t := range r.tools {
				if !r.cfg.ToolEnabled(t.Name) {
					continue
				}
				ti := toolInfo(r.cfg, t)
				out = append(out, Offered{Server: name, Tool: t, ModelName: names[[2]string{name, t.Name}],
					NeedsApproval: !r.cfg.AlwaysAllow && (r.cfg.AskFirst || ti.Destructive),
					AllowDiscord:  r.cfg.AllowDiscord, Timeout: r.cfg.Timeout()})
			}
		}
		r.mu.Unlock()
	}
	m.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].ModelName < out[j].ModelName })
	return out
}

// Lookup finds the tool a model name stands for among the offered tools.
func (m *Manager) Lookup(modelName string, outside bool) (Offered, bool) {
	for _, o := range m.Offer(outside) {
		if o.ModelName == modelName {
			return o, true
		}
	}
	return Offered{}, false
}

// Errors of a call.
var (
	ErrTimeout     = errors.New("the MCP server did not answer in time")
	ErrNotReady    = errors.New("the MCP server is not ready")
	ErrUnknownTool = errors.New("the MCP server has no such tool")
)

// MaxResultRunes caps what one call returns to the model.
const MaxResultRunes = 16000

// CallResult is one call's outcome.
type CallResult struct {
	// Text is the result's text (capped, with a marker when cut).
	Text string
	// IsError is the server's isError: the tool failed, and says how.
	IsError bool
	// Images are the image contents (base64 data and MIME type).
	Images []Image
	// Truncated is true when Text was cut.
	Truncated bool
}

// Image is an image a tool returned.
type Image struct {
	MIMEType string `json:"mimeType"`
	Data     []byte `json:"-"`
}

// Call calls tool (its real name) of server with args (a JSON object),
// within the server's timeout, restarted by every progress notification.
// Cancelling ctx (Stop) cancels the call and the server is told.
func (m *Manager) Call(ctx context.Context, server, tool string, args json.RawMessage) (CallResult, error) {
	m.mu.Lock()
	r := m.runners[server]
	m.mu.Unlock()
	if r == nil {
		return CallResult{}, fmt.Errorf("%w: %s is not running", ErrNotReady, server)
	}
	r.mu.Lock()
	cs, state, timeout := r.session, r.state, r.cfg.Timeout()
	known := false
	for _, t := range r.tools {
		known = known || t.Name == tool
	}
	r.mu.Unlock()
	if cs == nil || state != StateReady {
		return CallResult{}, fmt.Errorf("%w: %s is %s", ErrNotReady, server, state)
	}
	if !known {
		return CallResult{}, fmt.Errorf("%w: %s has no tool %q", ErrUnknownTool, server, tool)
	}
	var a map[string]any
	if len(args) > 0 {
		if err := json.Unmarshal(args, &a); err != nil {
			return CallResult{}, fmt.Errorf("the arguments are not a JSON object: %w", err)
		}
	}
	if a == nil {
		a = map[string]any{}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	timer := time.AfterFunc(timeout, func() { cancel(ErrTimeout) })
	defer timer.Stop()
	token := uuid.NewString()
	r.mu.Lock()
	r.calls[token] = func() { timer.Reset(timeout) }
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.calls, token)
		r.mu.Unlock()
	}()
	params := &mcp.CallToolParams{Name: tool, Arguments: a}
	params.SetProgressToken(token)
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		if errors.Is(context.Cause(ctx), ErrTimeout) {
			return CallResult{}, fmt.Errorf("%w (%s after its last sign of progress)", ErrTimeout, timeout)
		}
		if ctx.Err() != nil {
			return CallResult{}, context.Cause(ctx)
		}
		return CallResult{}, err
	}
	return convert(res, MaxResultRunes), nil
}

// convert turns an MCP result into the model's tool result.
func convert(res *mcp.CallToolResult, maxRunes int) CallResult {
	out := CallResult{IsError: res.IsError}
	var parts []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, c.Text)
		case *mcp.ImageContent:
			out.Images = append(out.Images, Image{MIMEType: c.MIMEType, Data: c.Data})
			parts = append(parts, fmt.Sprintf("[image %d: %s, %d bytes]", len(out.Images), c.MIMEType, len(c.Data)))
		case *mcp.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio: %s, %d bytes, not shown]", c.MIMEType, len(c.Data)))
		case *mcp.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource %s: %s]", c.Name, c.URI))
		case *mcp.EmbeddedResource:
			if c.Resource != nil && c.Resource.Text != "" {
				parts = append(parts, c.Resource.Text)
			} else if c.Resource != nil {
				parts = append(parts, fmt.Sprintf("[resource %s: %s]", c.Resource.URI, c.Resource.MIMEType))
			}
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	out.Text, out.Truncated = CapRunes(strings.Join(parts, "\n"), maxRunes)
	return out
}

// CapRunes cuts s after n characters (never inside one; invalid UTF-8 is
// replaced) and appends a visible marker saying how much was shown.
func CapRunes(s string, n int) (string, bool) {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	total := utf8.RuneCountInString(s)
	if total <= n {
		return s, false
	}
	i, k := 0, 0
	for k < n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		k++
	}
	return s[:i] + fmt.Sprintf("\n…(truncated: %d of %d characters shown)", n, total), true
}
