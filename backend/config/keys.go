package config

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"unicode"
)

// Kinds of configuration values, as found in Key.Kind.
const (
	KindString = "string" // free text; secrets must hold no whitespace or control characters
	KindInt    = "int"    // a base-10 integer, with a per-key range
	KindFloat  = "float"  // a decimal number, with a per-key range
	KindBool   = "bool"   // true/false, 1/0, yes/no, on/off (any case)
	KindURL    = "url"    // an absolute http:// or https:// URL
	KindModel  = "model"  // a "provider/model" string (DESIGN.md §7), e.g. "openai/gpt-4o-mini"
)

// Groups of keys, as found in Key.Group, in display order.
const (
	GroupModel     = "model"
	GroupProviders = "providers"
	GroupMemory    = "memory"
	GroupKnowledge = "knowledge"
	GroupOther     = "other"
)

// Key describes one configuration key.
type Key struct {
	// Name is the key as written in .env and the environment, e.g. "OPENAI_API_KEY".
	Name string
	// Default is the value used when no layer sets the key ("" when there is none).
	Default string
	// Group is one of the Group* constants; the settings page groups keys by it.
	Group string
	// Secret marks API keys and tokens: show them through Mask, never log them.
	Secret bool
	// Kind is one of the Kind* constants: "string", "int", "float", "bool", "url", "model".
	Kind string
	// Doc is a one-line English description, including the unit and range.
	Doc string
	// Choices, when not empty, lists the only values accepted (lower case;
	// input is matched case-insensitively).
	Choices []string
	// Min and Max, when not nil, are the inclusive bounds of an int or
	// float value.
	Min, Max *float64
}

// spec is a Key plus its validation bounds.
type spec struct {
	Key
	min, max       float64 // inclusive bounds for int and float kinds
	hasMin, hasMax bool
}

func intAtLeast(k Key, min int) spec {
	return spec{Key: k, min: float64(min), hasMin: true}
}

