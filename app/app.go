// Package app holds the thin services bound to the Wails window. They hold
// no business logic: they translate between the frontend's camelCase structs
// and backend/, and emit events through the Platform seam.
package app

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/wailsapp/wails/v2/pkg/options"

	"playchat/app/webview"
	"playchat/backend/apperr"
	"playchat/backend/config"
	"playchat/backend/core"
	"playchat/backend/mcpclient"
)

// Version is the app version shown in the UI; set by main.
var Version = "dev"

// App owns the backend core for the window's lifetime: opened in Startup
// (never before wails.Run, which binding generation also runs), closed in
// Shutdown.
type App struct {
	opts core.Options

	mu       sync.RWMutex
	core     *core.Core
	platform Platform
	startErr error

	// selfTestReports carries the page's answers during a self-test.
	selfTestReports chan string
	// selfTestOnce starts the self-test at the first DomReady only (the
	// page may load again: webcrash); domReadies counts the page's loads.
	selfTestOnce sync.Once
	domReadies   chan struct{}

	// desk is the tray, close-to-tray and start-at-login state (tray.go).
	desk desktop
	// disc is the optional Discord bot and its posts (discord_service.go).
	disc discordState
	// interop is the MCP server over HTTP for other tools (interop_service.go).
	interop interopState
	// approvals are the MCP tool calls waiting for a click (tools_service.go).
	approvals *mcpclient.Approvals
	// attachments are the files added to message boxes and not yet sent
	// (attachment_service.go).
	attachments attachStash

	// trim returns unused memory, in this process and the web process,
	// once the window has gone quiet (webview/idle_trim.go); each release
	// the web process reports also goes to webReleased, for the self-test.
	trim        *webview.IdleTrim
	webReleased chan webview.Release

	// alerter shows failed automatic backups on the desktop (set with the
	// reminders' notifier); backupAlertAt is when it last did. Both under
	// backupAlertMu (backup_service.go).
	backupAlertMu sync.Mutex
	alerter       Alerter
	backupAlertAt time.Time

	// startDone is closed when Startup returns; Shutdown waits for it, so
	// services are never started on a core that is being closed.
	startDone chan struct{}
}

// New returns an App that will open the core with opts at start-up.
func New(opts core.Options) *App {
	return &App{opts: opts, approvals: mcpclient.NewApprovals(), selfTestReports: make(chan string, 4), domReadies: make(chan struct{}, 4),
		trim:        webview.NewIdleTrim(webview.IdleTrimDelay, webview.IdleTrimInterval, webview.TrimMemory),
		webReleased: make(chan webview.Release, 1), startDone: make(chan struct{})}
}

// Startup opens the core and starts the window's services. Wails calls it
// with the window's context, on a goroutine of its own, while the page
// loads.
//
// App.mu is held only to publish the platform, the core or the start-up
// error — never while anything runs that may call back into the window or
// wait on it (an overdue reminder's notification emits to the window
// through a.plat(), which takes a.mu: holding it here froze the app at a
// start with an overdue reminder, issue 21). Start-up work that delivers
// what fell due while playchat was closed runs in the background and never
// delays start-up. Shutdown waits for Startup to finish (startDone).
func (a *App) Startup(ctx context.Context) {
	defer close(a.startDone)
	a.mu.Lock()
	a.platform = newDesktopPlatform(ctx)
	a.mu.Unlock()
	opts := a.opts
	opts.Exclusive = true
	opts.OnBackgroundPanic = a.reportBackgroundPanic // background.go: one toast per failing job
	opts.OnMCPChange = a.toolsChanged                // tools_service.go: the rows refresh
	if opts.Version == "" {
		opts.Version = Version
	}
	c, err := core.Open(ctx, opts)
	if errors.Is(err, core.ErrAlreadyRunning) {
		// Another window (in another desktop session, where the D-Bus
		// single-instance lock cannot see it) has this database open.
		a.setStartErr(err)
		msg := "playchat is already open with this data folder.\nClose the other window (or stop `playchat discord run`) first."
		if osLocale() == "ja" {
			msg = "playchat はこのデータフォルダですでに開いています。\n先にもう一つのウィンドウを閉じるか、`playchat discord run` を止めてください。"
		}
		go a.quitOnSignal(ctx, true)
		go a.plat().Fatal("playchat", msg)
		return
	}
	go a.quitOnSignal(ctx, false)
	go webview.WatchReleases(ctx, releaseLog(), a.webReleased)
	if err != nil {
		a.setStartErr(err)
		slog.Error("start-up failed", "err", err)
		return
	}
	a.mu.Lock()
	a.core = c
	a.mu.Unlock()
	// The knowledge base reconciles in the background and then watches its
	// folder; turns use what is indexed so far.
	if err := c.KB.Start(ctx); err != nil {
		c.Log.Warn("knowledge base watcher", "err", err)
	}
	// The Discord bot (issue 13) takes the reminders set on Discord, so it
	// exists before the reminder scheduler; it connects once that runs.
	disc := a.newDiscord(ctx, c)
	// Reminders fire while the window runs (issue 10; Shutdown's Close
	// stops them): desktop notifications plus the window
	// (reminder_service.go). Those that fell due while playchat was closed
	// are delivered in the background.
	a.startReminders(ctx, c, disc.Notifier())
	// Off the start-up path: connecting may take a while.
	go a.applyDiscord(c)
	// Messages get their tags in the background after each turn (tags.go).
	a.startTagging(ctx, c)
	// The tray icon and start-at-login (tray.go), off the start-up path.
	go a.startDesktop(ctx, c)
	// The MCP server over HTTP, when switched on (interop_service.go).
	go a.startInterop(c)
	// The user's own MCP servers (tools_service.go), in the background: a
	// server still starting is simply not offered yet. Close stops them.
	go a.startTools(c)
	// Daily backups while BACKUP_AUTO is on (backup_service.go).
	go a.runAutoBackups(ctx, c)
}

