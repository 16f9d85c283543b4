package core

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"playchat/backend/config"
	"playchat/backend/discord"
	"playchat/backend/reminders"
	"playchat/backend/scheduler"
	"playchat/backend/weather"
)

// Discord runs the optional Discord bot and its scheduled posts (issue 13)
// from the configuration, for the window and for `playchat discord run`:
//
//   - the bot (backend/discord) runs while DISCORD_ENABLED is on; with no
//     DISCORD_BOT_TOKEN it reports off with discord.noToken;
//   - the scheduled posts (backend/scheduler: the weather-and-laundry post
//     at WEATHER_NOTIFY_HOUR:MINUTE and the useless tips) go to
//     DISCORD_WEBHOOK_URL, else to DISCORD_NOTIFY_CHANNEL_ID through the
//     bot; with neither, none are posted;
//   - reminders of origin discord reach the bot through Notifier (a slot
//     that waits, with reminders.ErrNotReady, while the bot is off), and
//     each READY kicks the reminder scheduler so reminders that fell due
//     while the bot was down are delivered then.
//
// Apply follows a settings change; Stop ends everything. Safe for
// concurrent use.
type Discord struct {
	c       *Core
	weather *weather.Service
	slot    reminders.NotifierSlot

	mu        sync.Mutex
	ctx       context.Context
	bot       *discord.Bot
	sched     *scheduler.Scheduler
	token     string
	status    discord.Status
	listeners []func(discord.Status)
	stopped   bool
}

// DiscordOptions configure Core.Discord.
type DiscordOptions struct {
	// OnSessionChange is told the session id when a Discord turn stored a
	// message (the window refreshes its chat list); nil ignores it.
	OnSessionChange func(sessionID string)
	// Version goes into the JMA client's User-Agent.
	Version string
}

// NewDiscord builds the runner; nothing connects until Apply.
func (c *Core) NewDiscord(o DiscordOptions) *Discord {
	wo := weather.OptionsFromConfig(c.Config())
	wo.Log, wo.Version = c.Log, o.Version
	wo.BaseURL = weather.BaseURLFromEnviron(c.environ)
	d := &Discord{c: c, weather: weather.NewService(wo),
		status: discord.Status{State: discord.StateOff}}
	bot, err := discord.New(discord.Options{
		DB: c.DB, Chat: c.Chat, Assistants: c.Assistants, Reminders: c.Reminders, Config: c.Config,
		Weather: d.weather, Tips: c.Tips, Log: c.Log.With("component", "discord"),
		OnSessionChange: o.OnSessionChange,
	})
	if err != nil { // only when a required option is missing: a programming error
		c.Log.Error("discord: new bot", "err", err)
		return d
	}
	d.bot = bot
	bot.OnStatus(d.setStatus)
	bot.OnReady(c.KickReminders)
	return d
}

// Notifier is the reminders.Notifier of origin-discord reminders: the bot
// while it runs, else reminders.ErrNotReady (the reminder waits).
func (d *Discord) Notifier() reminders.Notifier { return &d.slot }

// Weather is the JMA forecast service the bot and the posts use.
func (d *Discord) Weather() *weather.Service { return d.weather }

// Status is the bot's connection state now.
func (d *Discord) Status() discord.Status {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.status
}

// OnStatus registers fn to run on every change of Status (on the bot's
// goroutine; fn must not block).
func (d *Discord) OnStatus(fn func(discord.Status)) {
	d.mu.Lock()
	d.listeners = append(d.listeners, fn)
	d.mu.Unlock()
}

func (d *Discord) setStatus(s discord.Status) {
	d.mu.Lock()
	if d.stopped {
		s = discord.Status{State: discord.StateOff, Since: s.Since}
	}
	d.status = s
	ls := append([]func(discord.Status){}, d.listeners...)
	d.mu.Unlock()
	for _, fn := range ls {
		fn(s)
	}
}

