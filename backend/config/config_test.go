package config

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"playchat/backend/apperr"
)

func writeDotEnv(t *testing.T, dir, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, DotEnvFile), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestEachLayerOverridesTheOneBelow(t *testing.T) {
	const key = "MAX_OUTPUT_TOKENS"
	tests := []struct {
		name       string
		dotenv     string // .env file content
		environ    []string
		gui        map[string]string
		wantValue  string
		wantSource string
		wantTyped  int
	}{
		{name: "default when no layer sets it",
			wantValue: "1024", wantSource: SourceDefault, wantTyped: 1024},
		{name: ".env over default",
			dotenv:    "MAX_OUTPUT_TOKENS=2000\n",
			wantValue: "2000", wantSource: SourceDotEnv, wantTyped: 2000},
		{name: "environment over .env",
			dotenv: "MAX_OUTPUT_TOKENS=2000\n", environ: []string{"MAX_OUTPUT_TOKENS=3000"},
			wantValue: "3000", wantSource: SourceEnv, wantTyped: 3000},
		{name: "GUI over environment and .env",
			dotenv: "MAX_OUTPUT_TOKENS=2000\n", environ: []string{"MAX_OUTPUT_TOKENS=3000"},
			gui:       map[string]string{key: "4000"},
			wantValue: "4000", wantSource: SourceGUI, wantTyped: 4000},
		{name: "GUI over default alone",
			gui:       map[string]string{key: "4000"},
			wantValue: "4000", wantSource: SourceGUI, wantTyped: 4000},
		{name: "blank GUI value falls through to the environment",
			dotenv: "MAX_OUTPUT_TOKENS=2000\n", environ: []string{"MAX_OUTPUT_TOKENS=3000"},
			gui:       map[string]string{key: "  "},
			wantValue: "3000", wantSource: SourceEnv, wantTyped: 3000},
		{name: "empty environment value falls through to .env",
			dotenv: "MAX_OUTPUT_TOKENS=2000\n", environ: []string{"MAX_OUTPUT_TOKENS="},
			wantValue: "2000", wantSource: SourceDotEnv, wantTyped: 2000},
		{name: "empty .env value falls through to the default",
			dotenv:    "MAX_OUTPUT_TOKENS=\n",
			wantValue: "1024", wantSource: SourceDefault, wantTyped: 1024},
		{name: "values are trimmed",
			environ:   []string{"MAX_OUTPUT_TOKENS= 77 "},
			wantValue: "77", wantSource: SourceEnv, wantTyped: 77},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.dotenv != "" {
				writeDotEnv(t, dir, tt.dotenv)
			}
			l, err := LoadLayers(dir, tt.environ)
			if err != nil {
				t.Fatal(err)
			}
			l.GUI = tt.gui
			c, err := Resolve(l, dir)
			if err != nil {
				t.Fatal(err)
			}
			v, src := c.Value(key)
			if v != tt.wantValue || src != tt.wantSource {
				t.Errorf("Value(%s) = %q, %q; want %q, %q", key, v, src, tt.wantValue, tt.wantSource)
			}
			if c.MaxOutputTokens != tt.wantTyped {
				t.Errorf("MaxOutputTokens = %d, want %d", c.MaxOutputTokens, tt.wantTyped)
			}
		})
	}
}

