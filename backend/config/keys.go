package config

import (
	"errors"
	"fmt"
	"math"
	"net"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"playchat/backend/apperr"
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

// Groups of keys, as found in Key.Group, in display order: by what a person
// wants to do, the keys a first run needs (a model and its provider's key or
// server) first.
const (
	GroupModels    = "models"    // the default model, API keys and provider URLs
	GroupMemory    = "memory"    // summaries of old messages and pinned notes
	GroupKnowledge = "knowledge" // the local knowledge base and learned knowledge in the context
	GroupWebSearch = "websearch" // the web_search provider, its keys and addresses, reuse of results
	GroupDiscord   = "discord"   // the optional Discord bot, its scheduled posts and the JMA forecast
	GroupInterop   = "interop"   // other tools using playchat: the MCP server and the OpenAI-compatible API
	GroupBackup    = "backup"    // automatic backups to a folder and to WebDAV (issue 27)
	GroupAdvanced  = "advanced"  // token budgets, tools, the UI language, diagnostics
)

// Groups lists the Group* constants in display order. The result is a fresh copy.
func Groups() []string {
	return []string{GroupModels, GroupMemory, GroupKnowledge, GroupWebSearch, GroupDiscord, GroupInterop, GroupBackup, GroupAdvanced}
}

// Key describes one configuration key.
type Key struct {
	// Name is the key as written in .env and the environment, e.g. "OPENAI_API_KEY".
	Name string
	// Default is the value used when no layer sets the key ("" when there is none).
	Default string
	// Label is a short plain-English name of the setting for the settings
	// page, e.g. "Default model" (the window translates it; Name stays visible
	// as secondary text for people who use .env).
	Label string
	// Group is one of the Group* constants; the settings page groups keys by it.
	Group string
	// Secret marks API keys and tokens: show them through Mask, never log them.
	Secret bool
	// Kind is one of the Kind* constants: "string", "int", "float", "bool", "url", "model",
	// "modelimages".
	Kind string
	// Doc is a one-line English description, including the unit and range.
	Doc string
	// Choices, when not empty, lists the only values accepted (lower case;
	// input is matched case-insensitively).
	Choices []string
	// Min and Max, when not nil, are the inclusive bounds of an int or
	// float value.
	Min, Max *float64
	// Required marks a key that may be replaced but never cleared
	// (API_SERVER_TOKEN, MCP_HTTP_TOKEN): ValidateValue refuses an empty value for it. It
	// has no default; until a value is set the key is "".
	Required bool
}

// spec is a Key plus its validation bounds.
type spec struct {
	Key
	min, max       float64 // inclusive bounds for int and float kinds
	hasMin, hasMax bool
	// digitsMin and digitsMax, when digitsMax > 0, limit a string to that
	// many ASCII digits (Discord IDs, JMA office codes).
	digitsMin, digitsMax int
	// minLen, when > 0, is the fewest characters (runes) a value may have.
	minLen int
	// ip limits a string to an IP address (API_SERVER_LISTEN).
	ip bool
}

func intAtLeast(k Key, min int) spec {
	return spec{Key: k, min: float64(min), hasMin: true}
}

// specs is the table of every known key, in display order.
var specs = []spec{
	// models and keys: what a first run needs
	{Key: Key{Name: "DEFAULT_MODEL", Label: "Default model", Group: GroupModels, Kind: KindModel,
		Doc: `Model for new sessions, as "provider/model" (e.g. "openai/gpt-4o-mini").`}},
	{Key: Key{Name: "OPENAI_API_KEY", Label: "OpenAI API key", Group: GroupModels, Secret: true, Kind: KindString,
		Doc: `API key for openai/ models.`}},
	{Key: Key{Name: "ANTHROPIC_API_KEY", Label: "Anthropic API key", Group: GroupModels, Secret: true, Kind: KindString,
		Doc: `API key for anthropic/ models.`}},
	{Key: Key{Name: "OPENROUTER_API_KEY", Label: "OpenRouter API key", Group: GroupModels, Secret: true, Kind: KindString,
		Doc: `API key for openrouter/ models.`}},
	{Key: Key{Name: "OLLAMA_API_BASE", Label: "Ollama server address", Default: "http://localhost:11434", Group: GroupModels, Kind: KindURL,
		Doc: `Base URL of the Ollama server for ollama/ models.`}},
	{Key: Key{Name: "LM_STUDIO_API_BASE", Label: "LM Studio server address", Default: "http://localhost:1234/v1", Group: GroupModels, Kind: KindURL,
		Doc: `Base URL of the LM Studio server for lm_studio/ models.`}},
	{Key: Key{Name: "OPENAI_BASE_URL", Label: "OpenAI-compatible API address", Group: GroupModels, Kind: KindURL,
		Doc: `Base URL of an OpenAI-compatible API for openai/ models; empty uses api.openai.com.`}},
	{Key: Key{Name: "ANTHROPIC_BASE_URL", Label: "Anthropic API address", Group: GroupModels, Kind: KindURL,
		Doc: `Base URL of Anthropic's OpenAI-compatible API; empty uses Anthropic's own.`}},
	{Key: Key{Name: "MODEL_IMAGES", Label: "Models that take images", Group: GroupModels, Kind: KindModelImages,
		Doc: `Which models take images, overriding the built-in table, as "provider/model=yes" or "provider/model=no" entries separated by commas (at most 200); a model not named follows the table.`}},

	// memory
	{Key: Key{Name: "SUMMARY_MODEL", Label: "Model for summaries", Group: GroupMemory, Kind: KindModel,
		Doc: `Model that summarises old messages into memories; empty uses the session's model.`}},
	intAtLeast(Key{Name: "MEMORY_SUMMARIZE_THRESHOLD", Label: "Summarise after this many messages", Default: "20", Group: GroupMemory, Kind: KindInt,
		Doc: `Active messages in a session that trigger summarising the older half (≥ 4).`}, 4),
	intAtLeast(Key{Name: "SESSION_NOTES_CONTENT_LIMIT", Label: "Characters of each pinned note", Default: "8000", Group: GroupMemory, Kind: KindInt,
		Doc: `Characters of each pinned note page included in the context (≥ 1).`}, 1),
	{Key: Key{Name: "AUTO_TAGS", Label: "Tag messages automatically", Default: "true", Group: GroupMemory, Kind: KindBool,
		Doc: `After each reply, give every new message and memory three short tags (shown under the message, searchable as #tag, used by the Discord tips); costs one small model request per message, with the summary model.`}},
	{Key: Key{Name: "MEMORY_MIRROR_LEARNED", Label: "Mirror memories into the knowledge base", Default: "false", Group: GroupMemory, Kind: KindBool,
		Doc: `Also write each new long-term memory as a learned document in the knowledge base (_learned/memory/, with the summarised messages in its provenance), so other tools and every chat can find it; a failed write never fails the summary.`}},

	// knowledge base
	{Key: Key{Name: "KNOWLEDGE_BASE_DIR", Label: "Knowledge base folder", Group: GroupKnowledge, Kind: KindString,
		Doc: `Folder of the local Markdown knowledge base; empty uses <data dir>/knowledge_base, relative paths are under the data dir.`}},
	{Key: Key{Name: "EMBEDDING_MODEL", Label: "Embedding model", Group: GroupKnowledge, Kind: KindModel,
		Doc: `Embedding model for the local knowledge base, as "provider/model"; empty disables embeddings.`}},
	intAtLeast(Key{Name: "LOCAL_KB_TOP_K", Label: "Documents per reply", Default: "3", Group: GroupKnowledge, Kind: KindInt,
		Doc: `Local knowledge-base documents included in the context (≥ 0; 0 disables).`}, 0),
	{Key: Key{Name: "LOCAL_KB_MIN_SCORE", Label: "Minimum embedding similarity", Default: "0.75", Group: GroupKnowledge, Kind: KindFloat,
		Doc: `With an embedding model: the lowest cosine similarity (0–1) of a document's best section for the document to be included on meaning alone. A document whose text holds enough of the question's words is included either way.`},
		min: 0, max: 1, hasMin: true, hasMax: true},
	intAtLeast(Key{Name: "KNOWLEDGE_CONTEXT_LIMIT", Label: "Learned knowledge headings", Default: "15", Group: GroupKnowledge, Kind: KindInt,
		Doc: `Headings of recent learned-knowledge entries included in the context (≥ 0; 0 disables).`}, 0),

	// web search (issue 11, backend/websearch)
	{Key: Key{Name: "WEB_SEARCH_PROVIDER", Label: "Web search provider", Default: "auto", Group: GroupWebSearch, Kind: KindString,
		Choices: []string{"auto", "tavily", "brave", "searxng", "off"},
		Doc:     `Provider of the web_search tool: auto (the first of Tavily, Brave, SearXNG that has its key or URL), tavily, brave, searxng or off.`}},
	{Key: Key{Name: "TAVILY_API_KEY", Label: "Tavily web search API key", Group: GroupWebSearch, Secret: true, Kind: KindString,
		Doc: `API key for Tavily web search (tvly-…, from app.tavily.com).`}},
	{Key: Key{Name: "TAVILY_BASE_URL", Label: "Tavily API address", Group: GroupWebSearch, Kind: KindURL,
		Doc: `Base URL of the Tavily API (a proxy); empty uses https://api.tavily.com.`}},
	{Key: Key{Name: "BRAVE_API_KEY", Label: "Brave Search API key", Group: GroupWebSearch, Secret: true, Kind: KindString,
		Doc: `API key (subscription token) for Brave Search, from api-dashboard.search.brave.com.`}},
	{Key: Key{Name: "BRAVE_BASE_URL", Label: "Brave Search API address", Group: GroupWebSearch, Kind: KindURL,
		Doc: `Base URL of the Brave Search API (a proxy); empty uses https://api.search.brave.com.`}},
	{Key: Key{Name: "SEARXNG_URL", Label: "SearXNG address", Group: GroupWebSearch, Kind: KindURL,
		Doc: `Address of a SearXNG instance whose settings allow the json format, e.g. http://localhost:8080.`}},
	{Key: Key{Name: "KNOWLEDGE_REUSE_DAYS", Label: "Reuse a search for days", Default: "7", Group: GroupWebSearch, Kind: KindInt,
		Doc: `Days a search's saved knowledge is reused for the same query instead of searching again (0–365; 0 never reuses).`},
		min: 0, max: 365, hasMin: true, hasMax: true},

	// Discord (issue 13): the optional bot, its scheduled posts, the forecast
	{Key: Key{Name: "DISCORD_ENABLED", Label: "Connect the Discord bot", Default: "false", Group: GroupDiscord, Kind: KindBool,
		Doc: `Run the Discord bot in the background of the window while a bot token is set.`}},
	{Key: Key{Name: "DISCORD_BOT_TOKEN", Label: "Discord bot token", Group: GroupDiscord, Secret: true, Kind: KindString,
		Doc: `Token of the Discord bot (Developer Portal → Bot → Reset Token); empty leaves the bot off.`}},
	{Key: Key{Name: "DISCORD_WEBHOOK_URL", Label: "Webhook for scheduled posts", Group: GroupDiscord, Secret: true, Kind: KindURL,
		Doc: `Discord webhook URL the weather and tips posts go to; empty posts them to the notify channel through the bot.`}},
	{Key: Key{Name: "DISCORD_NOTIFY_CHANNEL_ID", Label: "Notify channel ID", Group: GroupDiscord, Kind: KindString,
		Doc: `ID of the channel for scheduled posts when no webhook is set (Discord developer mode → Copy Channel ID).`}, digitsMin: 15, digitsMax: 21},
	{Key: Key{Name: "WEATHER_NOTIFY_HOUR", Label: "Weather post: hour", Default: "7", Group: GroupDiscord, Kind: KindInt,
		Doc: `Local hour (0–23) of the daily weather-and-laundry post.`}, min: 0, max: 23, hasMin: true, hasMax: true},
	{Key: Key{Name: "WEATHER_NOTIFY_MINUTE", Label: "Weather post: minute", Default: "0", Group: GroupDiscord, Kind: KindInt,
		Doc: `Minute (0–59) of the daily weather-and-laundry post.`}, min: 0, max: 59, hasMin: true, hasMax: true},
	{Key: Key{Name: "USELESS_TIPS_INTERVAL_HOURS", Label: "Useless tips: every N hours", Default: "0", Group: GroupDiscord, Kind: KindInt,
		Doc: `Hours between "useless tips" posts (0–168); 0 posts none. None is posted during the 03:00 hour.`}, min: 0, max: 168, hasMin: true, hasMax: true},
	{Key: Key{Name: "REMINDER_MODEL", Label: "Model for Discord reminders", Group: GroupDiscord, Kind: KindModel,
		Doc: `Model that reads reminder requests on Discord (needs tool calling); empty uses WEATHER_NOTIFY_MODEL, then DEFAULT_MODEL.`}},
	{Key: Key{Name: "WEATHER_NOTIFY_MODEL", Label: "Model for Discord posts", Group: GroupDiscord, Kind: KindModel,
		Doc: `Model that writes the weather post, tips and Discord replies; empty uses DEFAULT_MODEL.`}},
	{Key: Key{Name: "WEATHER_OFFICE_CODE", Label: "Forecast office code", Default: "130000", Group: GroupDiscord, Kind: KindString,
		Doc: `JMA forecast office (6 digits, e.g. 130000 Tokyo, 270000 Osaka); see https://www.jma.go.jp/bosai/common/const/area.json.`}, digitsMin: 6, digitsMax: 6},
	{Key: Key{Name: "WEATHER_AREA", Label: "Forecast area", Group: GroupDiscord, Kind: KindString,
		Doc: `Area within the office, by name or code (e.g. 東京地方 or 130010); empty uses the office's first area.`}},

	// other tools (issue 23, backend/interop): the MCP server's permissions and its HTTP door
	{Key: Key{Name: "INTEROP_ALLOW_WRITE", Label: "Allow other tools to write", Default: "false", Group: GroupInterop, Kind: KindBool,
		Doc: `Offer the writing tools (write_note, append_learning) to other tools through the MCP server; off, they can only read.`}},
	{Key: Key{Name: "INTEROP_SHARE_NOTES", Label: "Share my notes with other tools", Default: "false", Group: GroupInterop, Kind: KindBool,
		Doc: `Offer the notes tools (list_notes, read_note, and write_note when writing is allowed) to other tools through the MCP server.`}},
	{Key: Key{Name: "MCP_HTTP_ENABLED", Label: "Run the MCP server over HTTP", Default: "false", Group: GroupInterop, Kind: KindBool,
		Doc: `While the window is open, serve the MCP server on 127.0.0.1:MCP_HTTP_PORT/mcp (streamable HTTP), with MCP_HTTP_TOKEN required.`}},
	{Key: Key{Name: "MCP_HTTP_PORT", Label: "MCP server port", Default: "8765", Group: GroupInterop, Kind: KindInt,
		Doc: `TCP port of the MCP server over HTTP on 127.0.0.1 (1024–65535).`}, min: 1024, max: 65535, hasMin: true, hasMax: true},
	{Key: Key{Name: "MCP_HTTP_TOKEN", Label: "MCP server token", Group: GroupInterop, Secret: true, Kind: KindString,
		Doc:      `Bearer token other tools send to the MCP server over HTTP (Authorization: Bearer …; at least 16 characters; it cannot be cleared, only replaced). Switching the server on makes one when none is set; Settings → Use from other tools shows it and makes a new one.`,
		Required: true},
		minLen: APITokenMinLength},

	// the OpenAI-compatible API (issue 23, backend/apiserver, playchat serve)
	{Key: Key{Name: "API_SERVER_ENABLED", Label: "Run the OpenAI-compatible API", Default: "false", Group: GroupInterop, Kind: KindBool,
		Doc: `Serve the OpenAI-compatible API (/v1/models, /v1/chat/completions) while the window is open; playchat serve runs it without the window.`}},
	{Key: Key{Name: "API_SERVER_PORT", Label: "API port", Default: "8901", Group: GroupInterop, Kind: KindInt,
		Doc: `TCP port of the OpenAI-compatible API (1024–65535).`},
		min: 1024, max: 65535, hasMin: true, hasMax: true},
	{Key: Key{Name: "API_SERVER_LISTEN", Label: "Serve the API on the local network at", Group: GroupInterop, Kind: KindString,
		Doc: `Empty serves the API on this computer only (127.0.0.1). An IP address (0.0.0.0 for every network interface, or one of this computer's addresses) serves it to the local network too, e.g. to Open WebUI in Docker; the token is still required.`},
		ip: true},
	{Key: Key{Name: "API_SERVER_TOKEN", Label: "API token", Group: GroupInterop, Secret: true, Kind: KindString,
		Doc:      `Token every caller of the OpenAI-compatible API sends as "Authorization: Bearer <token>" (at least 16 characters; it cannot be cleared, only replaced). playchat serve makes one when none is set; PLAYCHAT_API_TOKEN in the environment overrides it for playchat serve.`,
		Required: true},
		minLen: APITokenMinLength},
	// backup (issue 27, backend/backup)
	{Key: Key{Name: "BACKUP_AUTO", Label: "Back up every day", Default: "false", Group: GroupBackup, Kind: KindBool,
		Doc: `Once a day, while the window runs, write a backup (without API keys) to the backup folder and, when set, to WebDAV.`}},
	{Key: Key{Name: "BACKUP_DIR", Label: "Backup folder", Group: GroupBackup, Kind: KindString,
		Doc: `Folder for backups (a Syncthing, Dropbox or NAS folder works); empty: backups in the data dir. A relative path is under the data dir.`}},
	{Key: Key{Name: "BACKUP_KEEP", Label: "Backups to keep", Default: "7", Group: GroupBackup, Kind: KindInt,
		Doc: `How many automatic backups to keep in each place (1–365); older ones are deleted after a new one is written.`},
		min: 1, max: 365, hasMin: true, hasMax: true},
	{Key: Key{Name: "BACKUP_WEBDAV_URL", Label: "WebDAV folder address", Group: GroupBackup, Kind: KindURL,
		Doc: `A WebDAV folder for automatic backups too (Nextcloud: https://HOST/remote.php/dav/files/USER/playchat/); empty: none.`}},
	{Key: Key{Name: "BACKUP_WEBDAV_USER", Label: "WebDAV user", Group: GroupBackup, Kind: KindString,
		Doc: `User name for the WebDAV folder.`}},
	{Key: Key{Name: "BACKUP_WEBDAV_PASSWORD", Label: "WebDAV password", Group: GroupBackup, Secret: true, Kind: KindString,
		Doc: `Password (Nextcloud: an app password) for the WebDAV folder.`}},

	// advanced
	{Key: Key{Name: "UI_LANGUAGE", Label: "Language", Default: "auto", Group: GroupAdvanced, Kind: KindString,
		Choices: []string{"auto", "ja", "en"},
		Doc:     `Language of the window: auto (follow the system), ja or en.`}},
	intAtLeast(Key{Name: "CONTEXT_WINDOW_TOKENS", Label: "Context window (tokens)", Default: "0", Group: GroupAdvanced, Kind: KindInt,
		Doc: `Context window in tokens (≥ 0); 0 takes it from the built-in model table.`}, 0),
	intAtLeast(Key{Name: "MAX_OUTPUT_TOKENS", Label: "Reply length limit (tokens)", Default: "1024", Group: GroupAdvanced, Kind: KindInt,
		Doc: `Tokens reserved for the reply and sent as max_tokens (≥ 1).`}, 1),
	intAtLeast(Key{Name: "TOOL_MAX_ROUNDS", Label: "Tool rounds per reply", Default: "3", Group: GroupAdvanced, Kind: KindInt,
		Doc: `Most tool-call rounds in one chat turn (≥ 1).`}, 1),
	{Key: Key{Name: "REMINDER_MAX_AHEAD_DAYS", Label: "Reminders: days ahead", Default: "365", Group: GroupAdvanced, Kind: KindInt,
		Doc: `Furthest a reminder may be set ahead, in days (1–3650); a later due time is refused.`},
		min: 1, max: 3650, hasMin: true, hasMax: true},
	{Key: Key{Name: "CLOSE_TO_TRAY", Label: "Close to the system tray", Default: "true", Group: GroupAdvanced, Kind: KindBool,
		Doc: `Closing the window hides it to the system tray, so reminders keep firing; without a tray on the desktop closing quits.`}},
	{Key: Key{Name: "START_AT_LOGIN", Label: "Start at login", Default: "false", Group: GroupAdvanced, Kind: KindBool,
		Doc: `Start playchat hidden in the system tray when you log in (an XDG autostart entry; Linux only for now).`}},

	{Key: Key{Name: "DEBUG", Label: "Debug mode", Default: "false", Group: GroupAdvanced, Kind: KindBool,
		Doc: `Verbose diagnostics (e.g. full LLM request tracing, secrets redacted).`}},
	{Key: Key{Name: "LOG_LEVEL", Label: "Log level", Default: "info", Group: GroupAdvanced, Kind: KindString,
		Choices: []string{"debug", "info", "warn", "error"},
		Doc:     `Lowest level written to the log file: debug, info, warn or error.`}},
}

// APITokenMinLength is the fewest characters API_SERVER_TOKEN may have.
const APITokenMinLength = 16

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
	// Why is Reason as a coded error (an apperr.ConfigReason* code), so the
	// window can word it; nil only in a ValueError built by hand.
	Why *apperr.Error
}

