package interop

import (
	"context"
	"errors"
	"log/slog"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"playchat/backend/apperr"
)

// ServerName is the MCP server's implementation name.
const ServerName = "playchat"

// instructions tell the client's model how the tools fit together.
const instructions = `playchat's knowledge base (local Markdown documents, searched with Japanese-aware ranking), chat history, long-term memories and learned web knowledge.
Documents are addressed as {domain, path}: domain is a top-level folder (list_kb_domains; "" for the root), path the rest. Every query_kb hit carries exactly the domain and path read_document takes; the same document is the resource playchat://kb/{domain}/{path}.
A failed call returns an error result starting with a [code].`

// MCPOptions configure NewMCP.
type MCPOptions struct {
	// Version is playchat's version, sent in the initialize result.
	Version string
	// Log receives the SDK's and the tools' warnings; nil discards.
	Log *slog.Logger
}

// MCP is playchat's MCP server: the tool layer's operations as tools with
// typed input and output schemas and annotations, and the knowledge base's
// documents as resources (playchat://kb/{domain}/{path}). Writing tools are
// offered only while Permissions().AllowWrite, notes tools only while
// ShareNotes; Sync applies a change (clients are told the list changed).
// One MCP serves any number of sessions (stdio: one; HTTP: many).
type MCP struct {
	svc *Service
	srv *mcp.Server
	log *slog.Logger

	mu      sync.Mutex
	offered map[string]bool
	defs    []toolDef
}

// toolDef is one tool and what it needs.
type toolDef struct {
	name         string
	write, notes bool
	add          func(*mcp.Server)
}

// NewMCP builds the server over svc and offers the tools the current
// permissions allow.
func NewMCP(svc *Service, o MCPOptions) *MCP {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: ServerName, Title: "playchat", Version: o.Version},
		&mcp.ServerOptions{Instructions: instructions, Logger: o.Log})
	m := &MCP{svc: svc, srv: srv, log: o.Log, offered: map[string]bool{}}
	m.defs = m.toolDefs()
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		Name: "kb-document", Title: "Knowledge-base document", MIMEType: "text/markdown",
		Description: "A Markdown document of playchat's knowledge base, by the domain and path query_kb returns.",
		URITemplate: "playchat://kb/{domain}/{+path}",
	}, m.readResource)
	m.Sync()
	return m
}

// Server returns the SDK server (to Run over stdio, or to hand to an HTTP
// handler).
func (m *MCP) Server() *mcp.Server { return m.srv }

// Sync offers exactly the tools the current permissions allow: tools that
// became allowed are added and tools no longer allowed removed (the SDK
// tells connected clients the list changed).
func (m *MCP) Sync() {
	p := m.svc.Permissions()
	m.mu.Lock()
	defer m.mu.Unlock()
	var drop []string
	for _, d := range m.defs {
		allowed := (!d.write || p.AllowWrite) && (!d.notes || p.ShareNotes)
		switch {
		case allowed && !m.offered[d.name]:
			d.add(m.srv)
			m.offered[d.name] = true
		case !allowed && m.offered[d.name]:
			drop = append(drop, d.name)
			delete(m.offered, d.name)
		}
	}
	if len(drop) > 0 {
		m.srv.RemoveTools(drop...)
	}
}

// toolSpec describes a tool for define.
type toolSpec struct {
	name, title, desc string
	write             bool // changes something (not read-only)
	destructive       bool // may change or remove what exists
	idempotent        bool
	notes             bool // needs ShareNotes
	input             *jsonschema.Schema
}

// define makes a toolDef whose handler runs fn with the client's name and
// turns its error into an error result ("[code] text").
func define[In, Out any](m *MCP, sp toolSpec, fn func(ctx context.Context, client string, in In) (Out, error)) toolDef {
	t := &mcp.Tool{Name: sp.name, Title: sp.title, Description: sp.desc, InputSchema: sp.input,
		Annotations: &mcp.ToolAnnotations{Title: sp.title, ReadOnlyHint: !sp.write, DestructiveHint: &sp.destructive,
			IdempotentHint: sp.idempotent || !sp.write, OpenWorldHint: new(bool)}}
	if sp.input == nil {
		t.InputSchema = nil
	}
	return toolDef{name: sp.name, write: sp.write, notes: sp.notes, add: func(s *mcp.Server) {
		mcp.AddTool(s, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
			out, err := fn(ctx, clientName(req), in)
			if err != nil {
				var zero Out
				return nil, zero, m.toolError(sp.name, err)
			}
			return nil, out, nil
		})
	}}
}

// clientName is the name the client gave in its initialize request.
func clientName(req *mcp.CallToolRequest) string {
	if req == nil || req.Session == nil {
		return ""
	}
	if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
		return p.ClientInfo.Name
	}
	return ""
}

// ToolError is a failed tool call as the client sees it: one short reason
// opened by its code, "[interop.badPath] …".
type ToolError struct {
	Code    apperr.Code
	Message string
}

func (e *ToolError) Error() string {
	if e.Code == "" {
		return e.Message
	}
	return "[" + string(e.Code) + "] " + e.Message
}

