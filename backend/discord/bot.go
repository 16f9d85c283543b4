// Package discord is playchat's optional Discord connection (issue 13): a
// bot that answers mentions through the same chat pipeline as the window
// (one playchat session per channel), delivers reminders set from Discord,
// and posts scheduled texts (Split and WebhookPoster live in split.go and
// webhook.go).
package discord

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
	"github.com/jonboulle/clockwork"

	"playchat/backend/apperr"
	"playchat/backend/assistant"
	"playchat/backend/chat"
	"playchat/backend/config"
	"playchat/backend/discord/discordtest"
	"playchat/backend/reminders"
	"playchat/backend/store"
)

// State is the bot's connection state, as the window shows it.
type State string

// The connection states.
const (
	// StateOff: not started, stopped, or stopped trying (a bad token, no token).
	StateOff State = "off"
	// StateConnecting: opening the gateway connection.
	StateConnecting State = "connecting"
	// StateConnected: READY (or RESUMED) received; Status.User names the bot.
	StateConnected State = "connected"
	// StateRetrying: the last attempt failed or the connection dropped; the
	// bot tries again after a backoff (Status.Reason says why).
	StateRetrying State = "retrying"
)

// Status is the connection state with its reason, sent to the window (the
// Settings line and the tray) on every change.
type Status struct {
	State State `json:"state"`
	// User is the bot's name while connected ("" otherwise).
	User string `json:"user"`
	// Reason says in plain English why the bot is off or retrying ("" when
	// there is nothing to say).
	Reason string `json:"reason"`
	// ReasonCode is the apperr code of Reason (discord.badToken,
	// discord.intentsRefused, discord.unreachable, discord.noToken), "" when none.
	ReasonCode string `json:"reasonCode"`
	// Since is when this state began.
	Since time.Time `json:"since"`
}

// Forecaster gives tomorrow's forecast as one Japanese paragraph
// (weather.Service implements it; the same shape as scheduler.Forecaster).
type Forecaster interface {
	TomorrowText(ctx context.Context) (string, error)
}

// TipWriter writes one short "どうでもいいTips" on a topic near hint,
// drawing only on the chats sessionIDs (tagging.Tips implements it; the
// same shape as scheduler.TipWriter).
type TipWriter interface {
	Tip(ctx context.Context, hint string, sessionIDs []string) (string, error)
}

// Options configure a Bot.
type Options struct {
	// Token is DISCORD_BOT_TOKEN (without the "Bot " prefix). "" leaves
	// the bot off with discord.noToken until SetToken gives one.
	Token string
	// DB maps channels to sessions (discord_channels). Required.
	DB *store.DB
	// Chat runs the turns (the window's pipeline). Required.
	Chat *chat.Service
	// Assistants give the channels their assistants (assistant.go; nil:
	// the assistants of DB).
	Assistants *assistant.Service
	// Reminders is the reminders service. The bot does not call it itself:
	// the reminder branch reaches it through Chat's tools (create_reminder,
	// list_reminders, cancel_reminder), which read the turn's Requester.
	// Deliveries come in through Notify.
	Reminders *reminders.Service
	// Config gives REMINDER_MODEL, WEATHER_NOTIFY_MODEL and DEFAULT_MODEL,
	// read at each turn (nil: the session's model or DEFAULT_MODEL as chat
	// chooses).
	Config func() config.Config
	// Weather adds tomorrow's forecast to weather questions (nil: the turn
	// is told the forecast is unavailable).
	Weather Forecaster
	// Tips writes the tip of the small-talk branch (nil: the pointer only).
	Tips TipWriter
	// Log receives connection changes and failures (nil: discarded).
	Log *slog.Logger
	// Clock times the backoff and Status.Since (nil: the real clock).
	Clock clockwork.Clock
	// OnSessionChange, when set, is called with the session id when a
	// Discord turn has stored the user's message (the session may be new)
	// and again when it has stored the reply, so the window can refresh its
	// chat list and the open chat. It must not block.
	OnSessionChange func(sessionID string)
	// APIBase points discordgo at a fake Discord (discordtest.PointAt) when
	// not "". "" reads PLAYCHAT_DISCORD_API (tests and e2e only).
	APIBase string
}

