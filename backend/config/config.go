// Package config loads playchat's settings and finds its data directory.
//
// A value comes from the highest of four layers (DESIGN.md §2):
//
//	defaults < <data dir>/.env < process environment < settings saved in the GUI
//
// The GUI layer is handed in as a map (the store keeps it in app_settings;
// this package does not import the store). In every layer an empty or
// all-space value counts as unset, so a blank "OPENAI_API_KEY=" line in a
// .env template, or a cleared field in the settings, falls through to the
// layer below. Values are trimmed of surrounding space.
//
// Secrets (Key.Secret) are never part of an error message; display them with
// Mask and scrub text bound for logs with Config.Redact.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"playchat/backend/redact"
)

// Sources of a value, as returned by Config.Value and found in ValueError.
const (
	SourceDefault = "default" // the key's Default
	SourceDotEnv  = "dotenv"  // <data dir>/.env
	SourceEnv     = "env"     // the process environment
	SourceGUI     = "gui"     // settings saved in the GUI
)

// ExtraPrefix marks keys that the layers keep even though Keys does not list
// them (e.g. PLAYCHAT_DATA_DIR); Config.Value reports them unvalidated.
const ExtraPrefix = "PLAYCHAT_"

// Layers are the raw inputs of Resolve, lowest first. Each map holds key
// name → value as read; a nil map is an empty layer.
type Layers struct {
	DotEnv map[string]string // from <data dir>/.env
	Env    map[string]string // from the process environment
	GUI    map[string]string // saved in the settings page (the app_settings table)
}

// LoadLayers reads <dataDir>/.env and environ (os.Environ's "KEY=value"
// form) into Layers, keeping only known keys and PLAYCHAT_* keys. A missing
// .env is an empty layer; a malformed one gives a *DotEnvError naming the
// line (but not its content). The GUI layer is left nil for the caller to
// fill. Neither the process environment nor the file is modified.
func LoadLayers(dataDir string, environ []string) (Layers, error) {
	dot, err := readDotEnv(filepath.Join(dataDir, DotEnvFile))
	if err != nil {
		return Layers{}, err
	}
	env := make(map[string]string)
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok && keep(k) {
			env[k] = v
		}
	}
	for k := range dot {
		if !keep(k) {
			delete(dot, k)
		}
	}
	return Layers{DotEnv: dot, Env: env}, nil
}

func keep(key string) bool {
	_, known := specByName[key]
	return known || (strings.HasPrefix(key, ExtraPrefix) && len(key) > len(ExtraPrefix))
}