// toolError turns an operation's error into the tool result's text. An
// error without a code is an internal failure: logged, and sent as
// "[internal] …".
func (m *MCP) toolError(tool string, err error) error {
	in := apperr.InfoOf(err)
	if in.Code == "" {
		m.log.Warn("MCP tool failed", "tool", tool, "err", err)
		in.Code = "internal"
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			in.Code = "cancelled"
		}
	}
	return &ToolError{Code: in.Code, Message: in.Message}
}

// readResource serves playchat://kb/{domain}/{path}.
func (m *MCP) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	d, p, err := ParseResourceURI(uri)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	doc, err := m.svc.ReadDocument(ctx, ReadDocumentInput{Domain: d, Path: p, MaxChars: MaxReadChars})
	if err != nil {
		if c := apperr.CodeOf(err); c == apperr.InteropNoDocument || c == apperr.InteropBadPath || c == apperr.InteropBadDomain {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		return nil, m.toolError("resources/read", err)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: doc.Content}}}, nil
}

// learningSchema is append_learning's input schema with confidence bounded.
func learningSchema() *jsonschema.Schema {
	s, err := jsonschema.For[AppendLearningInput](nil)
	if err != nil {
		panic(err) // a static type: fails in every test run
	}
	if c := s.Properties["confidence"]; c != nil {
		zero, one := 0.0, 1.0
		c.Types, c.Type, c.Minimum, c.Maximum = nil, "number", &zero, &one
	}
	return s
}

func (m *MCP) toolDefs() []toolDef {
	s := m.svc
	return []toolDef{
		define(m, toolSpec{name: "list_kb_domains", title: "List knowledge-base folders",
			desc: "List the knowledge base's top-level folders (domains) and how many documents each holds."},
			func(ctx context.Context, _ string, _ struct{}) (DomainList, error) { return s.ListKBDomains(ctx) }),
		define(m, toolSpec{name: "query_kb", title: "Search the knowledge base",
			desc: "Search playchat's local knowledge base (Markdown documents; Japanese and English). Each hit's domain and path are what read_document takes."},
			func(ctx context.Context, _ string, in QueryKBInput) (QueryKBOutput, error) { return s.QueryKB(ctx, in) }),
		define(m, toolSpec{name: "read_document", title: "Read a knowledge-base document",
			desc: "Read one knowledge-base document by the domain and path a query_kb hit gives."},
			func(ctx context.Context, _ string, in ReadDocumentInput) (Document, error) {
				return s.ReadDocument(ctx, in)
			}),
		define(m, toolSpec{name: "search_chats", title: "Search chat history",
			desc: "Find messages of the user's playchat chats holding every word of the query, most recent first."},
			func(ctx context.Context, _ string, in SearchChatsInput) (ChatHits, error) {
				return s.SearchChats(ctx, in)
			}),
		define(m, toolSpec{name: "search_memory", title: "Search long-term memories",
			desc: "Search the long-term memories (summaries of older chat messages), optionally of one chat."},
			func(ctx context.Context, _ string, in SearchMemoryInput) (MemoryHits, error) {
				return s.SearchMemory(ctx, in)
			}),
		define(m, toolSpec{name: "list_knowledge", title: "List learned web knowledge",
			desc: "List what playchat learned from web searches (headings), newest first."},
			func(ctx context.Context, _ string, in ListKnowledgeInput) (KnowledgeList, error) {
				return s.ListKnowledge(ctx, in)
			}),
		define(m, toolSpec{name: "read_knowledge", title: "Read learned web knowledge",
			desc: "Read one learned-knowledge entry (key points, dates, sources) by its id from list_knowledge."},
			func(ctx context.Context, _ string, in ReadKnowledgeInput) (KnowledgeEntry, error) {
				return s.ReadKnowledge(ctx, in)
			}),
		define(m, toolSpec{name: "list_notes", title: "List notes", notes: true,
			desc: "List the user's shared note pages (id, title, section, a preview)."},
			func(ctx context.Context, _ string, _ struct{}) (NoteList, error) { return s.ListNotes(ctx) }),
		define(m, toolSpec{name: "read_note", title: "Read a note", notes: true,
			desc: "Read one note page in full, by page_id (preferred) or title."},
			func(ctx context.Context, _ string, in ReadNoteInput) (Note, error) { return s.ReadNote(ctx, in) }),
		define(m, toolSpec{name: "write_note", title: "Write a note", notes: true, write: true, destructive: true,
			desc: "Write to the user's notes: append to a page, replace its content, or create a new page. Only when the user asks for it."},
			func(ctx context.Context, _ string, in WriteNoteInput) (Note, error) { return s.WriteNote(ctx, in) }),
		define(m, toolSpec{name: "append_learning", title: "Store a learning", write: true, idempotent: true, input: learningSchema(),
			desc: "Store something learned as a new document of the knowledge base (_learned/<domain>/), with its provenance. " +
				"The same content again returns the first document; existing documents are never changed."},
			func(ctx context.Context, client string, in AppendLearningInput) (Learning, error) {
				return s.AppendLearning(ctx, client, in)
			}),
	}
}