// Backoff bounds of reconnecting after a network failure or a drop.
const (
	// MinBackoff is the wait after the first failed attempt (the first
	// reconnect after a drop is immediate).
	MinBackoff = 2 * time.Second
	// MaxBackoff caps the wait between attempts (also the wait after
	// Discord refused the intents).
	MaxBackoff = 5 * time.Minute
)

// stopWait bounds how long Stop waits for a connection attempt in flight.
const stopWait = 10 * time.Second

// Intents are the gateway intents the bot asks for: guild and direct
// messages, and their content (Message Content is privileged: it must be
// switched on in the Developer Portal, else Discord closes with 4014).
const Intents = discordgo.IntentsGuildMessages | discordgo.IntentsDirectMessages | discordgo.IntentsMessageContent

// Bot is the Discord connection. Create it with New, then Start; it is
// safe for concurrent use.
type Bot struct {
	o     Options
	log   *slog.Logger
	clock clockwork.Clock

	mu        sync.Mutex
	token     string
	status    Status
	statusFns []func(Status)
	readyFns  []func()
	sess      *discordgo.Session
	botID     string
	botName   string
	cancel    context.CancelFunc
	loopDone  chan struct{}
	wake      chan struct{}
	dropped   chan struct{}
	restore   func()
	runCtx    context.Context

	qmu     sync.Mutex
	queues  map[string]*channelQueue
	stopped bool
	workers sync.WaitGroup
}