// releaseLog is where the web extension's releases are printed: stderr
// while webview.MemStatsEnv is set, nowhere (nil) otherwise.
func releaseLog() io.Writer {
	if os.Getenv(webview.MemStatsEnv) != "" {
		return os.Stderr
	}
	return nil
}

func (a *App) setStartErr(err error) {
	a.mu.Lock()
	a.startErr = err
	a.mu.Unlock()
}

// DomReady runs once the page is loaded. Wails (v2.13+) itself re-applies
// SA_ONSTACK to WebKit's signal handlers at start-up and here, leaving
// SIGUSR1 to JavaScriptCore's garbage collector (../shared/BUILDING.md,
// pitfall 5), so a recovered Go panic never kills the process.
func (a *App) DomReady(ctx context.Context) {
	if p := a.plat(); p != nil {
		webview.StartMemStats(os.Getenv, p, os.Stderr)
	}
	if name := a.selfTest(); name != "" {
		select {
		case a.domReadies <- struct{}{}:
		default:
		}
		a.selfTestOnce.Do(func() { go a.runSelfTest(ctx, name) })
	}
}

// SecondInstance brings the window forward when the app is launched again.
func (a *App) SecondInstance(options.SecondInstanceData) {
	if p := a.plat(); p != nil {
		p.Show()
	}
	if t := a.trayIcon(); t != nil {
		t.SetWindowVisible(true) // it may have been hidden in the tray
	}
}

// Shutdown stops running turns (their partial replies are stored), waits
// for background summaries and closes the database.
func (a *App) Shutdown(ctx context.Context) {
	if a.startDone != nil {
		select {
		case <-a.startDone:
		case <-time.After(startWait):
			slog.Warn("shutdown: start-up has not finished; closing anyway")
		}
	}
	a.mu.Lock()
	c := a.core
	a.core = nil
	a.mu.Unlock()
	a.stopDiscord() // first: its running turns store their replies before the core closes
	a.trim.Stop()
	a.stopInterop() // its sessions end before the core they read closes
	if c != nil {
		c.Close()
	}
	a.stopDesktop() // last: the tray closes the shared session bus connection
}

// Services returns every bound service, for options.App.Bind; with
// SelfTestEnv set also the SelfTestService.
func (a *App) Services() []any {
	services := []any{&ChatService{a}, &SessionService{a}, &MemoryService{a}, &LogService{a},
		&SettingsService{a}, &ModelService{a}, &SystemService{a}, &NotesService{a}, &KBService{a},
		&WebSearchService{a}, &KnowledgeService{a}, &ReminderService{a}, &DiscordService{a}, &DraftService{a},
		&InteropService{a}, &ToolsService{a}, &AssistantService{a}, &BackupService{a}, &OrganiseService{a},
		&AttachmentService{a}}
	if a.selfTest() != "" {
		services = append(services, &SelfTestService{a})
	}
	return services
}

// startWait bounds how long Shutdown waits for a Startup still running
// (start-up never waits on the window, so it only ever opens the database
// and starts services).
const startWait = 10 * time.Second

// errNotStarted is returned while the core is not open.
var errNotStarted = apperr.New(apperr.AppStarting, nil)

func (a *App) backend() (*core.Core, error) {
	a.mu.RLock()
	defer a.mu.RUnlock()
	if a.startErr != nil {
		return nil, a.startErr
	}
	if a.core == nil {
		return nil, errNotStarted
	}
	return a.core, nil
}

func (a *App) plat() Platform {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.platform
}

// osLocale returns "ja" when the OS locale is Japanese, else "en".
func osLocale() string { return config.OSLocale(os.Getenv) }