// specs is the table of every known key, in display order.
var specs = []spec{
	// model
	{Key: Key{Name: "DEFAULT_MODEL", Group: GroupModel, Kind: KindModel,
		Doc: `Model for new sessions, as "provider/model" (e.g. "openai/gpt-4o-mini").`}},
	{Key: Key{Name: "SUMMARY_MODEL", Group: GroupModel, Kind: KindModel,
		Doc: `Model that summarises old messages into memories; empty uses the session's model.`}},
	{Key: Key{Name: "EMBEDDING_MODEL", Group: GroupModel, Kind: KindModel,
		Doc: `Embedding model for the local knowledge base, as "provider/model"; empty disables embeddings.`}},
	intAtLeast(Key{Name: "CONTEXT_WINDOW_TOKENS", Default: "0", Group: GroupModel, Kind: KindInt,
		Doc: `Context window in tokens (≥ 0); 0 takes it from the built-in model table.`}, 0),
	intAtLeast(Key{Name: "MAX_OUTPUT_TOKENS", Default: "1024", Group: GroupModel, Kind: KindInt,
		Doc: `Tokens reserved for the reply and sent as max_tokens (≥ 1).`}, 1),
	intAtLeast(Key{Name: "TOOL_MAX_ROUNDS", Default: "3", Group: GroupModel, Kind: KindInt,
		Doc: `Most tool-call rounds in one chat turn (≥ 1).`}, 1),

	// providers
	{Key: Key{Name: "OPENAI_API_KEY", Group: GroupProviders, Secret: true, Kind: KindString,
		Doc: `API key for openai/ models.`}},
	{Key: Key{Name: "OPENAI_BASE_URL", Group: GroupProviders, Kind: KindURL,
		Doc: `Base URL of an OpenAI-compatible API for openai/ models; empty uses api.openai.com.`}},
	{Key: Key{Name: "ANTHROPIC_API_KEY", Group: GroupProviders, Secret: true, Kind: KindString,
		Doc: `API key for anthropic/ models.`}},
	{Key: Key{Name: "ANTHROPIC_BASE_URL", Group: GroupProviders, Kind: KindURL,
		Doc: `Base URL of Anthropic's OpenAI-compatible API; empty uses Anthropic's own.`}},
	{Key: Key{Name: "OLLAMA_API_BASE", Default: "http://localhost:11434", Group: GroupProviders, Kind: KindURL,
		Doc: `Base URL of the Ollama server for ollama/ models.`}},
	{Key: Key{Name: "LM_STUDIO_API_BASE", Default: "http://localhost:1234/v1", Group: GroupProviders, Kind: KindURL,
		Doc: `Base URL of the LM Studio server for lm_studio/ models.`}},
	{Key: Key{Name: "OPENROUTER_API_KEY", Group: GroupProviders, Secret: true, Kind: KindString,
		Doc: `API key for openrouter/ models.`}},

	// memory
	intAtLeast(Key{Name: "MEMORY_SUMMARIZE_THRESHOLD", Default: "20", Group: GroupMemory, Kind: KindInt,
		Doc: `Active messages in a session that trigger summarising the older half (≥ 4).`}, 4),
	intAtLeast(Key{Name: "SESSION_NOTES_CONTENT_LIMIT", Default: "8000", Group: GroupMemory, Kind: KindInt,
		Doc: `Characters of each pinned note page included in the context (≥ 1).`}, 1),

	// knowledge
	intAtLeast(Key{Name: "KNOWLEDGE_CONTEXT_LIMIT", Default: "15", Group: GroupKnowledge, Kind: KindInt,
		Doc: `Headings of recent learned-knowledge entries included in the context (≥ 0; 0 disables).`}, 0),
	intAtLeast(Key{Name: "LOCAL_KB_TOP_K", Default: "3", Group: GroupKnowledge, Kind: KindInt,
		Doc: `Local knowledge-base documents included in the context (≥ 0; 0 disables).`}, 0),
	{Key: Key{Name: "LOCAL_KB_MIN_SCORE", Default: "0.75", Group: GroupKnowledge, Kind: KindFloat,
		Doc: `Lowest cosine similarity (0–1) for a local knowledge-base document to be included.`},
		min: 0, max: 1, hasMin: true, hasMax: true},
	{Key: Key{Name: "KNOWLEDGE_BASE_DIR", Group: GroupKnowledge, Kind: KindString,
		Doc: `Folder of the local Markdown knowledge base; empty uses <data dir>/knowledge_base, relative paths are under the data dir.`}},
	{Key: Key{Name: "TAVILY_API_KEY", Group: GroupKnowledge, Secret: true, Kind: KindString,
		Doc: `API key for Tavily web search (the web_search tool).`}},

	// other
	{Key: Key{Name: "DISCORD_BOT_TOKEN", Group: GroupOther, Secret: true, Kind: KindString,
		Doc: `Token of the Discord bot; empty leaves the bot off.`}},
	{Key: Key{Name: "DEBUG", Default: "false", Group: GroupOther, Kind: KindBool,
		Doc: `Verbose diagnostics (e.g. full LLM request tracing, secrets redacted).`}},
	{Key: Key{Name: "LOG_LEVEL", Default: "info", Group: GroupOther, Kind: KindString,
		Choices: []string{"debug", "info", "warn", "error"},
		Doc:     `Lowest level written to the log file: debug, info, warn or error.`}},
}

// specByName indexes specs by key name.
var specByName = func() map[string]*spec {
	m := make(map[string]*spec, len(specs))
	for i := range specs {
		m[specs[i].Name] = &specs[i]
	}
	return m
}()

// Keys lists every known key, in display order (grouped by Group, groups in
// the order of the Group* constants). The result is a fresh copy.
func Keys() []Key {
	out := make([]Key, len(specs))
	for i, s := range specs {
		k := s.Key
		k.Choices = append([]string(nil), s.Choices...)
		if s.hasMin {
			v := s.min
			k.Min = &v
		}
		if s.hasMax {
			v := s.max
			k.Max = &v
		}
		out[i] = k
	}
	return out
}

// ErrUnknownKey is returned (wrapped) by ValidateValue for a key that Keys
// does not list.
var ErrUnknownKey = errors.New("unknown configuration key")

// ValueError reports an invalid value for a key. Its message names the key,
// the layer the value came from and, unless the key is secret, the value.
type ValueError struct {
	Key    string // the key name, e.g. "MAX_OUTPUT_TOKENS"
	Value  string // the rejected value (kept for callers; Error omits it for secrets)
	Source string // the layer it came from ("dotenv", "env", "gui"), or "" from ValidateValue
	Secret bool   // the key is secret: Error never prints Value
	Reason string // what is wrong, e.g. "must be an integer ≥ 1"
}

