package mcpclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Refusal is an imported entry playchat could not take, and why.
type Refusal struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Parsed is what a pasted or imported JSON held.
type Parsed struct {
	// Format names the shape recognised: "mcpServers" (Claude Desktop,
	// Cursor, Claude Code's .mcp.json), "servers" (VS Code), "playchat"
	// (this app's own file) or "single" (one entry).
	Format string `json:"format"`
	// Servers are the entries understood, in name order.
	Servers []Server `json:"servers"`
	// Refused are the entries that were not, each with its reason.
	Refused []Refusal `json:"refused"`
}

// SelfCheck reports whether a server entry would start playchat's own MCP
// server (which cannot be added to itself); nil uses IsSelf.
type SelfCheck func(Server) bool

// Parse reads any of the supported formats. An error means the text is not
// one of them at all; entries that are wrong are in Refused.
func Parse(data []byte, self SelfCheck) (Parsed, error) {
	if self == nil {
		self = IsSelf
	}
	data = bytes.TrimPrefix(bytes.TrimSpace(data), []byte("\xef\xbb\xbf"))
	var top map[string]json.RawMessage
	if err := json.Unmarshal(stripJSONComments(data), &top); err != nil {
		return Parsed{}, fmt.Errorf("not a JSON object: %w", err)
	}
	var p Parsed
	var entries map[string]json.RawMessage
	switch {
	case top["mcpServers"] != nil:
		p.Format = "mcpServers"
		if err := json.Unmarshal(top["mcpServers"], &entries); err != nil {
			return Parsed{}, errors.New(`"mcpServers" is not an object of named servers`)
		}
	case top["servers"] != nil && isArray(top["servers"]):
		p.Format = "playchat"
		var c Config
		if err := json.Unmarshal(data, &c); err != nil {
			return Parsed{}, fmt.Errorf("playchat's server list is not valid: %w", err)
		}
		entries = map[string]json.RawMessage{}
		for i, s := range c.Servers {
			if _, dup := entries[s.Name]; dup || s.Name == "" {
				p.Refused = append(p.Refused, Refusal{Name: s.Name, Reason: fmt.Sprintf("entry %d has no name or a name used twice", i+1)})
				continue
			}
			if err := s.Validate(); err != nil {
				p.Refused = append(p.Refused, Refusal{Name: s.Name, Reason: err.Error()})
				continue
			}
			if self(s) {
				p.Refused = append(p.Refused, Refusal{Name: s.Name, Reason: selfReason})
				continue
			}
			p.Servers = append(p.Servers, s)
		}
		return p, nil
	case top["servers"] != nil:
		p.Format = "servers"
		if err := json.Unmarshal(top["servers"], &entries); err != nil {
			return Parsed{}, errors.New(`"servers" is not an object of named servers`)
		}
	case top["command"] != nil || top["url"] != nil:
		p.Format = "single"
		name := "server"
		if n, ok := top["name"]; ok {
			_ = json.Unmarshal(n, &name)
			delete(top, "name")
		}
		b, _ := json.Marshal(top)
		entries = map[string]json.RawMessage{name: b}
	default:
		return Parsed{}, errors.New(`no "mcpServers" or "servers" found (Claude Desktop, Cursor, Claude Code and VS Code files are understood)`)
	}
	names := make([]string, 0, len(entries))
	for n := range entries {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		s, err := parseEntry(n, entries[n])
		if err == nil {
			err = s.Validate()
		}
		if err == nil && self(s) {
			err = errors.New(selfReason)
		}
		if err != nil {
			p.Refused = append(p.Refused, Refusal{Name: n, Reason: err.Error()})
			continue
		}
		p.Servers = append(p.Servers, s)
	}
	return p, nil
}

const selfReason = "this is playchat's own MCP server; playchat cannot use itself as a tool server"

func isArray(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '['
}

// known are the entry keys playchat reads; the rest are kept in Extra.
var known = map[string]bool{"command": true, "args": true, "env": true, "cwd": true, "url": true,
	"headers": true, "type": true, "transport": true, "disabled": true, "timeout": true}

