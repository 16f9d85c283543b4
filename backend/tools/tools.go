// Package tools is the registry of functions the model may call during a
// turn (DESIGN.md §6): each has a name, a JSON schema for its arguments, a
// UI label and a short detail for the activity list, and a handler.
package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"sync"

	openai "github.com/sashabaranov/go-openai"

	"playchat/backend/event"
)

// Tool is one function the model may call.
type Tool struct {
	// Name is the function name the model uses (e.g. "read_note").
	Name string
	// Description tells the model what the tool does and when to use it.
	Description string
	// Parameters is the JSON schema of the arguments object.
	Parameters json.RawMessage
	// Label is the activity list's English label (the UI translates known
	// tool names itself and falls back to this).
	Label string
	// Detail renders a short description of one call from its arguments
	// for the activity list (e.g. the page title); nil shows nothing.
	Detail func(args json.RawMessage) string
	// Run executes one call. An error is returned to the model as the tool
	// result (so it can recover) and shown in the activity list; it never
	// aborts the turn.
	Run func(ctx context.Context, call Call) (Result, error)
	// Enabled, when set, is asked before every request: a tool that is not
	// enabled (web_search with no provider set up, read_knowledge with no
	// entries) is left out of Definitions. nil means always offered.
	Enabled func() bool
	// Private marks a tool that reads or writes the owner's own data (the
	// shared notes): it is offered only to turns from the window or the
	// CLI, never to a turn with a Requester from outside (a Discord user),
	// and such a turn's call of it is refused like an unknown tool.
	Private bool
	// Server is the MCP server a user's tool comes from ("" for playchat's
	// own): the activity list shows it, and such a tool is Optional.
	Server string
	// RealName is the tool's own name on its server when Name had to be
	// made provider-safe (the UI shows it).
	RealName string
	// Optional tools may be left out of a request whose context they do
	// not fit (the context meter names them); playchat's own tools are
	// always sent.
	Optional bool
}

// Source offers tools that come and go (the user's MCP servers): asked
// before every request, after the registered tools. Names must not clash
// with registered tools (a clashing one is ignored).
type Source interface {
	Tools() []Tool
}

// Call is one invocation.
type Call struct {
	// ID is the tool call's id (unique in the turn), e.g. for naming the
	// activity items a tool reports.
	ID string
	// SessionID is the session of the turn.
	SessionID string
	// Model is the turn's model ("provider/model"), for tools that ask it
	// something (web_search summarises its results with it).
	Model string
	// Report, when set, shows an extra item in the turn's activity list
	// (e.g. save_knowledge after web_search): send it once with Status
	// "running" and again, with the same ID and every field, when it ends.
	Report func(event.ToolActivity)
	// Args is the arguments object as the model sent it (valid JSON; "{}"
	// when the model sent nothing).
	Args json.RawMessage
	// Requester is who asked for the turn when it came from outside the
	// window (a Discord mention); nil for the desktop window and the CLI.
	// Tools that keep per-person data (reminders) scope to it.
	Requester *Requester
}

// Requester is the person a turn answers when it did not come from the
// window: the Discord bot fills it from the message it replies to.
type Requester struct {
	// Origin is where the request came from: "discord".
	Origin string
	// ChannelID is the Discord channel the request was posted in.
	ChannelID string
	// UserID is the requester's Discord user id (a snowflake, as text).
	UserID string
	// UserName is the requester's Discord display name, for logs and lists.
	UserName string
}

// Result is what a tool returns.
type Result struct {
	// Content goes back to the model as the tool message.
	Content string
	// NotesUpdated asks the turn to emit notes_updated (the notes panel
	// refreshes).
	NotesUpdated bool
	// Sources are cited web pages; the turn emits them as a sources event.
	Sources []event.Source
	// Images a tool returned (an MCP server's image content): the turn
	// sends them to the model after the tool results, as image parts.
	Images []Image
	// IsError marks a result the tool itself reports as failed (MCP
	// isError): it goes to the model as it is and the activity shows an
	// error.
	IsError bool
}

// Image is an image a tool returned.
type Image struct {
	MIMEType string
	Data     []byte
}