// New returns a Bot in state off. It needs Options.DB and Options.Chat.
func New(o Options) (*Bot, error) {
	if o.DB == nil || o.Chat == nil {
		return nil, errors.New("discord: New needs Options.DB and Options.Chat")
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.APIBase == "" {
		o.APIBase = os.Getenv("PLAYCHAT_DISCORD_API")
	}
	routeDiscordgoLog(o.Log)
	b := &Bot{o: o, log: o.Log, clock: o.Clock, token: strings.TrimSpace(o.Token),
		wake: make(chan struct{}, 1), dropped: make(chan struct{}, 1), queues: map[string]*channelQueue{}}
	b.status = Status{State: StateOff, Since: o.Clock.Now()}
	return b, nil
}

// Start connects in the background and keeps the connection up until Stop:
// it returns at once (the state goes connecting → connected, or retrying /
// off with the reason). Starting a started bot does nothing.
func (b *Bot) Start(ctx context.Context) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cancel != nil {
		return nil
	}
	if b.o.APIBase != "" && b.restore == nil {
		b.restore = discordtest.PointAt(b.o.APIBase)
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	b.cancel, b.runCtx, b.loopDone = cancel, runCtx, make(chan struct{})
	select { // a SetToken before Start: the first attempt uses that token anyway
	case <-b.wake:
	default:
	}
	b.qmu.Lock()
	b.stopped = false
	b.qmu.Unlock()
	go b.loop(runCtx, b.loopDone)
	return nil
}

// Stop closes the connection, cancels the running turns (their partial
// replies are stored, nothing more is posted) and waits for the channel
// workers; the state becomes off. Stopping a stopped bot does nothing.
func (b *Bot) Stop() error {
	b.mu.Lock()
	cancel, done := b.cancel, b.loopDone
	b.cancel = nil
	b.mu.Unlock()
	if cancel == nil {
		return nil
	}
	cancel()
	hung := false
	select {
	case <-done:
	case <-time.After(stopWait):
		hung = true
		// Open does not watch a context: a gateway that accepted the
		// socket but never says HELLO would hold Stop for ever.
		b.log.Warn("discord: the connection attempt did not end; stopping anyway")
	}
	b.qmu.Lock()
	b.stopped = true
	b.qmu.Unlock()
	b.workers.Wait()
	b.mu.Lock()
	sess := b.sess
	b.sess = nil
	restore := b.restore
	b.restore = nil
	b.mu.Unlock()
	var err error
	switch {
	case sess != nil && hung:
		go sess.Close() // waits for the attempt's lock
	case sess != nil:
		err = sess.Close()
	}
	if restore != nil {
		restore()
	}
	b.setStatus(Status{State: StateOff})
	return err
}

// SetToken changes the bot token: a running bot reconnects with it (a bad
// token stops the retries until the token changes). The same token does
// nothing.
func (b *Bot) SetToken(token string) {
	token = strings.TrimSpace(token)
	b.mu.Lock()
	if token == b.token {
		b.mu.Unlock()
		return
	}
	b.token = token
	sess := b.sess
	b.sess = nil
	b.mu.Unlock()
	if sess != nil {
		go sess.Close()
	}
	b.kick()
}

// Status returns the connection state now.
func (b *Bot) Status() Status {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.status
}

// OnStatus registers fn to be called with every change of Status (in the
// goroutine that made the change; fn must not block or call Stop).
func (b *Bot) OnStatus(fn func(Status)) {
	b.mu.Lock()
	b.statusFns = append(b.statusFns, fn)
	b.mu.Unlock()
}

// OnReady registers fn to be called after each READY or RESUMED, i.e. every
// time the bot becomes connected (in its own goroutine): reminders that
// fell due while it was down can be delivered now.
func (b *Bot) OnReady(fn func()) {
	b.mu.Lock()
	b.readyFns = append(b.readyFns, fn)
	b.mu.Unlock()
}

// setStatus records s (Since is set to now when the state, user or reason
// changes) and calls the OnStatus callbacks.
func (b *Bot) setStatus(s Status) {
	b.mu.Lock()
	old := b.status
	if old.State == s.State && old.User == s.User && old.Reason == s.Reason && old.ReasonCode == s.ReasonCode {
		b.mu.Unlock()
		return
	}
	s.Since = b.clock.Now()
	b.status = s
	fns := append([]func(Status){}, b.statusFns...)
	b.mu.Unlock()
	b.log.Info("discord connection", "state", s.State, "user", s.User, "reason", s.Reason, "code", s.ReasonCode)
	for _, fn := range fns {
		fn(s)
	}
}

// kick wakes the connection loop (a new token).
func (b *Bot) kick() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// session returns the open session and the bot's user id when connected.
func (b *Bot) session() (*discordgo.Session, string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sess, b.botID, b.sess != nil && b.status.State == StateConnected
}

// loop keeps the connection up until ctx ends.
func (b *Bot) loop(ctx context.Context, done chan struct{}) {
	defer close(done)
	failures := 0
	for ctx.Err() == nil {
		b.mu.Lock()
		token := b.token
		b.mu.Unlock()
		if token == "" {
			b.setStatus(statusOf(StateOff, apperr.New(apperr.DiscordNoToken, nil)))
			if !b.waitWake(ctx, 0) {
				return
			}
			continue
		}
		b.setStatus(Status{State: StateConnecting})
		sess, err := b.open(token)
		if ctx.Err() != nil {
			return // stopped while connecting; Stop closes the session
		}
		if err == nil {
			failures = 0
			b.connected(sess)
			select {
			case <-ctx.Done():
				return
			case <-b.dropped:
				// The gateway connection dropped (or Discord asked for a
				// reconnect): try again at once.
				b.setStatus(statusOf(StateRetrying, apperr.New(apperr.DiscordUnreachable, map[string]any{"detail": "the connection dropped"})))
				continue
			case <-b.wake:
				continue // a new token
			}
		}
		reason := classifyConnect(err)
		b.log.Warn("discord connect failed", "err", err)
		switch apperr.CodeOf(reason) {
		case apperr.DiscordBadToken:
			// Trying again cannot help: wait for another token.
			b.dropSession(sess)
			b.setStatus(statusOf(StateOff, reason))
			if !b.waitWake(ctx, 0) {
				return
			}
		case apperr.DiscordIntentsRefused:
			b.dropSession(sess)
			b.setStatus(statusOf(StateRetrying, reason))
			if !b.waitWake(ctx, MaxBackoff) {
				return
			}
		default:
			b.setStatus(statusOf(StateRetrying, reason))
			wait := MinBackoff << min(failures, 10)
			if wait > MaxBackoff {
				wait = MaxBackoff
			}
			failures++
			if !b.waitWake(ctx, wait) {
				return
			}
		}
	}
}

// waitWake waits d (0: until woken), or until SetToken wakes the loop; it
// returns false when ctx ended.
func (b *Bot) waitWake(ctx context.Context, d time.Duration) bool {
	var after <-chan time.Time
	if d > 0 {
		t := b.clock.NewTimer(d)
		defer t.Stop()
		after = t.Chan()
	}
	select {
	case <-ctx.Done():
		return false
	case <-b.wake:
		return true
	case <-after:
		return true
	}
}

// open opens the gateway connection with token, reusing the session of the
// same token (a reconnect resumes it).
func (b *Bot) open(token string) (*discordgo.Session, error) {
	b.mu.Lock()
	sess := b.sess
	b.mu.Unlock()
	if sess == nil {
		s, err := discordgo.New("Bot " + token)
		if err != nil {
			return nil, err
		}
		s.Identify.Intents = Intents
		s.ShouldReconnectOnError = false // the loop reconnects (and knows a bad token)
		s.ShouldReconnectVoiceOnSessionError = false
		s.LogLevel = discordgo.LogWarning
		// Handlers run in the gateway's goroutine, in order, so a channel's
		// mentions queue in the order they were sent (the handlers only queue).
		s.SyncEvents = true
		s.AddHandler(b.onMessageCreate)
		s.AddHandler(func(s *discordgo.Session, _ *discordgo.Disconnect) {
			b.mu.Lock()
			current := b.sess == s
			b.mu.Unlock()
			if current {
				select {
				case b.dropped <- struct{}{}:
				default:
				}
			}
		})
		b.mu.Lock()
		b.sess = s
		b.mu.Unlock()
		sess = s
	}
	// A stale drop from the previous connection must not end this one.
	select {
	case <-b.dropped:
	default:
	}
	err := sess.Open()
	if errors.Is(err, discordgo.ErrWSAlreadyOpen) {
		err = nil
	}
	return sess, err
}

// dropSession forgets a session that cannot connect (its token is refused).
func (b *Bot) dropSession(sess *discordgo.Session) {
	if sess == nil {
		return
	}
	b.mu.Lock()
	if b.sess == sess {
		b.sess = nil
	}
	b.mu.Unlock()
}

// connected records the bot user of sess and runs the OnReady callbacks.
func (b *Bot) connected(sess *discordgo.Session) {
	name, id := "", ""
	if sess.State != nil && sess.State.User != nil {
		name, id = displayName(sess.State.User, nil), sess.State.User.ID
	}
	b.mu.Lock()
	if id != "" {
		b.botID, b.botName = id, name
	}
	name = b.botName
	fns := append([]func(){}, b.readyFns...)
	b.mu.Unlock()
	b.setStatus(Status{State: StateConnected, User: name})
	for _, fn := range fns {
		go fn()
	}
}

// statusOf is a state with the reason err gives.
func statusOf(st State, err error) Status {
	return Status{State: st, Reason: err.Error(), ReasonCode: string(apperr.CodeOf(err))}
}

// classifyConnect turns a failed Open into a coded reason in plain words
// (the raw error is logged, not shown): a refused token (HTTP 401, gateway
// close 4004), refused intents (close 4013/4014), or Discord being
// unreachable.
func classifyConnect(err error) error {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		switch ce.Code {
		case 4004:
			return apperr.New(apperr.DiscordBadToken, nil)
		case 4013, 4014:
			return apperr.New(apperr.DiscordIntentsRefused, nil)
		}
	}
	var re *discordgo.RESTError
	if (errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == 401) || errors.Is(err, discordgo.ErrUnauthorized) {
		return apperr.New(apperr.DiscordBadToken, nil)
	}
	return apperr.New(apperr.DiscordUnreachable, map[string]any{"detail": shorten(err.Error(), 200)})
}

// shorten cuts s to at most n runes.
func shorten(s string, n int) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// displayName is how a person is named in titles and requesters: the
// server nickname, else the global display name, else the user name.
func displayName(u *discordgo.User, m *discordgo.Member) string {
	if m != nil && m.Nick != "" {
		return m.Nick
	}
	if u == nil {
		return ""
	}
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}