// unsupportedVar matches references playchat cannot resolve: VS Code's
// ${input:…} prompts and ${workspaceFolder}-style variables.
var unsupportedVar = regexp.MustCompile(`\$\{(input:[^}]*|workspaceFolder[^}]*|workspaceRoot|userHome|file[^}]*|cwd|command:[^}]*|config:[^}]*)\}`)

func parseEntry(name string, raw json.RawMessage) (Server, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return Server{}, errors.New("the entry is not a JSON object")
	}
	s := Server{Name: name}
	str := func(key string, dst *string) error {
		if v, ok := m[key]; ok && string(v) != "null" {
			if err := json.Unmarshal(v, dst); err != nil {
				return fmt.Errorf("%q must be a string", key)
			}
		}
		return nil
	}
	var typ string
	for _, k := range []struct {
		key string
		dst *string
	}{{"command", &s.Command}, {"cwd", &s.Cwd}, {"url", &s.URL}, {"type", &typ}} {
		if err := str(k.key, k.dst); err != nil {
			return Server{}, err
		}
	}
	if typ == "" {
		if err := str("transport", &typ); err != nil {
			return Server{}, err
		}
	}
	if v, ok := m["args"]; ok && string(v) != "null" {
		if err := json.Unmarshal(v, &s.Args); err != nil {
			return Server{}, errors.New(`"args" must be a list of strings`)
		}
	}
	if v, ok := m["env"]; ok && string(v) != "null" {
		if err := json.Unmarshal(v, &s.Env); err != nil {
			return Server{}, errors.New(`"env" must be an object of string values`)
		}
	}
	if v, ok := m["headers"]; ok && string(v) != "null" {
		if err := json.Unmarshal(v, &s.Headers); err != nil {
			return Server{}, errors.New(`"headers" must be an object of string values`)
		}
	}
	if v, ok := m["disabled"]; ok {
		if err := json.Unmarshal(v, &s.Disabled); err != nil {
			return Server{}, errors.New(`"disabled" must be true or false`)
		}
	}
	if v, ok := m["timeout"]; ok {
		// Claude Code and others give milliseconds.
		var ms float64
		if err := json.Unmarshal(v, &ms); err != nil || ms < 0 {
			return Server{}, errors.New(`"timeout" must be a number of milliseconds`)
		}
		s.TimeoutSeconds = int((ms + 999) / 1000)
	}
	switch strings.ToLower(typ) {
	case "":
		switch {
		case s.Command != "" && s.URL != "":
			return Server{}, errors.New(`the entry has both "command" and "url"`)
		case s.Command != "":
			s.Transport = TransportStdio
		case s.URL != "":
			// Cursor and Claude Desktop connectors: an URL ending in /sse
			// is the older transport.
			s.Transport = TransportHTTP
			if strings.HasSuffix(strings.TrimRight(s.URL, "/"), "/sse") {
				s.Transport = TransportSSE
			}
		default:
			return Server{}, errors.New(`the entry has neither "command" nor "url"`)
		}
	case "stdio":
		s.Transport = TransportStdio
	case "http", "streamable-http", "streamablehttp", "streamable_http":
		s.Transport = TransportHTTP
	case "sse":
		s.Transport = TransportSSE
	default:
		return Server{}, fmt.Errorf("type %q is not stdio, http or sse", typ)
	}
	for k, v := range m {
		if !known[k] {
			if s.Extra == nil {
				s.Extra = map[string]json.RawMessage{}
			}
			s.Extra[k] = v
		}
	}
	if _, ok := m["envFile"]; ok {
		return Server{}, errors.New(`"envFile" is not supported: put the variables in "env"`)
	}
	for _, v := range allValues(s) {
		if bad := unsupportedVar.FindString(v); bad != "" {
			return Server{}, fmt.Errorf("%s cannot be filled in by playchat: replace it with the value itself", bad)
		}
	}
	return s, nil
}

func allValues(s Server) []string {
	vs := append([]string{s.Command, s.Cwd, s.URL}, s.Args...)
	for _, v := range s.Env {
		vs = append(vs, v)
	}
	for _, v := range s.Headers {
		vs = append(vs, v)
	}
	return vs
}

