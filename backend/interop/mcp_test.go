package interop

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect runs m over in-memory transports and returns a client session.
func connect(t *testing.T, m *MCP) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := m.Server().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tl := range res.Tools {
		out = append(out, tl.Name)
	}
	slices.Sort(out)
	return out
}

func textOf(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestMCPOffersReadOnlyToolsUntilPermissionsChange(t *testing.T) {
	f := newFixture(t)
	m := NewMCP(f.s, MCPOptions{Version: "test"})
	cs := connect(t, m)
	ctx := context.Background()
	readOnly := []string{"list_kb_domains", "list_knowledge", "query_kb", "read_document", "read_knowledge", "search_chats", "search_memory"}
	if got := toolNames(t, cs); !slices.Equal(got, readOnly) {
		t.Fatalf("tools = %v, want %v", got, readOnly)
	}
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range res.Tools {
		if tl.Annotations == nil || !tl.Annotations.ReadOnlyHint || tl.OutputSchema == nil || tl.InputSchema == nil {
			t.Errorf("%s: annotations %+v, schemas in %v out %v", tl.Name, tl.Annotations, tl.InputSchema != nil, tl.OutputSchema != nil)
		}
	}
	// A tool that is not offered is a protocol error, not a tool result.
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "append_learning", Arguments: map[string]any{}}); err == nil {
		t.Error("calling an unoffered tool succeeded")
	}
	f.perms.set(Permissions{AllowWrite: true, ShareNotes: true})
	m.Sync()
	all := append(slices.Clone(readOnly), "append_learning", "list_notes", "read_note", "write_note")
	slices.Sort(all)
	if got := toolNames(t, cs); !slices.Equal(got, all) {
		t.Fatalf("tools after allowing = %v, want %v", got, all)
	}
	res, _ = cs.ListTools(ctx, nil)
	for _, tl := range res.Tools {
		if tl.Name == "write_note" && (tl.Annotations.ReadOnlyHint || tl.Annotations.DestructiveHint == nil || !*tl.Annotations.DestructiveHint) {
			t.Errorf("write_note annotations %+v", tl.Annotations)
		}
		if tl.Name == "append_learning" {
			b, _ := json.Marshal(tl.InputSchema)
			if !strings.Contains(string(b), `"maximum":1,"minimum":0,"type":"number"`) || !strings.Contains(string(b), `"confidence"]`) {
				t.Errorf("append_learning schema %s", b)
			}
		}
	}
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "append_learning", Arguments: map[string]any{
		"domain": "rust", "content": "所有権はムーブで移る。", "source_type": "conversation", "confidence": 0.9}})
	if err != nil || r.IsError {
		t.Fatalf("append_learning: %v %s", err, textOf(r))
	}
	var l Learning
	b, _ := json.Marshal(r.StructuredContent)
	if err := json.Unmarshal(b, &l); err != nil || l.ID == "" {
		t.Fatalf("structured result %s", b)
	}
	doc, err := f.s.ReadDocument(ctx, ReadDocumentInput{Domain: l.Domain, Path: l.Path})
	if err != nil || doc.Learned == nil || doc.Learned.Provenance.Client != "test-client" {
		t.Errorf("the learned document's client: %+v, %v", doc.Learned, err)
	}
	f.perms.set(Permissions{})
	m.Sync()
	if got := toolNames(t, cs); !slices.Equal(got, readOnly) {
		t.Errorf("tools after revoking = %v", got)
	}
}

func TestMCPToolFailuresAreCodedErrorResults(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, NewMCP(f.s, MCPOptions{}))
	ctx := context.Background()
	for _, tc := range []struct {
		args map[string]any
		code string
	}{
		{map[string]any{"domain": "vue", "path": "../../etc/passwd"}, "[interop.badPath]"},
		{map[string]any{"domain": "..", "path": "x.md"}, "[interop.badDomain]"},
		{map[string]any{"domain": "vue", "path": "missing.md"}, "[interop.noDocument]"},
		{map[string]any{"domain": "vue", "path": "computed.md", "max_chars": -1}, "[interop.badArgument]"},
	} {
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_document", Arguments: tc.args})
		if err != nil {
			t.Fatalf("%v: protocol error %v", tc.args, err)
		}
		if !r.IsError || !strings.HasPrefix(textOf(r), tc.code) || strings.Count(textOf(r), "\n") > 0 {
			t.Errorf("%v: isError %v, text %q, want %s…", tc.args, r.IsError, textOf(r), tc.code)
		}
	}
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "query_kb", Arguments: map[string]any{"query": "ライフサイクルフック", "limit": 2}})
	if err != nil || r.IsError {
		t.Fatalf("query_kb: %v %s", err, textOf(r))
	}
	var out QueryKBOutput
	b, _ := json.Marshal(r.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || len(out.Hits) == 0 {
		t.Fatalf("query_kb result %s", b)
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: out.Hits[0].URI})
	if err != nil || len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, "ライフサイクル") {
		t.Errorf("resource %s: %v", out.Hits[0].URI, err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "playchat://kb/vue/..%2F..%2Fsecret.md"}); err == nil {
		t.Error("a resource URI climbing out of the root was read")
	}
	tmpl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(tmpl.ResourceTemplates) != 1 || tmpl.ResourceTemplates[0].URITemplate != "playchat://kb/{domain}/{+path}" {
		t.Errorf("resource templates: %+v, %v", tmpl, err)
	}
}
