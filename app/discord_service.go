package app

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"playchat/backend/core"
	"playchat/backend/discord"
)

// Events of the Discord connection (issue 13).
const (
	// EventDiscordStatus carries a DiscordStatus on every change of the
	// bot's connection.
	EventDiscordStatus = "discord:status"
	// EventSessionChanged: a session changed outside the window (a Discord
	// turn stored a message or its reply); data is the session id. The
	// window refreshes its chat list and, when that chat is open, its
	// messages.
	EventSessionChanged = "sessions:changed"
)

// DiscordService tells the window about the optional Discord bot.
type DiscordService struct{ app *App }

// DiscordStatus is the bot's connection state (discord.Status for the
// window).
type DiscordStatus struct {
	// State is off, connecting, connected or retrying.
	State string `json:"state"`
	// User is the bot's name while connected.
	User string `json:"user"`
	// Reason says in plain English why it is off or retrying ("" when
	// there is nothing to say).
	Reason string `json:"reason"`
	// ReasonCode is the reason's error code (discord.badToken, …), which
	// the window words in its language; "" when none.
	ReasonCode string `json:"reasonCode"`
	// Since is when the state began (RFC 3339), "" when unknown.
	Since string `json:"since"`
}

func toDiscordStatus(s discord.Status) DiscordStatus {
	out := DiscordStatus{State: string(s.State), User: s.User, Reason: s.Reason, ReasonCode: s.ReasonCode}
	if out.State == "" {
		out.State = string(discord.StateOff)
	}
	if !s.Since.IsZero() {
		out.Since = s.Since.UTC().Format(time.RFC3339)
	}
	return out
}

// Status returns the bot's state now (off before start-up finished).
func (s *DiscordService) Status() (DiscordStatus, error) {
	if _, err := s.app.backend(); err != nil {
		return DiscordStatus{}, err
	}
	d := s.app.discordRunner()
	if d == nil {
		return toDiscordStatus(discord.Status{State: discord.StateOff}), nil
	}
	return toDiscordStatus(d.Status()), nil
}

// discordState holds the window's Discord runner (its own lock: Startup
// holds App.mu while it starts the services).
type discordState struct {
	mu     sync.Mutex
	runner *core.Discord
	ctx    context.Context
	// closing is set at shutdown: the last state changes are not sent to
	// a window that is being destroyed.
	closing bool
}

func (a *App) discordClosing() bool {
	a.disc.mu.Lock()
	defer a.disc.mu.Unlock()
	return a.disc.closing
}

func (a *App) discordRunner() *core.Discord {
	a.disc.mu.Lock()
	defer a.disc.mu.Unlock()
	return a.disc.runner
}

// newDiscord builds the Discord runner before the reminder scheduler starts
// (its Notifier takes the reminders set on Discord). Nothing connects until
// startDiscord.
func (a *App) newDiscord(ctx context.Context, c *core.Core) *core.Discord {
	d := c.NewDiscord(core.DiscordOptions{Version: Version,
		OnSessionChange: func(id string) {
			if !a.discordClosing() {
				a.emit(EventSessionChanged, id)
				a.trim.Poke() // a Discord turn's garbage, as a window turn's (webview/idle_trim.go)
			}
		}})
	d.OnStatus(func(s discord.Status) {
		if a.discordClosing() {
			return
		}
		a.emit(EventDiscordStatus, toDiscordStatus(s))
		if t := a.trayIcon(); t != nil {
			t.Refresh()
		}
	})
	a.disc.mu.Lock()
	a.disc.runner, a.disc.ctx = d, ctx
	a.disc.mu.Unlock()
	return d
}

// applyDiscord starts, restarts or stops the bot and the scheduled posts to
// match the saved settings (at start-up and after every save).
func (a *App) applyDiscord(c *core.Core) {
	a.disc.mu.Lock()
	d, ctx := a.disc.runner, a.disc.ctx
	a.disc.mu.Unlock()
	if d != nil {
		d.Apply(ctx, c.Config())
	}
}

// stopDiscord ends the bot before the core closes: running Discord turns
// are cancelled and store their partial replies.
func (a *App) stopDiscord() {
	a.disc.mu.Lock()
	a.disc.closing = true
	d := a.disc.runner
	a.disc.mu.Unlock()
	if d != nil {
		if err := d.Stop(); err != nil {
			slog.Warn("discord stop", "err", err)
		}
	}
}

// discordTrayLine is the tray menu's status line: "" while the bot is off
// and not switched on (nothing to say), else its state in lang.
func (a *App) discordTrayLine(lang string) string {
	d := a.discordRunner()
	if d == nil {
		return ""
	}
	s := d.Status()
	ja := lang == "ja"
	switch s.State {
	case discord.StateConnected:
		if ja {
			return fmt.Sprintf("Discord: %s として接続中", s.User)
		}
		return fmt.Sprintf("Discord: connected as %s", s.User)
	case discord.StateConnecting:
		if ja {
			return "Discord: 接続中…"
		}
		return "Discord: connecting…"
	case discord.StateRetrying:
		if ja {
			return "Discord: 未接続（再試行中）"
		}
		return "Discord: not connected, retrying"
	}
	if s.ReasonCode == "" || s.ReasonCode == "discord.noToken" {
		return ""
	}
	if ja {
		return "Discord: オフ（設定を確認してください）"
	}
	return "Discord: off (check Settings)"
}

// Channels lists the Discord channels for Settings → Discord: those the
// bot talks in and those given an assistant, each with its assistant (0:
// none).
func (s *DiscordService) Channels() ([]discord.Channel, error) {
	c, err := s.app.backend()
	if err != nil {
		return nil, err
	}
	return discord.Channels(context.Background(), c.DB)
}

// SetChannelAssistant gives Discord channel channelID (a channel id, also
// one the bot has not answered in yet) assistant assistantID, 0 for none;
// it applies to the channel's chat at once. It returns the channels.
func (s *DiscordService) SetChannelAssistant(channelID string, assistantID int64) ([]discord.Channel, error) {
	c, err := s.app.backend()
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	if err := discord.SetChannelAssistant(ctx, c.DB, c.Assistants, channelID, assistantID); err != nil {
		return nil, err
	}
	return discord.Channels(ctx, c.DB)
}