// stripJSONComments removes // and /* */ comments and trailing commas
// outside strings (VS Code's mcp.json is JSON with comments).
func stripJSONComments(b []byte) []byte {
	var out bytes.Buffer
	inStr, esc := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inStr {
			out.WriteByte(c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch {
		case c == '"':
			inStr = true
			out.WriteByte(c)
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			out.WriteByte('\n')
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			i += 2
			for i+1 < len(b) && !(b[i] == '*' && b[i+1] == '/') {
				i++
			}
			i++
		case c == ',':
			j := i + 1
			for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\n' || b[j] == '\r') {
				j++
			}
			if j < len(b) && (b[j] == '}' || b[j] == ']') {
				continue
			}
			out.WriteByte(c)
		default:
			out.WriteByte(c)
		}
	}
	return out.Bytes()
}

// IsSelf reports whether s starts playchat's own MCP server: a command
// named playchat (or the running binary) with the argument "mcp".
func IsSelf(s Server) bool {
	if s.Transport != TransportStdio {
		return false
	}
	base := strings.ToLower(filepath.Base(s.Command))
	base = strings.TrimSuffix(base, ".exe")
	self := base == "playchat"
	if exe, err := os.Executable(); err == nil && !self {
		if a, err := filepath.EvalSymlinks(exe); err == nil {
			if b, err := filepath.EvalSymlinks(s.Command); err == nil && a == b {
				self = true
			}
		}
	}
	if !self {
		return false
	}
	for _, a := range s.Args {
		if a == "mcp" {
			return true
		}
	}
	return false
}

// ImportOptions control Import.
type ImportOptions struct {
	// SkipRefused imports the understood entries even when others were
	// refused (the default refuses the whole import, changing nothing).
	SkipRefused bool
}

// ImportResult says what an import changed.
type ImportResult struct {
	Added    []string  `json:"added"`
	Replaced []string  `json:"replaced"`
	Refused  []Refusal `json:"refused"`
}

// ErrRefusedEntries means an import held entries that were refused and
// SkipRefused was not set; nothing was written.
var ErrRefusedEntries = errors.New("some entries were refused")

// RefusedError lists the refused entries of an import.
type RefusedError struct{ Refused []Refusal }

func (e *RefusedError) Error() string {
	var parts []string
	for _, r := range e.Refused {
		parts = append(parts, fmt.Sprintf("%s: %s", r.Name, r.Reason))
	}
	return "nothing was imported; refused entries: " + strings.Join(parts, "; ")
}

func (e *RefusedError) Unwrap() error { return ErrRefusedEntries }

// Import parses data and stores its servers (a server of the same name is
// replaced, keeping its per-tool switches). The whole file is validated
// before anything is written.
func (st *Store) Import(data []byte, self SelfCheck, o ImportOptions) (ImportResult, error) {
	p, err := Parse(data, self)
	if err != nil {
		return ImportResult{}, err
	}
	res := ImportResult{Added: []string{}, Replaced: []string{}, Refused: p.Refused}
	if res.Refused == nil {
		res.Refused = []Refusal{}
	}
	if len(p.Refused) > 0 && !o.SkipRefused {
		return res, &RefusedError{Refused: p.Refused}
	}
	if len(p.Servers) == 0 {
		return res, errors.New("the file holds no server")
	}
	_, err = st.Update(func(c *Config) error {
		for _, s := range p.Servers {
			replaced := false
			for i, old := range c.Servers {
				if old.Name == s.Name {
					s.DisabledTools = old.DisabledTools
					s.AskFirst, s.AlwaysAllow, s.AllowDiscord = old.AskFirst || s.AskFirst, old.AlwaysAllow, old.AllowDiscord || s.AllowDiscord
					c.Servers[i] = s
					replaced = true
				}
			}
			if replaced {
				res.Replaced = append(res.Replaced, s.Name)
			} else {
				c.Servers = append(c.Servers, s)
				res.Added = append(res.Added, s.Name)
			}
		}
		return nil
	})
	return res, err
}