// Error renders e without the value when the key is secret.
func (e *ValueError) Error() string {
	var b strings.Builder
	b.WriteString("config: invalid ")
	b.WriteString(e.Key)
	if e.Secret {
		b.WriteString(" (value hidden)")
	} else {
		fmt.Fprintf(&b, " %q", e.Value)
	}
	if e.Source != "" {
		fmt.Fprintf(&b, " from %s", sourceLabel(e.Source))
	}
	b.WriteString(": ")
	b.WriteString(e.Reason)
	return b.String()
}

func sourceLabel(source string) string {
	switch source {
	case SourceDotEnv:
		return ".env"
	case SourceEnv:
		return "the environment"
	case SourceGUI:
		return "the settings"
	}
	return source
}

// ValidateValue checks a proposed value for key without applying it, with the
// same rules Resolve applies. An empty value is valid for every key: it unsets
// the key in its layer, so a lower layer or the default applies. An unknown
// key gives an error wrapping ErrUnknownKey; an invalid value a *ValueError
// (which never contains a secret value).
func ValidateValue(key, value string) error {
	s, ok := specByName[key]
	if !ok {
		return fmt.Errorf("config: %w: %q", ErrUnknownKey, key)
	}
	if _, err := s.check(strings.TrimSpace(value)); err != nil {
		err.Key = key
		return err
	}
	return nil
}

// check validates a trimmed, non-empty v against s and returns it normalised
// (lower case for choices, the canonical form of bools). An empty v is valid.
// The returned error lacks Source.
func (s *spec) check(v string) (string, *ValueError) {
	if v == "" {
		return v, nil
	}
	bad := func(reason string) (string, *ValueError) {
		return "", &ValueError{Key: s.Name, Value: v, Secret: s.Secret, Reason: reason}
	}
	switch s.Kind {
	case KindInt:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < math.MinInt32 || n > math.MaxInt32 {
			return bad(s.rangeText("an integer"))
		}
		if !s.inRange(float64(n)) {
			return bad(s.rangeText("an integer"))
		}
	case KindFloat:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || !s.inRange(f) {
			return bad(s.rangeText("a number"))
		}
	case KindBool:
		b, ok := parseBool(v)
		if !ok {
			return bad("must be true or false")
		}
		return strconv.FormatBool(b), nil
	case KindURL:
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return bad("must be an absolute http:// or https:// URL")
		}
	case KindModel:
		if strings.IndexFunc(v, unicode.IsSpace) >= 0 || strings.HasPrefix(v, "/") ||
			strings.HasSuffix(v, "/") || strings.Contains(v, "//") {
			return bad(`must be a model name like "openai/gpt-4o-mini"`)
		}
	case KindString:
		if s.Secret && strings.IndexFunc(v, func(r rune) bool {
			return unicode.IsSpace(r) || unicode.IsControl(r)
		}) >= 0 {
			return bad("must not contain spaces or control characters")
		}
		if strings.IndexFunc(v, unicode.IsControl) >= 0 {
			return bad("must not contain control characters")
		}
	}
	if len(s.Choices) > 0 {
		lv := strings.ToLower(v)
		for _, c := range s.Choices {
			if lv == c {
				return lv, nil
			}
		}
		return bad("must be one of " + strings.Join(s.Choices, ", "))
	}
	return v, nil
}

func (s *spec) inRange(f float64) bool {
	return (!s.hasMin || f >= s.min) && (!s.hasMax || f <= s.max)
}

func (s *spec) rangeText(what string) string {
	fmtNum := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	switch {
	case s.hasMin && s.hasMax:
		return fmt.Sprintf("must be %s from %s to %s", what, fmtNum(s.min), fmtNum(s.max))
	case s.hasMin:
		return fmt.Sprintf("must be %s ≥ %s", what, fmtNum(s.min))
	case s.hasMax:
		return fmt.Sprintf("must be %s ≤ %s", what, fmtNum(s.max))
	}
	return "must be " + what
}

func parseBool(v string) (bool, bool) {
	switch strings.ToLower(v) {
	case "1", "t", "true", "yes", "y", "on":
		return true, true
	case "0", "f", "false", "no", "n", "off":
		return false, true
	}
	return false, false
}