// Config is the effective configuration: typed fields for every key, plus
// each key's string value and source (see Value). Build it with Resolve; the
// zero Config is empty, not defaulted. Config is read-only once built and
// safe to share between goroutines.
//
// Config implements fmt.Stringer and slog.LogValuer with secrets masked, but
// logging a whole config is still discouraged (STYLE.md habit 8).
type Config struct {
	// Model.
	DefaultModel        string // DEFAULT_MODEL, "provider/model"; "" when none is chosen
	SummaryModel        string // SUMMARY_MODEL; "" means use the session's model
	EmbeddingModel      string // EMBEDDING_MODEL; "" means no embeddings
	ContextWindowTokens int    // CONTEXT_WINDOW_TOKENS; 0 means from the model table
	MaxOutputTokens     int    // MAX_OUTPUT_TOKENS, ≥ 1
	ToolMaxRounds       int    // TOOL_MAX_ROUNDS, ≥ 1
	// ModelImages is MODEL_IMAGES (ParseModelImages): model id
	// ("provider/model") → "yes" or "no", overriding the vision table;
	// never nil.
	ModelImages map[string]string

	// Providers.
	OpenAIKey        string // OPENAI_API_KEY (secret)
	OpenAIBaseURL    string // OPENAI_BASE_URL; "" means the provider's own
	AnthropicKey     string // ANTHROPIC_API_KEY (secret)
	AnthropicBaseURL string // ANTHROPIC_BASE_URL; "" means the provider's own
	OllamaAPIBase    string // OLLAMA_API_BASE
	LMStudioAPIBase  string // LM_STUDIO_API_BASE
	OpenRouterKey    string // OPENROUTER_API_KEY (secret)

	// Memory.
	SummarizeThreshold       int  // MEMORY_SUMMARIZE_THRESHOLD, messages, ≥ 4
	SessionNotesContentLimit int  // SESSION_NOTES_CONTENT_LIMIT, characters per pinned page, ≥ 1
	AutoTags                 bool // AUTO_TAGS: tag new messages and memories in the background
	MemoryMirrorLearned      bool // MEMORY_MIRROR_LEARNED: write new memories as learned documents too (issue 23)

	// Knowledge.
	KnowledgeContextLimit int     // KNOWLEDGE_CONTEXT_LIMIT, entries, ≥ 0
	LocalKBTopK           int     // LOCAL_KB_TOP_K, documents, ≥ 0
	LocalKBMinScore       float64 // LOCAL_KB_MIN_SCORE, cosine similarity in [0, 1]
	KnowledgeBaseDir      string  // KNOWLEDGE_BASE_DIR resolved: absolute when DataDir is, never ""

	// Web search.
	WebSearchProvider  string // WEB_SEARCH_PROVIDER: auto, tavily, brave, searxng or off
	TavilyKey          string // TAVILY_API_KEY (secret)
	TavilyBaseURL      string // TAVILY_BASE_URL; "" means https://api.tavily.com
	BraveKey           string // BRAVE_API_KEY (secret)
	BraveBaseURL       string // BRAVE_BASE_URL; "" means https://api.search.brave.com
	SearXNGURL         string // SEARXNG_URL; "" means no SearXNG
	KnowledgeReuseDays int    // KNOWLEDGE_REUSE_DAYS, days, 0–365

	// Backups (issue 27).
	BackupAuto           bool   // BACKUP_AUTO: a daily backup while the window runs
	BackupDir            string // BACKUP_DIR resolved: absolute when DataDir is, never ("" → <data dir>/backups)
	BackupKeep           int    // BACKUP_KEEP, automatic backups kept per place, 1–365
	BackupWebDAVURL      string // BACKUP_WEBDAV_URL; "" means no WebDAV copy
	BackupWebDAVUser     string // BACKUP_WEBDAV_USER
	BackupWebDAVPassword string // BACKUP_WEBDAV_PASSWORD (secret)

	// Reminders.
	ReminderMaxAheadDays int // REMINDER_MAX_AHEAD_DAYS, days, 1–3650

	// Desktop.
	CloseToTray  bool // CLOSE_TO_TRAY: closing the window hides it while a tray host runs
	StartAtLogin bool // START_AT_LOGIN: an XDG autostart entry starts playchat hidden at login

	// Discord (issue 13).
	DiscordEnabled           bool   // DISCORD_ENABLED: run the bot beside the window
	DiscordBotToken          string // DISCORD_BOT_TOKEN (secret)
	DiscordWebhookURL        string // DISCORD_WEBHOOK_URL (secret): scheduled posts
	DiscordNotifyChannelID   string // DISCORD_NOTIFY_CHANNEL_ID: scheduled posts without a webhook
	WeatherNotifyHour        int    // WEATHER_NOTIFY_HOUR, local hour 0–23
	WeatherNotifyMinute      int    // WEATHER_NOTIFY_MINUTE, 0–59
	UselessTipsIntervalHours int    // USELESS_TIPS_INTERVAL_HOURS, hours 0–168, 0 = off
	ReminderModel            string // REMINDER_MODEL ("provider/model"), "" = fall back
	WeatherNotifyModel       string // WEATHER_NOTIFY_MODEL ("provider/model"), "" = DEFAULT_MODEL
	WeatherOfficeCode        string // WEATHER_OFFICE_CODE, 6 digits
	WeatherArea              string // WEATHER_AREA, area name or code, "" = the first

	// Other tools (issue 23).
	InteropAllowWrite bool   // INTEROP_ALLOW_WRITE: offer write_note and append_learning to MCP clients
	InteropShareNotes bool   // INTEROP_SHARE_NOTES: offer the notes tools to MCP clients
	MCPHTTPEnabled    bool   // MCP_HTTP_ENABLED: the window serves MCP over streamable HTTP
	MCPHTTPPort       int    // MCP_HTTP_PORT, TCP port on 127.0.0.1, 1024–65535
	MCPHTTPToken      string // MCP_HTTP_TOKEN (secret): the bearer token of the HTTP server
	// The OpenAI-compatible API (issue 23).
	APIServerEnabled bool   // API_SERVER_ENABLED: the window runs the API
	APIServerPort    int    // API_SERVER_PORT, TCP port 1024–65535
	APIServerListen  string // API_SERVER_LISTEN: "" = 127.0.0.1 only, else an IP address for the local network
	APIServerToken   string // API_SERVER_TOKEN (secret), ≥ 16 characters; "" until one is made

	// Other.
	Debug    bool       // DEBUG
	LogLevel slog.Level // LOG_LEVEL
	// UILanguage is UI_LANGUAGE: "auto" (follow the system locale), "ja" or
	// "en". Only the window reads it; it is kept with the other settings so a
	// new data dir starts with its own.
	UILanguage string

	// DataDir is the data directory Resolve was given.
	DataDir string

	values  map[string]string // key → effective value ("" when unset everywhere)
	sources map[string]string // key → Source*
}