var validName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// Registry holds the tools offered to the model. Safe for concurrent use.
type Registry struct {
	mu      sync.RWMutex
	tools   map[string]Tool
	sources []Source
}

// AddSource adds a source of dynamic tools.
func (r *Registry) AddSource(s Source) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sources = append(r.sources, s)
}

// sourceTools are the valid tools of the sources, registered names first
// to win.
func (r *Registry) sourceTools() []Tool {
	r.mu.RLock()
	srcs := append([]Source(nil), r.sources...)
	r.mu.RUnlock()
	var out []Tool
	seen := map[string]bool{}
	for _, src := range srcs {
		for _, t := range src.Tools() {
			if !validName.MatchString(t.Name) || t.Run == nil || seen[t.Name] {
				continue
			}
			r.mu.RLock()
			_, dup := r.tools[t.Name]
			r.mu.RUnlock()
			if dup {
				continue
			}
			seen[t.Name] = true
			out = append(out, t)
		}
	}
	return out
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{tools: map[string]Tool{}} }

// Register adds tools. A tool with an invalid name, no handler, a schema
// that is not a JSON object, or a name already registered is refused (and
// none of the given tools is added).
func (r *Registry) Register(ts ...Tool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := map[string]bool{}
	for _, t := range ts {
		if !validName.MatchString(t.Name) {
			return fmt.Errorf("tool name %q is not valid", t.Name)
		}
		if t.Run == nil {
			return fmt.Errorf("tool %s has no handler", t.Name)
		}
		var schema map[string]any
		if err := json.Unmarshal(t.Parameters, &schema); err != nil {
			return fmt.Errorf("tool %s: parameters are not a JSON object: %w", t.Name, err)
		}
		if _, dup := r.tools[t.Name]; dup || seen[t.Name] {
			return fmt.Errorf("tool %s is already registered", t.Name)
		}
		seen[t.Name] = true
	}
	for _, t := range ts {
		r.tools[t.Name] = t
	}
	return nil
}

// Get returns the tool named name.
func (r *Registry) Get(name string) (Tool, bool) {
	r.mu.RLock()
	t, ok := r.tools[name]
	r.mu.RUnlock()
	if ok {
		return t, true
	}
	for _, st := range r.sourceTools() {
		if st.Name == name {
			return st, true
		}
	}
	return Tool{}, false
}

// Len is the number of registered tools, plus one when a source is added
// (its tools come and go).
func (r *Registry) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	n := len(r.tools)
	if len(r.sources) > 0 {
		n++
	}
	return n
}

// Definitions returns the enabled tools as go-openai function definitions,
// sorted by name (a stable order keeps provider-side prompt caches warm).
func (r *Registry) Definitions() []openai.Tool { return r.definitions(true) }

// PublicDefinitions is Definitions without the Private tools: what a turn
// from outside the window (a Discord user) is offered.
func (r *Registry) PublicDefinitions() []openai.Tool { return r.definitions(false) }

func (r *Registry) definitions(private bool) []openai.Tool {
	ts := r.Offered(private)
	out := make([]openai.Tool, 0, len(ts))
	for _, t := range ts {
		out = append(out, Definition(t))
	}
	return out
}

// Definition is t as a go-openai function definition.
func Definition(t Tool) openai.Tool {
	return openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
		Name: t.Name, Description: t.Description, Parameters: t.Parameters,
	}}
}

// Offered returns the enabled tools, registered and from sources, sorted
// by name (a stable order keeps provider-side prompt caches warm);
// private false leaves out the Private ones.
func (r *Registry) Offered(private bool) []Tool {
	r.mu.RLock()
	all := make([]Tool, 0, len(r.tools))
	for _, t := range r.tools {
		all = append(all, t)
	}
	r.mu.RUnlock()
	all = append(all, r.sourceTools()...)
	out := all[:0]
	for _, t := range all {
		if t.Private && !private {
			continue
		}
		if t.Enabled == nil || t.Enabled() {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// DecodeArgs unmarshals a call's arguments into v, rejecting unknown fields,
// with an error message meant for the model.
func DecodeArgs(args json.RawMessage, v any) error {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("invalid arguments: %w", err)
	}
	return nil
}