// ErrorCode returns apperr.ConfigInvalidValue, or its variant for a secret
// key and/or a known source (apperr.Coded).
func (e *ValueError) ErrorCode() apperr.Code {
	switch {
	case e.Secret && e.Source != "":
		return apperr.ConfigInvalidSecretFrom
	case e.Secret:
		return apperr.ConfigInvalidSecret
	case e.Source != "":
		return apperr.ConfigInvalidValueFrom
	}
	return apperr.ConfigInvalidValue
}

// ErrorParams returns key, value (never for a secret), source (English
// label), sourceId ("dotenv", "env", "gui") and reason (the coded Why, else
// the Reason text) (apperr.Coded).
func (e *ValueError) ErrorParams() map[string]any {
	p := map[string]any{"key": e.Key, "reason": e.Reason}
	if e.Why != nil {
		p["reason"] = e.Why
	}
	if !e.Secret {
		p["value"] = e.Value
	}
	if e.Source != "" {
		p["source"] = sourceLabel(e.Source)
		p["sourceId"] = e.Source
	}
	return p
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
// same rules Resolve applies. An empty value is valid for every key but a
// required one (API_SERVER_TOKEN): it unsets the key in its layer, so a lower
// layer or the default applies. An unknown
// key gives an error wrapping ErrUnknownKey; an invalid value a *ValueError
// (which never contains a secret value).
func ValidateValue(key, value string) error {
	s, ok := specByName[key]
	if !ok {
		return apperr.Wrap(apperr.ConfigUnknownKey, ErrUnknownKey, map[string]any{"key": key})
	}
	v := strings.TrimSpace(value)
	if v == "" && s.Required {
		why := apperr.New(apperr.ConfigReasonRequired, nil)
		return &ValueError{Key: key, Secret: s.Secret, Reason: why.Error(), Why: why}
	}
	if _, err := s.check(v); err != nil {
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
	bad := func(why *apperr.Error) (string, *ValueError) {
		return "", &ValueError{Key: s.Name, Value: v, Secret: s.Secret, Reason: why.Error(), Why: why}
	}
	switch s.Kind {
	case KindInt:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < math.MinInt32 || n > math.MaxInt32 {
			return bad(s.rangeErr(false))
		}
		if !s.inRange(float64(n)) {
			return bad(s.rangeErr(false))
		}
	case KindFloat:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || !s.inRange(f) {
			return bad(s.rangeErr(true))
		}
	case KindBool:
		b, ok := parseBool(v)
		if !ok {
			return bad(apperr.New(apperr.ConfigReasonBool, nil))
		}
		return strconv.FormatBool(b), nil
	case KindURL:
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return bad(apperr.New(apperr.ConfigReasonURL, nil))
		}
	case KindModel:
		if strings.IndexFunc(v, unicode.IsSpace) >= 0 || strings.HasPrefix(v, "/") ||
			strings.HasSuffix(v, "/") || strings.Contains(v, "//") {
			return bad(apperr.New(apperr.ConfigReasonModel, map[string]any{"example": "openai/gpt-4o-mini"}))
		}
	case KindModelImages:
		m, why := ParseModelImages(v)
		if why != nil {
			return bad(why)
		}
		return FormatModelImages(m), nil
	case KindString:
		if s.Secret && strings.IndexFunc(v, func(r rune) bool {
			return unicode.IsSpace(r) || unicode.IsControl(r)
		}) >= 0 {
			return bad(apperr.New(apperr.ConfigReasonNoSpaces, nil))
		}
		if strings.IndexFunc(v, unicode.IsControl) >= 0 {
			return bad(apperr.New(apperr.ConfigReasonNoControl, nil))
		}
		if s.minLen > 0 && utf8.RuneCountInString(v) < s.minLen {
			return bad(apperr.New(apperr.ConfigReasonMinLength, map[string]any{"min": s.minLen}))
		}
		if s.ip && net.ParseIP(v) == nil {
			return bad(apperr.New(apperr.ConfigReasonIP, nil))
		}
		if s.digitsMax > 0 && (len(v) < s.digitsMin || len(v) > s.digitsMax || strings.Trim(v, "0123456789") != "") {
			if s.digitsMin == s.digitsMax {
				return bad(apperr.New(apperr.ConfigReasonDigitsExact, map[string]any{"n": s.digitsMin}))
			}
			return bad(apperr.New(apperr.ConfigReasonDigits, map[string]any{"min": s.digitsMin, "max": s.digitsMax}))
		}
	}
	if len(s.Choices) > 0 {
		lv := strings.ToLower(v)
		for _, c := range s.Choices {
			if lv == c {
				return lv, nil
			}
		}
		return bad(apperr.New(apperr.ConfigReasonOneOf, map[string]any{"choices": strings.Join(s.Choices, ", ")}))
	}
	return v, nil
}

func (s *spec) inRange(f float64) bool {
	return (!s.hasMin || f >= s.min) && (!s.hasMax || f <= s.max)
}

// rangeErr is the reason of a value that is not a number (num) or integer
// in s's range: "must be an integer from 1 to 10" and the like.
func (s *spec) rangeErr(num bool) *apperr.Error {
	fmtNum := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	codes := [4]apperr.Code{apperr.ConfigReasonInt, apperr.ConfigReasonIntMin, apperr.ConfigReasonIntMax, apperr.ConfigReasonIntRange}
	if num {
		codes = [4]apperr.Code{apperr.ConfigReasonNum, apperr.ConfigReasonNumMin, apperr.ConfigReasonNumMax, apperr.ConfigReasonNumRange}
	}
	switch {
	case s.hasMin && s.hasMax:
		return apperr.New(codes[3], map[string]any{"min": fmtNum(s.min), "max": fmtNum(s.max)})
	case s.hasMin:
		return apperr.New(codes[1], map[string]any{"min": fmtNum(s.min)})
	case s.hasMax:
		return apperr.New(codes[2], map[string]any{"max": fmtNum(s.max)})
	}
	return apperr.New(codes[0], nil)
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