// Resolve merges l over the defaults and checks every value. dataDir is
// recorded in Config.DataDir and anchors KNOWLEDGE_BASE_DIR.
//
// Checks: ints are base-10 and within their key's range (e.g.
// MEMORY_SUMMARIZE_THRESHOLD ≥ 4), floats within theirs (LOCAL_KB_MIN_SCORE
// 0–1), URLs absolute http(s), bools true/false/1/0/yes/no/on/off, LOG_LEVEL
// one of its choices. Every invalid value is reported, joined with
// errors.Join, each as a *ValueError naming the key, its source and (unless
// the key is secret) the bad value.
//
// On error the returned Config is still complete, so the window can start
// and show the errors, but it is not safe to run with: the CLI stops on the
// error (cli.openCore). An invalid value of a KindURL key is kept as it was
// given (Value reports it with its source, the typed field holds it), so the
// provider refuses to send anything (llm.ErrInvalidBaseURL) instead of
// sending the prompt and key to the default endpoint; any other invalid value
// is replaced by its key's default (source "default"), none of which sends
// data anywhere.
func Resolve(l Layers, dataDir string) (Config, error) {
	c := Config{
		DataDir: dataDir,
		values:  make(map[string]string, len(specs)),
		sources: make(map[string]string, len(specs)),
	}
	var errs []error
	for i := range specs {
		s := &specs[i]
		v, src := pick(l, s.Name)
		if src != SourceDefault {
			norm, err := s.check(v)
			switch {
			case err != nil && s.Kind == KindURL:
				err.Source = src
				errs = append(errs, err)
			case err != nil:
				err.Source = src
				errs = append(errs, err)
				v, src = "", SourceDefault
			default:
				v = norm
			}
		}
		if src == SourceDefault {
			v = s.Default
		}
		c.values[s.Name] = v
		c.sources[s.Name] = src
		if err := c.set(s.Name, v); err != nil {
			// Defaults are checked by the tests; this is a programming error.
			panic(err)
		}
	}
	for _, m := range []map[string]string{l.DotEnv, l.Env, l.GUI} {
		for k := range m {
			if _, known := specByName[k]; !known && keep(k) {
				if v, src := pick(l, k); src != SourceDefault {
					c.values[k], c.sources[k] = v, src
				}
			}
		}
	}
	return c, errors.Join(errs...)
}

// pick returns the trimmed value of key from the highest layer that sets it
// to something non-blank, and that layer's name; ("", "default") if none.
func pick(l Layers, key string) (string, string) {
	for _, layer := range []struct {
		m   map[string]string
		src string
	}{{l.GUI, SourceGUI}, {l.Env, SourceEnv}, {l.DotEnv, SourceDotEnv}} {
		if v := strings.TrimSpace(layer.m[key]); v != "" {
			return v, layer.src
		}
	}
	return "", SourceDefault
}

