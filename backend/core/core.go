// Package core builds playchat's backend from configuration: the database,
// the LLM client, the chat service and the memory summariser. Every entry
// point (the window, the CLI, tests) opens one Core; none holds logic of its
// own (DESIGN.md §1).
package core

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"playchat/backend/assistant"
	"playchat/backend/backup"
	"playchat/backend/chat"
	"playchat/backend/config"
	"playchat/backend/guard"
	"playchat/backend/kb"
	"playchat/backend/knowledge"
	"playchat/backend/layer"
	"playchat/backend/llm"
	"playchat/backend/mcpclient"
	"playchat/backend/memory"
	"playchat/backend/notes"
	"playchat/backend/reminders"
	"playchat/backend/store"
	"playchat/backend/tagging"
	"playchat/backend/tools"
	"playchat/backend/websearch"
	knowledgebase "playchat/knowledge_base"
)

// Options configure Open.
type Options struct {
	// Environ is the process environment (os.Environ()); PLAYCHAT_DATA_DIR
	// in it chooses the data dir.
	Environ []string
	// DataDir overrides the data dir (tests); "" resolves it from Environ.
	DataDir string
	// Logger overrides the file logger (tests pass a discard logger).
	Logger *slog.Logger
	// HTTPClient is used for LLM calls; nil uses a default without a
	// timeout (streams are bounded by their context).
	HTTPClient *http.Client
	// LLMOptions are appended to the LLM client's options (tests pass a
	// fake sleep so retries take no time).
	LLMOptions []llm.Option
	// Exclusive makes Open fail with ErrAlreadyRunning while another
	// process holds the data dir exclusively (the window sets it: two
	// windows on one database would overwrite each other's edits; the CLI
	// does not, and may run beside the window).
	Exclusive bool
	// OnBackgroundPanic is told about the first panic of each background
	// job (see Core.Guard); nil only logs them.
	OnBackgroundPanic guard.Reporter
	// Version is playchat's version (sent to the user's MCP servers).
	Version string
	// OnMCPChange is told when a user's MCP server changes state or tools.
	OnMCPChange func(server string)
}

// ErrAlreadyRunning means another playchat window uses the data dir.
var ErrAlreadyRunning = errors.New("playchat is already open with this data folder")

// Core is the running backend.
type Core struct {
	DataDir    string
	DB         *store.DB
	LLM        *llm.Client
	Chat       *chat.Service
	Summarizer *memory.Summarizer
	Tools      *tools.Registry
	Notes      *notes.Service
	KB         *kb.Service
	// Knowledge is what web searches taught (issue 11): the web_search and
	// read_knowledge tools and context layer 1.
	Knowledge *knowledge.Service
	// Assistants are the user's named chat settings (issue 26); the
	// built-in ones are seeded at the first Open.
	Assistants *assistant.Service
	Log        *slog.Logger
	// Guard recovers panics of background jobs (knowledge-base indexing
	// and watching, memory summaries, reminder deliveries, the window's
	// background calls): each is logged with its stack and the first of
	// each job goes to Options.OnBackgroundPanic.
	Guard *guard.Guard

	// Tags tags new messages and memories in the background (AUTO_TAGS)
	// and keeps the word pool; the window runs it with Tags.Start (the CLI
	// does not: its messages are tagged at the window's next start).
	Tags *tagging.Service
	// Tips writes the Discord bot's tips (WEATHER_NOTIFY_MODEL, else
	// DEFAULT_MODEL) on a tag related to the recent talk.
	Tips tagging.Tips

	// Reminders stores reminders and offers the model their tools; the
	// window fires them with StartReminders.
	Reminders *reminders.Service
	// MCP runs the user's own MCP servers (issue 24); their tools join
	// every turn's tools once a server is ready. Nothing runs until
	// StartMCP (the window and `playchat ask` call it).
	MCP       *mcpclient.Manager
	schedMu   sync.Mutex
	scheduler *reminders.Scheduler

	// apiLogs writes llm call records to api_logs in the background.
	apiLogs *apiLogWriter

	closeLog func() error
	unlock   func()
	environ  []string
	logLevel slog.LevelVar

	mu     sync.RWMutex
	cfg    config.Config
	cfgErr error
}