// Apply starts, restarts or stops the bot and the scheduled posts to match
// cfg. The first call also sets ctx as the context they run in. Errors are
// reported in Status (the bot) and the log (the posts), never returned:
// a wrong setting must not stop the window.
func (d *Discord) Apply(ctx context.Context, cfg config.Config) {
	d.weather.Reconfigure(cfg)
	d.mu.Lock()
	if d.stopped || d.bot == nil {
		d.mu.Unlock()
		return
	}
	if d.ctx == nil {
		d.ctx = ctx
	}
	ctx = d.ctx
	bot := d.bot
	on := cfg.DiscordEnabled
	token := strings.TrimSpace(cfg.DiscordBotToken)
	changed := token != d.token
	d.token = token
	d.mu.Unlock()

	if changed {
		bot.SetToken(token) // a running bot reconnects with it
	}
	if on {
		if err := bot.Start(ctx); err != nil {
			d.c.Log.Warn("discord: start", "err", err)
		}
		d.slot.Set(bot)
	} else {
		d.slot.Set(nil)
		if err := bot.Stop(); err != nil {
			d.c.Log.Warn("discord: stop", "err", err)
		}
		if d.Status().State != discord.StateOff {
			d.setStatus(discord.Status{State: discord.StateOff, Since: time.Now()})
		}
	}
	d.applyPosts(ctx, cfg, on)
}

// applyPosts starts, re-arms or stops the scheduled posts.
func (d *Discord) applyPosts(ctx context.Context, cfg config.Config, on bool) {
	var poster scheduler.Poster
	// A tip draws on the chat of the channel it is posted to, never on the
	// window's own chats (issue 21); a webhook's channel has no chat here.
	var tipSessions func(context.Context) []string
	switch {
	case !on:
	case strings.TrimSpace(cfg.DiscordWebhookURL) != "":
		poster = discord.WebhookPoster{URL: cfg.DiscordWebhookURL}
	case strings.TrimSpace(cfg.DiscordNotifyChannelID) != "":
		channel := strings.TrimSpace(cfg.DiscordNotifyChannelID)
		poster = discord.ChannelPoster{Bot: d.bot, ChannelID: channel}
		tipSessions = func(ctx context.Context) []string { return discord.ChannelSessions(ctx, d.c.DB, channel) }
	}
	d.mu.Lock()
	old := d.sched
	d.sched = nil
	d.mu.Unlock()
	if old != nil {
		if err := old.Stop(); err != nil {
			d.c.Log.Warn("discord: stop scheduled posts", "err", err)
		}
	}
	if poster == nil {
		return
	}
	s, err := scheduler.New(scheduler.Options{Poster: poster, Forecaster: d.weather, Tips: d.c.Tips, TipSessions: tipSessions,
		Location: d.c.Reminders.Zone(), Log: d.c.Log.With("component", "discord-posts"), Guard: d.c.Guard})
	if err == nil {
		err = s.Configure(scheduler.Settings{Hour: cfg.WeatherNotifyHour, Minute: cfg.WeatherNotifyMinute,
			TipsEveryHours: cfg.UselessTipsIntervalHours})
	}
	if err == nil {
		err = s.Start(ctx)
	}
	if err != nil {
		d.c.Log.Warn("discord: scheduled posts", "err", err)
		return
	}
	d.mu.Lock()
	if d.stopped {
		d.mu.Unlock()
		_ = s.Stop()
		return
	}
	d.sched = s
	d.mu.Unlock()
}

// PostTip posts one useless tip now where the scheduled posts go (a "post
// now"; the tips job does the same every USELESS_TIPS_INTERVAL_HOURS). It
// draws only on that channel's own chat. Errors: errNoPosts when the posts
// are off (no DISCORD_ENABLED, or neither a webhook nor a notify channel),
// else the scheduler's.
func (d *Discord) PostTip(ctx context.Context) error {
	d.mu.Lock()
	s := d.sched
	d.mu.Unlock()
	if s == nil {
		return errNoPosts
	}
	return s.PostTip(ctx)
}

// errNoPosts: the scheduled posts are off.
var errNoPosts = errors.New("discord: the scheduled posts are off (no webhook or notify channel, or the bot is off)")

// Stop ends the bot and the posts and waits for them; later Apply calls
// do nothing.
func (d *Discord) Stop() error {
	d.mu.Lock()
	d.stopped = true
	bot, s := d.bot, d.sched
	d.sched = nil
	d.mu.Unlock()
	d.slot.Set(nil)
	var errs []error
	if s != nil {
		errs = append(errs, s.Stop())
	}
	if bot != nil {
		errs = append(errs, bot.Stop())
	}
	return errors.Join(errs...)
}