// set assigns the typed field of key from v, which has passed spec.check.
func (c *Config) set(key, v string) error {
	atoi := func() int { n, _ := strconv.Atoi(v); return n }
	switch key {
	case "DEFAULT_MODEL":
		c.DefaultModel = v
	case "SUMMARY_MODEL":
		c.SummaryModel = v
	case "EMBEDDING_MODEL":
		c.EmbeddingModel = v
	case "CONTEXT_WINDOW_TOKENS":
		c.ContextWindowTokens = atoi()
	case "MAX_OUTPUT_TOKENS":
		c.MaxOutputTokens = atoi()
	case "TOOL_MAX_ROUNDS":
		c.ToolMaxRounds = atoi()
	case "MODEL_IMAGES":
		m, why := ParseModelImages(v)
		if why != nil {
			return fmt.Errorf("config: %s: %w", key, why)
		}
		c.ModelImages = m
	case "REMINDER_MAX_AHEAD_DAYS":
		c.ReminderMaxAheadDays = atoi()
	case "OPENAI_API_KEY":
		c.OpenAIKey = v
	case "OPENAI_BASE_URL":
		c.OpenAIBaseURL = v
	case "ANTHROPIC_API_KEY":
		c.AnthropicKey = v
	case "ANTHROPIC_BASE_URL":
		c.AnthropicBaseURL = v
	case "OLLAMA_API_BASE":
		c.OllamaAPIBase = v
	case "LM_STUDIO_API_BASE":
		c.LMStudioAPIBase = v
	case "OPENROUTER_API_KEY":
		c.OpenRouterKey = v
	case "MEMORY_SUMMARIZE_THRESHOLD":
		c.SummarizeThreshold = atoi()
	case "SESSION_NOTES_CONTENT_LIMIT":
		c.SessionNotesContentLimit = atoi()
	case "AUTO_TAGS":
		c.AutoTags, _ = parseBool(v)
	case "MEMORY_MIRROR_LEARNED":
		c.MemoryMirrorLearned, _ = parseBool(v)
	case "KNOWLEDGE_CONTEXT_LIMIT":
		c.KnowledgeContextLimit = atoi()
	case "LOCAL_KB_TOP_K":
		c.LocalKBTopK = atoi()
	case "LOCAL_KB_MIN_SCORE":
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("config: %s: %w", key, err)
		}
		c.LocalKBMinScore = f
	case "KNOWLEDGE_BASE_DIR":
		c.KnowledgeBaseDir = knowledgeBaseDir(v, c.DataDir)
	case "WEB_SEARCH_PROVIDER":
		c.WebSearchProvider = v
	case "TAVILY_API_KEY":
		c.TavilyKey = v
	case "TAVILY_BASE_URL":
		c.TavilyBaseURL = v
	case "BRAVE_API_KEY":
		c.BraveKey = v
	case "BRAVE_BASE_URL":
		c.BraveBaseURL = v
	case "SEARXNG_URL":
		c.SearXNGURL = v
	case "KNOWLEDGE_REUSE_DAYS":
		c.KnowledgeReuseDays = atoi()
	case "DISCORD_ENABLED":
		c.DiscordEnabled, _ = parseBool(v)
	case "DISCORD_BOT_TOKEN":
		c.DiscordBotToken = v
	case "DISCORD_WEBHOOK_URL":
		c.DiscordWebhookURL = v
	case "DISCORD_NOTIFY_CHANNEL_ID":
		c.DiscordNotifyChannelID = v
	case "WEATHER_NOTIFY_HOUR":
		c.WeatherNotifyHour = atoi()
	case "WEATHER_NOTIFY_MINUTE":
		c.WeatherNotifyMinute = atoi()
	case "USELESS_TIPS_INTERVAL_HOURS":
		c.UselessTipsIntervalHours = atoi()
	case "REMINDER_MODEL":
		c.ReminderModel = v
	case "WEATHER_NOTIFY_MODEL":
		c.WeatherNotifyModel = v
	case "WEATHER_OFFICE_CODE":
		c.WeatherOfficeCode = v
	case "WEATHER_AREA":
		c.WeatherArea = v
	case "INTEROP_ALLOW_WRITE":
		c.InteropAllowWrite, _ = parseBool(v)
	case "INTEROP_SHARE_NOTES":
		c.InteropShareNotes, _ = parseBool(v)
	case "MCP_HTTP_ENABLED":
		c.MCPHTTPEnabled, _ = parseBool(v)
	case "MCP_HTTP_PORT":
		c.MCPHTTPPort = atoi()
	case "MCP_HTTP_TOKEN":
		c.MCPHTTPToken = v
	case "API_SERVER_ENABLED":
		c.APIServerEnabled, _ = parseBool(v)
	case "API_SERVER_PORT":
		c.APIServerPort = atoi()
	case "API_SERVER_LISTEN":
		c.APIServerListen = v
	case "API_SERVER_TOKEN":
		c.APIServerToken = v
	case "BACKUP_AUTO":
		c.BackupAuto, _ = parseBool(v)
	case "BACKUP_DIR":
		c.BackupDir = backupDir(v, c.DataDir)
	case "BACKUP_KEEP":
		c.BackupKeep = atoi()
	case "BACKUP_WEBDAV_URL":
		c.BackupWebDAVURL = v
	case "BACKUP_WEBDAV_USER":
		c.BackupWebDAVUser = v
	case "BACKUP_WEBDAV_PASSWORD":
		c.BackupWebDAVPassword = v
	case "DEBUG":
		c.Debug, _ = parseBool(v)
	case "CLOSE_TO_TRAY":
		c.CloseToTray, _ = parseBool(v)
	case "START_AT_LOGIN":
		c.StartAtLogin, _ = parseBool(v)
	case "LOG_LEVEL":
		return c.LogLevel.UnmarshalText([]byte(v))
	case "UI_LANGUAGE":
		c.UILanguage = v
	default:
		return fmt.Errorf("config: no field for key %s", key)
	}
	return nil
}