// Open resolves the data dir, opens and migrates the database, loads the
// configuration (defaults < .env < environment < GUI settings) and builds the
// services. A configuration with invalid values still opens, so the window can
// show them (config.Resolve: an invalid URL is kept and its provider refuses
// to send; other invalid values take their defaults); ConfigError reports
// them, and the CLI stops on it.
func Open(ctx context.Context, o Options) (*Core, error) {
	dir := o.DataDir
	if dir == "" {
		var err error
		if dir, err = config.DataDir(o.Environ); err != nil {
			return nil, err
		}
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	c := &Core{DataDir: dir, environ: o.Environ, closeLog: func() error { return nil }, unlock: func() {}}
	if o.Exclusive {
		unlock, err := lockDataDir(dir)
		if err != nil {
			return nil, err
		}
		c.unlock = unlock
	}
	c.Log = o.Logger
	if c.Log == nil {
		lg, closeFn, err := OpenLogFile(dir, &c.logLevel)
		if err != nil {
			c.unlock()
			return nil, err
		}
		c.Log, c.closeLog = lg, closeFn
	}
	c.Guard = guard.New(c.Log, o.OnBackgroundPanic)
	// A restore staged by the window or `playchat backup restore` replaces
	// the data here, before the database opens (backup.ApplyStagedDB): only
	// with the data dir held exclusively, so no other window has it open.
	var restored *backup.Pending
	if o.Exclusive {
		var rerr error
		if restored, rerr = backup.ApplyStagedDB(ctx, dir); rerr != nil {
			c.Log.Error("the staged restore could not be applied; the current data stays", "err", rerr)
			restored = nil
		}
	}
	db, err := store.Open(ctx, filepath.Join(dir, store.FileName))
	if err != nil {
		// A damaged database or one of a newer playchat is refused before
		// anything is written (store.Check); the file stays as it is.
		c.Log.Error("the database cannot be opened", "err", err)
		c.closeLog()
		c.unlock()
		return nil, err
	}
	c.DB = db
	// Files no message refers to any more (a delete whose sweep failed, a
	// store that failed half-way) are removed at every start.
	if n, err := db.SweepAttachments(ctx); err != nil {
		c.Log.Warn("attachments sweep", "err", err)
	} else if n > 0 {
		c.Log.Info("removed unreferenced attachments", "files", n)
	}
	if err := c.Reload(ctx); err != nil {
		db.Close()
		c.closeLog()
		c.unlock()
		return nil, err
	}
	if restored != nil {
		c.finishRestore(restored)
	}
	if cerr := c.ConfigError(); cerr != nil {
		c.Log.Warn("invalid configuration values (an invalid URL disables its provider; others use their defaults; the CLI refuses to run)", "err", cerr)
	}

	c.apiLogs = newAPILogWriter(c)
	opts := []llm.Option{llm.WithLogSink(c.apiLogs), llm.WithLogger(c.Log)}
	if o.HTTPClient != nil {
		opts = append(opts, llm.WithHTTPClient(o.HTTPClient))
	}
	c.LLM = llm.New(providers(c.Config()), append(opts, o.LLMOptions...)...)
	c.Summarizer = memory.New(db, c.LLM, func() memory.Settings {
		cfg := c.Config()
		return memory.Settings{Threshold: cfg.SummarizeThreshold, Model: cfg.SummaryModel,
			ContextWindowTokens: cfg.ContextWindowTokens, MaxOutputTokens: cfg.MaxOutputTokens}
	}, c.Log)
	c.Summarizer.SetGuard(c.Guard)
	c.Tags = tagging.New(tagging.Options{DB: db, LLM: c.LLM, Log: c.Log, Guard: c.Guard, Settings: func() tagging.Settings {
		cfg := c.Config()
		return tagging.Settings{Enabled: cfg.AutoTags, Model: cfg.SummaryModel}
	}})
	c.Tips = tagging.Tips{LLM: c.LLM, Tags: c.Tags, Model: func() string {
		cfg := c.Config()
		if cfg.WeatherNotifyModel != "" {
			return cfg.WeatherNotifyModel
		}
		return cfg.DefaultModel
	}}
	c.Tools = tools.NewRegistry()
	c.Notes = notes.New(db)
	if err := c.Tools.Register(notes.Tools(c.Notes)...); err != nil {
		c.Close()
		return nil, err
	}
	c.Reminders = reminders.New(reminders.Options{DB: db, MaxAheadDays: func() int { return c.Config().ReminderMaxAheadDays }})
	if err := c.Tools.Register(reminders.Tools(c.Reminders)...); err != nil {
		c.Close()
		return nil, err
	}
	notesSettings := func() notes.Settings { return notes.Settings{ContentLimit: c.Config().SessionNotesContentLimit} }
	c.KB, err = kb.New(kb.Options{DB: db, Logger: c.Log, Seed: knowledgebase.FS, Embedder: c.LLM, Guard: c.Guard,
		Settings: func() kb.Settings {
			cfg := c.Config()
			return kb.Settings{Dir: cfg.KnowledgeBaseDir, EmbeddingModel: cfg.EmbeddingModel,
				TopK: cfg.LocalKBTopK, MinScore: cfg.LocalKBMinScore}
		}})
	if err != nil {
		c.Close()
		return nil, err
	}
	c.MCP = mcpclient.New(mcpclient.Options{DataDir: dir, Environ: o.Environ, Log: c.Log, Version: o.Version,
		OnChange: o.OnMCPChange})
	c.Tools.AddSource(c.MCP)
	c.Knowledge = knowledge.New(knowledge.Options{DB: db, LLM: c.LLM, Logger: c.Log, Settings: c.knowledgeSettings})
	if err := c.Tools.Register(knowledge.Tools(c.Knowledge)...); err != nil {
		c.Close()
		return nil, err
	}
	c.Chat = chat.New(chat.Options{
		DB: db, LLM: c.LLM, Summarizer: c.Summarizer, Logger: c.Log, Tools: c.Tools,
		AfterDone: c.Tags.Enqueue, // tags the turn's messages in the background
		// Context layers 1–3 in DESIGN.md §5 order; layer 4 (memory) is the
		// chat service's own.
		// The clock layer (current local time for reminders) goes last:
		// it changes every turn, so the layers before it stay a cacheable
		// prefix.
		Layers: []layer.Layer{c.Knowledge.Layer(), notes.IndexLayer(c.Notes, notesSettings), notes.PinnedLayer(c.Notes, notesSettings), c.KB.Layer(),
			reminders.ClockLayer(c.Reminders)},
		Pinner: c.Notes,
		CheckModel: func(model string) error {
			_, err := llm.ResolveModel(model, providers(c.Config()))
			return err
		},
		Settings: func() chat.Settings {
			cfg := c.Config()
			return chat.Settings{DefaultModel: cfg.DefaultModel, ContextWindowTokens: cfg.ContextWindowTokens,
				MaxOutputTokens: cfg.MaxOutputTokens, ToolMaxRounds: cfg.ToolMaxRounds, ModelImages: cfg.ModelImages}
		},
	})
	c.Assistants = assistant.New(db)
	if _, err := c.Assistants.SeedBuiltins(ctx, c.seedLanguage()); err != nil {
		c.Log.Warn("seed built-in assistants", "err", err) // the app works without them
	}
	return c, nil
}

// seedLanguage is the language the built-in assistants are named in at the
// first start: UI_LANGUAGE, else the locale of the core's environment
// (config.UILanguageOf).
func (c *Core) seedLanguage() string {
	env := map[string]string{}
	for _, kv := range c.environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	return config.UILanguageOf(c.Config().UILanguage, func(k string) string { return env[k] })
}

// knowledgeSettings are the web search and learned-knowledge settings of
// the current configuration.
func (c *Core) knowledgeSettings() knowledge.Settings {
	cfg := c.Config()
	return knowledge.Settings{Search: WebSearchSettings(cfg), ContextLimit: cfg.KnowledgeContextLimit,
		ReuseDays: cfg.KnowledgeReuseDays, Dir: cfg.KnowledgeBaseDir}
}

// WebSearchSettings picks the web search provider settings out of cfg.
func WebSearchSettings(cfg config.Config) websearch.Settings {
	return websearch.Settings{Provider: cfg.WebSearchProvider, TavilyKey: cfg.TavilyKey, TavilyBaseURL: cfg.TavilyBaseURL,
		BraveKey: cfg.BraveKey, BraveBaseURL: cfg.BraveBaseURL, SearXNGURL: cfg.SearXNGURL}
}

// Config returns the effective configuration.
func (c *Core) Config() config.Config {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.cfg
}

// ConfigError reports invalid configuration values (nil when all are valid).
func (c *Core) ConfigError() error {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.cfgErr
}

// Reload re-reads .env, the environment and the GUI settings, and hands the
// new provider settings to the LLM client.
func (c *Core) Reload(ctx context.Context) error {
	layers, err := config.LoadLayers(c.DataDir, c.environ)
	if err != nil {
		return err
	}
	if layers.GUI, err = c.DB.AppSettings(ctx); err != nil {
		return fmt.Errorf("read saved settings: %w", err)
	}
	cfg, cerr := config.Resolve(layers, c.DataDir)
	c.mu.Lock()
	c.cfg, c.cfgErr = cfg, cerr
	c.mu.Unlock()
	c.logLevel.Set(cfg.LogLevel)
	if cfg.Debug {
		c.logLevel.Set(slog.LevelDebug)
	}
	if c.LLM != nil {
		c.LLM.SetProviders(providers(cfg))
	}
	return nil
}

// SaveSettings validates every change first, then stores them in one
// transaction and reloads. A key in clear loses its GUI value. On a
// validation error nothing is saved.
func (c *Core) SaveSettings(ctx context.Context, set map[string]string, clear []string) error {
	for k, v := range set {
		if err := config.ValidateValue(k, v); err != nil {
			return err
		}
	}
	for _, k := range clear {
		if err := config.ValidateValue(k, ""); err != nil {
			return err
		}
	}
	if err := c.DB.SaveAppSettings(ctx, set, clear); err != nil {
		return err
	}
	return c.Reload(ctx)
}

// Close waits for background summaries, then closes the database and log.
func (c *Core) Close() error {
	c.StopReminders()
	if c.Chat != nil {
		c.Chat.Shutdown(context.Background())
	}
	c.StopMCP(context.Background())
	if c.Summarizer != nil {
		c.Summarizer.Wait()
	}
	if c.Tags != nil {
		c.Tags.Stop()
	}
	if c.KB != nil {
		if err := c.KB.Close(); err != nil {
			c.Log.Warn("close knowledge base", "err", err)
		}
	}
	if c.apiLogs != nil {
		c.apiLogs.close()
	}
	err := c.DB.Close()
	c.closeLog()
	c.unlock()
	return err
}

func providers(cfg config.Config) llm.Providers {
	return llm.Providers{
		OpenAIKey: cfg.OpenAIKey, OpenAIBaseURL: cfg.OpenAIBaseURL,
		AnthropicKey: cfg.AnthropicKey, AnthropicBaseURL: cfg.AnthropicBaseURL,
		OllamaBase: cfg.OllamaAPIBase, LMStudioBase: cfg.LMStudioAPIBase,
		OpenRouterKey: cfg.OpenRouterKey,
	}
}

// ReconcileKB brings the knowledge-base index up to date with the folder
// once (the CLI's start-up pass before the first turn; the window runs the
// watcher instead): changed files are re-indexed and, with an embedding
// model, embedded. Failures are logged and leave lexical retrieval working.
func (c *Core) ReconcileKB(ctx context.Context) {
	if _, err := c.KB.Reconcile(ctx); err != nil {
		c.Log.Warn("knowledge base reconcile", "err", err)
		return
	}
	if c.Config().EmbeddingModel != "" {
		if _, err := c.KB.EmbedPending(ctx); err != nil {
			c.Log.Warn("knowledge base embeddings", "err", err)
		}
	}
}

// StartReminders starts firing reminders through n (the window does, at
// start; CLI commands do not): reminders that fell due while playchat was
// closed are delivered now, marked late, and reminders added by other
// processes (the CLI) are armed within 2 s. A second call does nothing.
func (c *Core) StartReminders(ctx context.Context, n reminders.Notifier) error {
	c.schedMu.Lock()
	defer c.schedMu.Unlock()
	if c.scheduler != nil {
		return nil
	}
	s, err := reminders.NewScheduler(reminders.SchedulerOptions{Service: c.Reminders, Notifier: n, Logger: c.Log, Guard: c.Guard})
	if err != nil {
		return err
	}
	if err := s.Start(ctx); err != nil {
		_ = s.Stop()
		return err
	}
	c.scheduler = s
	return nil
}

// RemindersCaughtUp is closed once the running scheduler has delivered
// the reminders that fell due while playchat was closed (StartReminders
// returns before that); nil while no scheduler runs.
func (c *Core) RemindersCaughtUp() <-chan struct{} {
	c.schedMu.Lock()
	defer c.schedMu.Unlock()
	if c.scheduler == nil {
		return nil
	}
	return c.scheduler.CaughtUp()
}

// StopReminders stops firing reminders and waits for deliveries in
// progress (Close calls it).
func (c *Core) StopReminders() {
	c.schedMu.Lock()
	s := c.scheduler
	c.scheduler = nil
	c.schedMu.Unlock()
	if s != nil {
		if err := s.Stop(); err != nil {
			c.Log.Warn("stop reminders", "err", err)
		}
	}
}

// StartMCP starts the user's enabled MCP servers in the background.
func (c *Core) StartMCP() error {
	if c.MCP == nil {
		return nil
	}
	return c.MCP.Start()
}

// StopMCP stops the user's MCP servers and waits until their process trees
// are gone (at most 10 s, or until ctx ends). Close calls it.
func (c *Core) StopMCP(ctx context.Context) {
	if c.MCP == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c.MCP.Shutdown(ctx)
}