func TestDefaultsFillEveryTypedField(t *testing.T) {
	dir := t.TempDir()
	c, err := Resolve(Layers{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		ContextWindowTokens:      0,
		MaxOutputTokens:          1024,
		ToolMaxRounds:            3,
		ReminderMaxAheadDays:     365,
		CloseToTray:              true,
		OllamaAPIBase:            "http://localhost:11434",
		LMStudioAPIBase:          "http://localhost:1234/v1",
		SummarizeThreshold:       20,
		SessionNotesContentLimit: 8000,
		AutoTags:                 true,
		KnowledgeContextLimit:    15,
		WebSearchProvider:        "auto",
		KnowledgeReuseDays:       7,
		LocalKBTopK:              3,
		LocalKBMinScore:          0.75,
		KnowledgeBaseDir:         filepath.Join(dir, "knowledge_base"),
		LogLevel:                 slog.LevelInfo,
		UILanguage:               "auto",
		WeatherNotifyHour:        7,
		WeatherOfficeCode:        "130000",
		MCPHTTPPort:              8765,
		APIServerPort:            8901,
		BackupDir:                filepath.Join(dir, "backups"),
		BackupKeep:               7,
		DataDir:                  dir,
		ModelImages:              map[string]string{},
	}
	c.values, c.sources = nil, nil
	if !reflect.DeepEqual(c, want) {
		t.Errorf("defaults:\n got %#v\nwant %#v", c, want)
	}
}

func TestEveryLayerValueReachesItsTypedField(t *testing.T) {
	dir := t.TempDir()
	gui := map[string]string{
		"DEFAULT_MODEL": "openai/gpt-4o-mini", "SUMMARY_MODEL": "ollama/qwen3:8b",
		"EMBEDDING_MODEL": "openai/text-embedding-3-small", "CONTEXT_WINDOW_TOKENS": "32000",
		"MAX_OUTPUT_TOKENS": "900", "TOOL_MAX_ROUNDS": "5", "REMINDER_MAX_AHEAD_DAYS": "30",
		"OPENAI_API_KEY": "sk-openai-0123456789", "OPENAI_BASE_URL": "https://example.test/v1",
		"ANTHROPIC_API_KEY": "sk-ant-0123456789", "ANTHROPIC_BASE_URL": "https://anthropic.test/v1/",
		"OLLAMA_API_BASE": "http://127.0.0.1:11435", "LM_STUDIO_API_BASE": "http://127.0.0.1:1235/v1",
		"OPENROUTER_API_KEY": "sk-or-0123456789", "MEMORY_SUMMARIZE_THRESHOLD": "4",
		"SESSION_NOTES_CONTENT_LIMIT": "100", "KNOWLEDGE_CONTEXT_LIMIT": "0", "AUTO_TAGS": "off",
		"LOCAL_KB_TOP_K": "0", "LOCAL_KB_MIN_SCORE": "1", "KNOWLEDGE_BASE_DIR": "kb",
		"TAVILY_API_KEY": "tvly-0123456789", "DISCORD_BOT_TOKEN": "discord.token.0123456789",
		"DEBUG": "Yes", "LOG_LEVEL": "WARN", "UI_LANGUAGE": "JA",
		"CLOSE_TO_TRAY": "off", "START_AT_LOGIN": "on",
		"WEB_SEARCH_PROVIDER": "Brave", "TAVILY_BASE_URL": "https://tavily.test", "BRAVE_API_KEY": "brave-0123456789",
		"BRAVE_BASE_URL": "https://brave.test", "SEARXNG_URL": "http://127.0.0.1:8888", "KNOWLEDGE_REUSE_DAYS": "0",
		"DISCORD_ENABLED": "on", "DISCORD_WEBHOOK_URL": "https://discord.test/api/webhooks/1/x",
		"DISCORD_NOTIFY_CHANNEL_ID": "123456789012345678", "WEATHER_NOTIFY_HOUR": "6", "WEATHER_NOTIFY_MINUTE": "30",
		"USELESS_TIPS_INTERVAL_HOURS": "4", "REMINDER_MODEL": "openai/gpt-4o", "WEATHER_NOTIFY_MODEL": "ollama/qwen3:8b",
		"WEATHER_OFFICE_CODE": "270000", "WEATHER_AREA": "大阪府",
		"INTEROP_ALLOW_WRITE": "on", "INTEROP_SHARE_NOTES": "yes", "MCP_HTTP_ENABLED": "1",
		"MCP_HTTP_PORT": "9000", "MCP_HTTP_TOKEN": "mcp-token-0123456789",
		"API_SERVER_ENABLED": "on", "API_SERVER_PORT": "18901", "API_SERVER_LISTEN": "0.0.0.0",
		"API_SERVER_TOKEN": "tok-0123456789abcdef", "MEMORY_MIRROR_LEARNED": "on",
		"BACKUP_AUTO": "on", "BACKUP_DIR": "/mnt/nas/playchat", "BACKUP_KEEP": "30",
		"BACKUP_WEBDAV_URL": "https://dav.test/remote.php/dav/files/me/playchat/", "BACKUP_WEBDAV_USER": "me",
		"BACKUP_WEBDAV_PASSWORD": "dav-pass-0123456789", "MODEL_IMAGES": "ollama/llama3=yes,openai/gpt-4o=NO",
	}
	if len(gui) != len(Keys()) {
		t.Fatalf("test covers %d keys, Keys has %d", len(gui), len(Keys()))
	}
	c, err := Resolve(Layers{GUI: gui}, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		DefaultModel: "openai/gpt-4o-mini", SummaryModel: "ollama/qwen3:8b",
		EmbeddingModel: "openai/text-embedding-3-small", ContextWindowTokens: 32000,
		MaxOutputTokens: 900, ToolMaxRounds: 5, ReminderMaxAheadDays: 30,
		OpenAIKey: "sk-openai-0123456789", OpenAIBaseURL: "https://example.test/v1",
		AnthropicKey: "sk-ant-0123456789", AnthropicBaseURL: "https://anthropic.test/v1/",
		OllamaAPIBase: "http://127.0.0.1:11435", LMStudioAPIBase: "http://127.0.0.1:1235/v1",
		OpenRouterKey: "sk-or-0123456789", SummarizeThreshold: 4,
		SessionNotesContentLimit: 100, KnowledgeContextLimit: 0,
		LocalKBTopK: 0, LocalKBMinScore: 1, KnowledgeBaseDir: filepath.Join(dir, "kb"),
		TavilyKey: "tvly-0123456789", DiscordBotToken: "discord.token.0123456789",
		Debug: true, LogLevel: slog.LevelWarn, UILanguage: "ja", DataDir: dir,
		CloseToTray: false, StartAtLogin: true,
		WebSearchProvider: "brave", TavilyBaseURL: "https://tavily.test", BraveKey: "brave-0123456789",
		BraveBaseURL: "https://brave.test", SearXNGURL: "http://127.0.0.1:8888", KnowledgeReuseDays: 0,
		DiscordEnabled: true, DiscordWebhookURL: "https://discord.test/api/webhooks/1/x",
		DiscordNotifyChannelID: "123456789012345678", WeatherNotifyHour: 6, WeatherNotifyMinute: 30,
		UselessTipsIntervalHours: 4, ReminderModel: "openai/gpt-4o", WeatherNotifyModel: "ollama/qwen3:8b",
		WeatherOfficeCode: "270000", WeatherArea: "大阪府",
		InteropAllowWrite: true, InteropShareNotes: true, MCPHTTPEnabled: true,
		MCPHTTPPort: 9000, MCPHTTPToken: "mcp-token-0123456789",
		APIServerEnabled: true, APIServerPort: 18901, APIServerListen: "0.0.0.0", APIServerToken: "tok-0123456789abcdef",
		MemoryMirrorLearned: true,
		BackupAuto:          true, BackupDir: "/mnt/nas/playchat", BackupKeep: 30,
		BackupWebDAVURL: "https://dav.test/remote.php/dav/files/me/playchat/", BackupWebDAVUser: "me",
		BackupWebDAVPassword: "dav-pass-0123456789",
		ModelImages:          map[string]string{"ollama/llama3": "yes", "openai/gpt-4o": "no"},
	}
	c2 := c
	c2.values, c2.sources = nil, nil
	if !reflect.DeepEqual(c2, want) {
		t.Errorf("got  %+v\nwant %+v", c2, want)
	}
	if v, _ := c.Value("DEBUG"); v != "true" {
		t.Errorf(`Value(DEBUG) = %q, want normalised "true"`, v)
	}
	if v, _ := c.Value("LOG_LEVEL"); v != "warn" {
		t.Errorf(`Value(LOG_LEVEL) = %q, want normalised "warn"`, v)
	}
}

func TestKnowledgeBaseDirResolution(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(t.TempDir(), "kb")
	home, _ := os.UserHomeDir()
	for in, want := range map[string]string{
		"":          filepath.Join(dir, "knowledge_base"),
		"notes/kb":  filepath.Join(dir, "notes", "kb"),
		abs:         abs,
		"~/kb":      filepath.Join(home, "kb"),
		abs + "/./": abs,
	} {
		c, err := Resolve(Layers{Env: map[string]string{"KNOWLEDGE_BASE_DIR": in}}, dir)
		if err != nil {
			t.Fatal(err)
		}
		if c.KnowledgeBaseDir != want {
			t.Errorf("KNOWLEDGE_BASE_DIR=%q → %q, want %q", in, c.KnowledgeBaseDir, want)
		}
	}
}

func TestLoadLayersKeepsOnlyKnownAndPlaychatKeys(t *testing.T) {
	dir := t.TempDir()
	writeDotEnv(t, dir, "# comment\nOPENAI_API_KEY=sk-from-dotenv-123456\nUNRELATED=1\nPLAYCHAT_FOO=bar\n")
	l, err := LoadLayers(dir, []string{
		"PATH=/usr/bin", "HOME=/root", "DEBUG=1", "PLAYCHAT_DATA_DIR=/x", "PLAYCHAT_=empty-name", "NOEQUALS",
	})
	if err != nil {
		t.Fatal(err)
	}
	wantDot := map[string]string{"OPENAI_API_KEY": "sk-from-dotenv-123456", "PLAYCHAT_FOO": "bar"}
	wantEnv := map[string]string{"DEBUG": "1", "PLAYCHAT_DATA_DIR": "/x"}
	if fmt.Sprint(l.DotEnv) != fmt.Sprint(wantDot) {
		t.Errorf("DotEnv = %v, want %v", l.DotEnv, wantDot)
	}
	if fmt.Sprint(l.Env) != fmt.Sprint(wantEnv) {
		t.Errorf("Env = %v, want %v", l.Env, wantEnv)
	}
	if l.GUI != nil {
		t.Errorf("GUI = %v, want nil", l.GUI)
	}
	c, err := Resolve(l, dir)
	if err != nil {
		t.Fatal(err)
	}
	if v, src := c.Value("PLAYCHAT_FOO"); v != "bar" || src != SourceDotEnv {
		t.Errorf("Value(PLAYCHAT_FOO) = %q, %q", v, src)
	}
	if v, src := c.Value("UNRELATED"); v != "" || src != "" {
		t.Errorf("Value(UNRELATED) = %q, %q; want empty", v, src)
	}
}

func TestInvalidValuesNameTheKeyAndHideSecrets(t *testing.T) {
	tests := []struct {
		key, value string
		wantValue  bool // the value may appear in the message
	}{
		{"MAX_OUTPUT_TOKENS", "lots", true},
		{"MAX_OUTPUT_TOKENS", "0", true},
		{"MAX_OUTPUT_TOKENS", "1.5", true},
		{"MAX_OUTPUT_TOKENS", "99999999999", true},
		{"MEMORY_SUMMARIZE_THRESHOLD", "3", true},
		{"TOOL_MAX_ROUNDS", "-1", true},
		{"CONTEXT_WINDOW_TOKENS", "-5", true},
		{"LOCAL_KB_TOP_K", "three", true},
		{"LOCAL_KB_MIN_SCORE", "1.5", true},
		{"LOCAL_KB_MIN_SCORE", "-0.1", true},
		{"LOCAL_KB_MIN_SCORE", "NaN", true},
		{"LOCAL_KB_MIN_SCORE", "high", true},
		{"OLLAMA_API_BASE", "localhost:11434", true},
		{"OPENAI_BASE_URL", "ftp://example.test", true},
		{"OPENAI_BASE_URL", "https://", true},
		{"LM_STUDIO_API_BASE", "http://[::1", true},
		{"DEBUG", "maybe", true},
		{"LOG_LEVEL", "verbose", true},
		{"DEFAULT_MODEL", "openai/gpt 4o", true},
		{"DEFAULT_MODEL", "/gpt-4o", true},
		{"OPENAI_API_KEY", "sk-abc def-SECRETVALUE", false},
		{"DISCORD_BOT_TOKEN", "tok\x00SECRETVALUE", false},
		{"TAVILY_API_KEY", "tvly-\tSECRETVALUE", false},
	}
	for _, tt := range tests {
		t.Run(tt.key+"="+tt.value, func(t *testing.T) {
			for _, layer := range []string{SourceDotEnv, SourceEnv, SourceGUI} {
				var l Layers
				m := map[string]string{tt.key: tt.value}
				switch layer {
				case SourceDotEnv:
					l.DotEnv = m
				case SourceEnv:
					l.Env = m
				case SourceGUI:
					l.GUI = m
				}
				c, err := Resolve(l, t.TempDir())
				if err == nil {
					t.Fatalf("%s: Resolve accepted %q", layer, tt.value)
				}
				checkValueError(t, err, tt.key, tt.value, layer, tt.wantValue)
				// An invalid URL is kept (the provider refuses it; a default
				// would send the data elsewhere); anything else is replaced
				// by the default.
				v, src := c.Value(tt.key)
				if specByName[tt.key].Kind == KindURL {
					if src != layer || v != tt.value {
						t.Errorf("%s: after the error Value = %q, %q; want the invalid URL kept", layer, v, src)
					}
				} else if src != SourceDefault || v != specByName[tt.key].Default {
					t.Errorf("%s: after the error Value = %q, %q; want the default", layer, v, src)
				}
			}
			err := ValidateValue(tt.key, tt.value)
			if err == nil {
				t.Fatalf("ValidateValue accepted %q", tt.value)
			}
			checkValueError(t, err, tt.key, tt.value, "", tt.wantValue)
		})
	}
}

func checkValueError(t *testing.T, err error, key, value, source string, showsValue bool) {
	t.Helper()
	var ve *ValueError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v, want a *ValueError", err)
	}
	if ve.Key != key || ve.Source != source || ve.Value != strings.TrimSpace(value) {
		t.Errorf("ValueError = %+v, want key %s source %q", ve, key, source)
	}
	msg := err.Error()
	if !strings.Contains(msg, key) {
		t.Errorf("error %q does not name %s", msg, key)
	}
	if showsValue && !strings.Contains(msg, fmt.Sprintf("%q", strings.TrimSpace(value))) {
		t.Errorf("error %q does not show the bad value %q", msg, value)
	}
	if !showsValue && strings.Contains(msg, "SECRETVALUE") {
		t.Errorf("error %q shows a secret value", msg)
	}
}

