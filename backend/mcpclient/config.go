// Package mcpclient runs the user's own MCP servers (DESIGN.md §10) and
// offers their tools to chat turns: the configuration (stored in the data
// dir, imported from the JSON other apps use), processes playchat owns
// (started with the login shell's environment, killed with their whole
// process tree), per-call timeouts, capped results, provider-safe tool names
// and the safety gates (ask first, destructive tools, Discord).
package mcpclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"playchat/backend/atomicfile"
)

// Transports a server may use.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http" // streamable HTTP
	TransportSSE   = "sse"  // the older HTTP+SSE transport
)

// DefaultTimeout bounds one tool call when a server sets none.
const DefaultTimeout = 60 * time.Second

// FileName is the configuration file in the data dir.
const FileName = "mcp_servers.json"

// Server is one configured MCP server.
type Server struct {
	// Name identifies the server (unique, as the imported file named it).
	Name string `json:"name"`
	// Transport is TransportStdio, TransportHTTP or TransportSSE.
	Transport string `json:"transport"`
	// Command, Args, Env and Cwd start a stdio server. Values may hold
	// ${VAR}, ${env:VAR} and ${VAR:-default}, expanded with the login
	// shell's environment when the server starts.
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	// URL and Headers reach an HTTP server.
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Disabled servers are not started.
	Disabled bool `json:"disabled,omitempty"`
	// AskFirst makes every tool of the server wait for the user's click.
	AskFirst bool `json:"askFirst,omitempty"`
	// AlwaysAllow is "allow always for this server": no approval is asked,
	// destructive tools included.
	AlwaysAllow bool `json:"alwaysAllow,omitempty"`
	// AllowDiscord offers the server's tools to Discord turns (never by
	// default: the tools act with the owner's rights).
	AllowDiscord bool `json:"allowDiscord,omitempty"`
	// TimeoutSeconds bounds one call (0 = DefaultTimeout); progress
	// notifications restart the clock.
	TimeoutSeconds int `json:"timeoutSeconds,omitempty"`
	// DisabledTools are the real names of tools switched off.
	DisabledTools []string `json:"disabledTools,omitempty"`
	// Extra holds the imported entry's keys playchat does not use, kept
	// as they were.
	Extra map[string]json.RawMessage `json:"extra,omitempty"`
}

// Timeout is the per-call timeout.
func (s Server) Timeout() time.Duration {
	if s.TimeoutSeconds > 0 {
		return time.Duration(s.TimeoutSeconds) * time.Second
	}
	return DefaultTimeout
}

// ToolEnabled reports whether the tool (by its real name) is switched on.
func (s Server) ToolEnabled(tool string) bool { return !slices.Contains(s.DisabledTools, tool) }

func (s Server) clone() Server {
	c := s
	c.Args = slices.Clone(s.Args)
	c.Env = cloneMap(s.Env)
	c.Headers = cloneMap(s.Headers)
	c.DisabledTools = slices.Clone(s.DisabledTools)
	if s.Extra != nil {
		c.Extra = make(map[string]json.RawMessage, len(s.Extra))
		for k, v := range s.Extra {
			c.Extra[k] = slices.Clone(v)
		}
	}
	return c
}

func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Validate checks one server entry; the error says what is wrong in plain
// words.
func (s Server) Validate() error {
	if strings.TrimSpace(s.Name) == "" {
		return errors.New("the server has no name")
	}
	if len([]rune(s.Name)) > 100 || strings.ContainsAny(s.Name, "\x00\r\n") {
		return errors.New("the server name is too long or has control characters")
	}
	switch s.Transport {
	case TransportStdio:
		if strings.TrimSpace(s.Command) == "" {
			return errors.New("a stdio server needs a command")
		}
		if s.URL != "" {
			return errors.New("a stdio server cannot also have a url")
		}
		for k := range s.Env {
			if !envName.MatchString(k) {
				return fmt.Errorf("env name %q is not a valid variable name", k)
			}
		}
	case TransportHTTP, TransportSSE:
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("url %q is not an http(s) address", s.URL)
		}
		if s.Command != "" {
			return errors.New("an http server cannot also have a command")
		}
		for k := range s.Headers {
			if k == "" || strings.ContainsAny(k, " :\r\n") {
				return fmt.Errorf("header name %q is not valid", k)
			}
		}
	case "":
		return errors.New("the server has neither a command nor a url")
	default:
		return fmt.Errorf("transport %q is not one of stdio, http, sse", s.Transport)
	}
	if s.TimeoutSeconds < 0 || s.TimeoutSeconds > 3600 {
		return errors.New("timeoutSeconds must be between 0 and 3600")
	}
	return nil
}