// knowledgeBaseDir resolves KNOWLEDGE_BASE_DIR: "" → <dataDir>/knowledge_base,
// "~/x" → under the home directory, a relative path → under dataDir.
func knowledgeBaseDir(v, dataDir string) string {
	switch {
	case v == "":
		return filepath.Join(dataDir, "knowledge_base")
	case v == "~" || strings.HasPrefix(v, "~/") || strings.HasPrefix(v, `~\`):
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, v[1:])
		}
	case !filepath.IsAbs(v):
		return filepath.Join(dataDir, v)
	}
	return filepath.Clean(v)
}

// backupDir resolves BACKUP_DIR like KNOWLEDGE_BASE_DIR: "" →
// <dataDir>/backups.
func backupDir(v, dataDir string) string {
	if v == "" {
		return filepath.Join(dataDir, "backups")
	}
	return knowledgeBaseDir(v, dataDir)
}

// Value returns the effective value of key, as a string, and its source:
// "default", "dotenv", "env" or "gui". For a key that no layer sets the
// value is the key's Default (KNOWLEDGE_BASE_DIR's is "", see the typed field
// for the resolved path). Bools are normalised to "true"/"false" and choices
// to lower case. Secrets are returned in clear: display them through Mask.
// PLAYCHAT_* keys found in a layer are reported unvalidated; any other
// unknown key gives ("", "").
func (c Config) Value(key string) (value string, source string) {
	return c.values[key], c.sources[key]
}

// secrets returns the non-empty secret values of c, longest first: the values
// of secret keys and of PLAYCHAT_* keys whose names look secret.
func (c Config) secrets() []string {
	var out []string
	for k, v := range c.values {
		if v != "" && isSecretKey(k) {
			out = append(out, v)
		}
		// A password (or token) inside a URL is a secret too (issue 21).
		if strings.Contains(v, "://") {
			out = append(out, redact.Secrets(v)...)
		}
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

func isSecretKey(key string) bool {
	if s, ok := specByName[key]; ok {
		return s.Secret
	}
	for _, w := range []string{"KEY", "TOKEN", "SECRET", "PASSWORD"} {
		if strings.Contains(key, w) {
			return true
		}
	}
	return false
}

// Redacted is what Redact puts in place of a secret.
const Redacted = "[REDACTED]"

// Redact returns s with every occurrence of every secret value of c (API keys,
// tokens, and PLAYCHAT_* values whose names contain KEY, TOKEN, SECRET or
// PASSWORD) replaced by "[REDACTED]". Use it on request bodies, URLs and
// error texts before they reach a log or the api_logs table.
func (c Config) Redact(s string) string {
	for _, secret := range c.secrets() {
		s = strings.ReplaceAll(s, secret, Redacted)
	}
	return s
}

// maskMinRunes is the shortest secret Mask shows any part of: below it the 7
// characters Mask reveals would be too large a share.
const maskMinRunes = 16

// Mask renders a secret for display: its first 3 characters, "…", and its
// last 4 ("sk-…abcd"). A secret shorter than 16 characters becomes "••••";
// "" stays "".
func Mask(secret string) string {
	if secret == "" {
		return ""
	}
	r := []rune(secret)
	if len(r) < maskMinRunes {
		return "••••"
	}
	return string(r[:3]) + "…" + string(r[len(r)-4:])
}

// String renders every known key as KEY=value (source), secrets masked, in
// display order.
func (c Config) String() string {
	var b strings.Builder
	for i, s := range specs {
		if i > 0 {
			b.WriteByte(' ')
		}
		v, src := c.Value(s.Name)
		if s.Secret {
			v = Mask(v)
		}
		fmt.Fprintf(&b, "%s=%q(%s)", s.Name, v, src)
	}
	return b.String()
}

// LogValue renders c for log/slog as a group of known keys, secrets masked.
func (c Config) LogValue() slog.Value {
	attrs := make([]slog.Attr, 0, len(specs))
	for _, s := range specs {
		v, _ := c.Value(s.Name)
		if s.Secret {
			v = Mask(v)
		}
		attrs = append(attrs, slog.String(s.Name, v))
	}
	return slog.GroupValue(attrs...)
}

// GoString makes %#v print the same masked form as String.
func (c Config) GoString() string { return "config.Config{" + c.String() + "}" }