func TestResolveReportsEveryInvalidValue(t *testing.T) {
	_, err := Resolve(Layers{
		DotEnv: map[string]string{"TOOL_MAX_ROUNDS": "x"},
		GUI:    map[string]string{"LOCAL_KB_MIN_SCORE": "2", "MAX_OUTPUT_TOKENS": "12"},
	}, t.TempDir())
	if err == nil {
		t.Fatal("want an error")
	}
	for _, want := range []string{"TOOL_MAX_ROUNDS", "from .env", "LOCAL_KB_MIN_SCORE", "from the settings"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "MAX_OUTPUT_TOKENS") {
		t.Errorf("error %q names a valid key", err)
	}
}

func TestValidateValue(t *testing.T) {
	for _, tt := range []struct{ key, value string }{
		{"MAX_OUTPUT_TOKENS", "1"},
		{"MAX_OUTPUT_TOKENS", ""}, // empty unsets
		{"MEMORY_SUMMARIZE_THRESHOLD", "4"},
		{"LOCAL_KB_MIN_SCORE", "0"},
		{"LOCAL_KB_MIN_SCORE", " 0.5 "},
		{"OPENAI_BASE_URL", "https://api.example.test/v1"},
		{"DEBUG", "off"},
		{"LOG_LEVEL", "Error"},
		{"DEFAULT_MODEL", "openrouter/anthropic/claude-3.5-sonnet"},
		{"DEFAULT_MODEL", "gpt-4o"},
		{"OPENAI_API_KEY", "sk-proj-abc_DEF-123"},
		{"KNOWLEDGE_BASE_DIR", "/home/me/My Notes"},
	} {
		if err := ValidateValue(tt.key, tt.value); err != nil {
			t.Errorf("ValidateValue(%s, %q) = %v", tt.key, tt.value, err)
		}
	}
	err := ValidateValue("NO_SUCH_KEY", "1")
	if !errors.Is(err, ErrUnknownKey) || !strings.Contains(err.Error(), "NO_SUCH_KEY") {
		t.Errorf("unknown key: err = %v", err)
	}
	if err := ValidateValue("PLAYCHAT_DATA_DIR", "/x"); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("PLAYCHAT_ key: err = %v, want ErrUnknownKey", err)
	}
}