// Config is the whole configuration file.
type Config struct {
	Servers []Server `json:"servers"`
}

// Find returns the server named name.
func (c Config) Find(name string) (Server, bool) {
	for _, s := range c.Servers {
		if s.Name == name {
			return s, true
		}
	}
	return Server{}, false
}

// Store reads and writes the configuration file (0600, atomically). Safe
// for concurrent use within a process; the CLI and the window share the
// file (the window re-reads it on Reload).
type Store struct {
	path string
	mu   sync.Mutex
}

// NewStore returns the store of the data dir.
func NewStore(dataDir string) *Store { return &Store{path: filepath.Join(dataDir, FileName)} }

// Path is the file's path.
func (st *Store) Path() string { return st.path }

// Load reads the configuration; a missing file is an empty one.
func (st *Store) Load() (Config, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.load()
}

func (st *Store) load() (Config, error) {
	b, err := os.ReadFile(st.path)
	if errors.Is(err, os.ErrNotExist) {
		return Config{}, nil
	}
	if err != nil {
		return Config{}, err
	}
	var c Config
	if err := json.Unmarshal(b, &c); err != nil {
		return Config{}, fmt.Errorf("%s is not valid JSON: %w", st.path, err)
	}
	return c, nil
}

// Update applies fn to the configuration and saves the result if fn
// returns nil and every server is valid and uniquely named.
func (st *Store) Update(fn func(*Config) error) (Config, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	c, err := st.load()
	if err != nil {
		return Config{}, err
	}
	if err := fn(&c); err != nil {
		return Config{}, err
	}
	seen := map[string]bool{}
	for _, s := range c.Servers {
		if err := s.Validate(); err != nil {
			return Config{}, fmt.Errorf("%s: %w", s.Name, err)
		}
		if seen[s.Name] {
			return Config{}, fmt.Errorf("two servers are named %q", s.Name)
		}
		seen[s.Name] = true
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return Config{}, err
	}
	if err := os.MkdirAll(filepath.Dir(st.path), 0o700); err != nil {
		return Config{}, err
	}
	if err := atomicfile.Write(st.path, append(b, '\n'), 0o600); err != nil {
		return Config{}, err
	}
	return c, nil
}

// Mask is what a secret looks like in a view.
const Mask = "••••••"

var secretKey = regexp.MustCompile(`(?i)(key|token|secret|password|passwd|auth|credential|cookie|pat)`)

// IsSecret reports whether an env or header value under name is shown masked:
// names that say key/token/secret/…, and values that look like bearer
// tokens. Masking is for the view only; the stored value is kept.
func IsSecret(name, value string) bool {
	if secretKey.MatchString(name) {
		return true
	}
	v := strings.ToLower(strings.TrimSpace(value))
	return strings.HasPrefix(v, "bearer ") || strings.HasPrefix(v, "basic ") ||
		strings.HasPrefix(v, "ghp_") || strings.HasPrefix(v, "github_pat_") || strings.HasPrefix(v, "sk-")
}

// MaskedMap returns m with secret values replaced by Mask (a value that only
// references a variable, "${env:X}", is shown as it is: it holds no secret).
func MaskedMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if IsSecret(k, v) && !isPureReference(v) && v != "" {
			out[k] = Mask
		} else {
			out[k] = v
		}
	}
	return out
}

var pureRef = regexp.MustCompile(`^\$\{(env:)?[A-Za-z_][A-Za-z0-9_]*\}$`)

func isPureReference(v string) bool { return pureRef.MatchString(strings.TrimSpace(v)) }

// KeepMasked replaces every value in next that is still Mask with the value
// prev holds under the same key (a form sent back from the view keeps the
// secrets it never saw).
func KeepMasked(next, prev map[string]string) map[string]string {
	for k, v := range next {
		if v == Mask {
			if old, ok := prev[k]; ok {
				next[k] = old
			} else {
				delete(next, k)
			}
		}
	}
	return next
}