func TestKeysTable(t *testing.T) {
	keys := Keys()
	groups := Groups()
	kinds := map[string]bool{KindString: true, KindInt: true, KindFloat: true, KindBool: true, KindURL: true, KindModel: true, KindModelImages: true}
	seen := map[string]bool{}
	lastGroup := 0
	for _, k := range keys {
		if seen[k.Name] {
			t.Errorf("%s listed twice", k.Name)
		}
		seen[k.Name] = true
		g := -1
		for i, name := range groups {
			if k.Group == name {
				g = i
			}
		}
		if g < lastGroup {
			t.Errorf("%s: group %q out of display order", k.Name, k.Group)
		}
		lastGroup = g
		if !kinds[k.Kind] {
			t.Errorf("%s: kind %q", k.Name, k.Kind)
		}
		if k.Label == "" || len(k.Label) > 40 || k.Label == k.Name {
			t.Errorf("%s: Label %q must be a short plain name", k.Name, k.Label)
		}
		if k.Doc == "" || strings.Contains(k.Doc, "\n") {
			t.Errorf("%s: Doc must be one line", k.Name)
		}
		if err := ValidateValue(k.Name, k.Default); err != nil && !(k.Required && k.Default == "") {
			t.Errorf("%s: default invalid: %v", k.Name, err)
		}
		if k.Secret && k.Default != "" {
			t.Errorf("%s: a secret has a default", k.Name)
		}
	}
	if len(keys) != 61 {
		t.Errorf("Keys has %d entries, want 61", len(keys))
	}
	keys[0].Name = "CHANGED"
	keys[len(keys)-1].Choices[0] = "CHANGED"
	if Keys()[0].Name == "CHANGED" || Keys()[len(keys)-1].Choices[0] == "CHANGED" {
		t.Error("Keys returns shared state")
	}
}

func TestMask(t *testing.T) {
	for in, want := range map[string]string{
		"":                     "",
		"short":                "••••",
		"sk-123456789012":      "••••", // 15 characters
		"sk-1234567890abcd":    "sk-…abcd",
		"sk-proj-ABCDEFGHwxyz": "sk-…wxyz",
		"鍵鍵鍵あいうえおかきくけこさしすせそ": "鍵鍵鍵…しすせそ",
	} {
		if got := Mask(in); got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRedactRemovesEverySecret(t *testing.T) {
	c, err := Resolve(Layers{
		DotEnv: map[string]string{"OPENAI_API_KEY": "sk-openai-AAAA1111"},
		Env:    map[string]string{"TAVILY_API_KEY": "tvly-BBBB2222", "PLAYCHAT_API_TOKEN": "ptok-CCCC3333"},
		GUI: map[string]string{"DISCORD_BOT_TOKEN": "disc-DDDD4444", "DEFAULT_MODEL": "openai/gpt-4o",
			"ANTHROPIC_API_KEY": "sk-openai-AAAA1111-longer"},
	}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	in := `POST {"model":"openai/gpt-4o","key":"sk-openai-AAAA1111"} Authorization: Bearer sk-openai-AAAA1111-longer ` +
		`tavily=tvly-BBBB2222 discord=disc-DDDD4444 api=ptok-CCCC3333`
	got := c.Redact(in)
	want := `POST {"model":"openai/gpt-4o","key":"[REDACTED]"} Authorization: Bearer [REDACTED] ` +
		`tavily=[REDACTED] discord=[REDACTED] api=[REDACTED]`
	if got != want {
		t.Errorf("Redact:\n got %s\nwant %s", got, want)
	}
	if got := (Config{}).Redact("nothing to hide"); got != "nothing to hide" {
		t.Errorf("zero Config Redact = %q", got)
	}
}

func TestConfigPrintsWithSecretsMasked(t *testing.T) {
	const secret = "sk-SECRET-0123456789abcdef"
	c, err := Resolve(Layers{Env: map[string]string{"OPENAI_API_KEY": secret}}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var logged strings.Builder
	slog.New(slog.NewTextHandler(&logged, nil)).Info("config", "cfg", c)
	for _, s := range []string{fmt.Sprint(c), fmt.Sprintf("%+v", c), fmt.Sprintf("%#v", c), logged.String()} {
		if strings.Contains(s, "SECRET") {
			t.Errorf("printed config leaks the key: %s", s)
		}
		if !strings.Contains(s, "OPENAI_API_KEY") || !strings.Contains(s, "sk-…cdef") {
			t.Errorf("printed config lacks the masked key: %s", s)
		}
	}
}

// issue 8: OPENAI_BASE_URL=localhost:41813 (no scheme) must not turn into
// "use api.openai.com": every URL key keeps the invalid value in its typed
// field, where the LLM client refuses it, and Resolve reports it.
// Discord IDs and JMA office codes are digits only, of their length.
func TestDigitKeysRefuseOtherText(t *testing.T) {
	for key, bad := range map[string][]string{
		"WEATHER_OFFICE_CODE":       {"13000", "1300000", "13000a", "１３００００"},
		"DISCORD_NOTIFY_CHANNEL_ID": {"12345", "#general", "1234567890123456789012", "12345678901234567x"},
	} {
		for _, v := range bad {
			if err := ValidateValue(key, v); err == nil {
				t.Errorf("%s=%q accepted", key, v)
			}
		}
	}
	for key, v := range map[string]string{"WEATHER_OFFICE_CODE": "016000", "DISCORD_NOTIFY_CHANNEL_ID": "1098765432109876543"} {
		if err := ValidateValue(key, v); err != nil {
			t.Errorf("%s=%q refused: %v", key, v, err)
		}
	}
}

func TestInvalidURLIsNeverReplacedByADefault(t *testing.T) {
	for _, s := range specs {
		if s.Kind != KindURL {
			continue
		}
		c, err := Resolve(Layers{Env: map[string]string{s.Name: "localhost:41813"}}, t.TempDir())
		var ve *ValueError
		if !errors.As(err, &ve) || ve.Key != s.Name || ve.Source != SourceEnv {
			t.Errorf("%s: Resolve error %v, want a ValueError for it from the environment", s.Name, err)
		}
		field := map[string]string{"OPENAI_BASE_URL": c.OpenAIBaseURL, "ANTHROPIC_BASE_URL": c.AnthropicBaseURL,
			"OLLAMA_API_BASE": c.OllamaAPIBase, "LM_STUDIO_API_BASE": c.LMStudioAPIBase,
			"TAVILY_BASE_URL": c.TavilyBaseURL, "BRAVE_BASE_URL": c.BraveBaseURL, "SEARXNG_URL": c.SearXNGURL,
			"DISCORD_WEBHOOK_URL": c.DiscordWebhookURL, "BACKUP_WEBDAV_URL": c.BackupWebDAVURL}
		got, ok := field[s.Name]
		if !ok {
			t.Errorf("%s: a URL key this test does not know; add its Config field", s.Name)
			continue
		}
		if got != "localhost:41813" {
			t.Errorf("%s: typed field = %q, want the invalid value kept (never a default)", s.Name, got)
		}
	}
}

// The first run needs a model and a provider's key or server: those keys come
// first, in the "models" group, and the groups follow Groups().
func TestSettingsGroupsPutWhatAFirstRunNeedsFirst(t *testing.T) {
	keys := Keys()
	if got := Groups(); !reflect.DeepEqual(got, []string{"models", "memory", "knowledge", "websearch", "discord", "interop", "backup", "advanced"}) {
		t.Fatalf("Groups() = %v", got)
	}
	group := map[string]string{}
	for _, k := range keys {
		group[k.Name] = k.Group
	}
	for _, name := range []string{"DEFAULT_MODEL", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENROUTER_API_KEY",
		"OLLAMA_API_BASE", "LM_STUDIO_API_BASE", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"} {
		if group[name] != GroupModels {
			t.Errorf("%s in group %q, want %q", name, group[name], GroupModels)
		}
	}
	if keys[0].Name != "DEFAULT_MODEL" {
		t.Errorf("first key = %s, want DEFAULT_MODEL", keys[0].Name)
	}
	for name, want := range map[string]string{"SUMMARY_MODEL": GroupMemory, "EMBEDDING_MODEL": GroupKnowledge,
		"KNOWLEDGE_BASE_DIR": GroupKnowledge, "DEBUG": GroupAdvanced, "UI_LANGUAGE": GroupAdvanced,
		"WEB_SEARCH_PROVIDER": GroupWebSearch, "TAVILY_API_KEY": GroupWebSearch, "BRAVE_API_KEY": GroupWebSearch,
		"SEARXNG_URL": GroupWebSearch, "KNOWLEDGE_REUSE_DAYS": GroupWebSearch,
		"DISCORD_BOT_TOKEN": GroupDiscord, "WEATHER_OFFICE_CODE": GroupDiscord} {
		if group[name] != want {
			t.Errorf("%s in group %q, want %q", name, group[name], want)
		}
	}
}

// UI_LANGUAGE is an ordinary setting: auto by default, ja or en accepted in
// any case, anything else refused with the choices named.
func TestUILanguageSetting(t *testing.T) {
	dir := t.TempDir()
	c, err := Resolve(Layers{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if v, src := c.Value("UI_LANGUAGE"); v != "auto" || src != SourceDefault || c.UILanguage != "auto" {
		t.Errorf("default: Value = %q (%s), UILanguage = %q", v, src, c.UILanguage)
	}
	c, err = Resolve(Layers{GUI: map[string]string{"UI_LANGUAGE": "En"}}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if v, src := c.Value("UI_LANGUAGE"); v != "en" || src != SourceGUI || c.UILanguage != "en" {
		t.Errorf("gui en: Value = %q (%s), UILanguage = %q", v, src, c.UILanguage)
	}
	err = ValidateValue("UI_LANGUAGE", "fr")
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Key != "UI_LANGUAGE" || !strings.Contains(ve.Reason, "auto, ja, en") {
		t.Errorf("fr: err = %v", err)
	}
}

func TestAPIServerTokenCanBeReplacedButNeverCleared(t *testing.T) {
	for _, v := range []string{"", "   "} {
		var ve *ValueError
		if err := ValidateValue("API_SERVER_TOKEN", v); !errors.As(err, &ve) || ve.ErrorCode() != apperr.ConfigInvalidSecret ||
			ve.Why == nil || ve.Why.Code != apperr.ConfigReasonRequired {
			t.Errorf("ValidateValue(API_SERVER_TOKEN, %q) = %v, want a coded required error", v, err)
		}
	}
	if err := ValidateValue("API_SERVER_TOKEN", "short"); err == nil || strings.Contains(err.Error(), "short") {
		t.Errorf("a 5-character token: err = %v (want refused, value hidden)", err)
	}
	if err := ValidateValue("API_SERVER_TOKEN", "0123456789abcdef"); err != nil {
		t.Errorf("a 16-character token refused: %v", err)
	}
	if err := ValidateValue("API_SERVER_TOKEN", "0123456789 abcdef"); err == nil {
		t.Error("a token with a space was accepted")
	}
	for v, ok := range map[string]bool{"": true, "0.0.0.0": true, "192.168.1.20": true, "::": true, "localhost": false, "0.0.0.0:8901": false} {
		if err := ValidateValue("API_SERVER_LISTEN", v); (err == nil) != ok {
			t.Errorf("ValidateValue(API_SERVER_LISTEN, %q) = %v, want ok %v", v, err, ok)
		}
	}
	if err := ValidateValue("API_SERVER_PORT", "80"); err == nil {
		t.Error("port 80 accepted")
	}
}
