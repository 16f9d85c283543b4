package discord

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/bwmarrin/discordgo"
)

// dgLog is the logger discordgo's own messages go to (the last bot's
// Options.Log); discordgo.Logger is a package global, set once.
var (
	dgLog     atomic.Pointer[slog.Logger]
	dgLogOnce sync.Once
)

// routeDiscordgoLog sends discordgo's log lines (warnings and errors: the
// sessions log at discordgo.LogWarning) to l instead of the standard
// logger's stderr.
func routeDiscordgoLog(l *slog.Logger) {
	dgLog.Store(l)
	dgLogOnce.Do(func() {
		discordgo.Logger = func(level, _ int, format string, a ...any) {
			lg := dgLog.Load()
			if lg == nil {
				return
			}
			msg := strings.TrimSpace(fmt.Sprintf(format, a...))
			switch level {
			case discordgo.LogError:
				lg.Warn("discordgo", "msg", msg) // the bot reports and retries
			case discordgo.LogWarning:
				lg.Info("discordgo", "msg", msg)
			default:
				lg.Debug("discordgo", "msg", msg)
			}
		}
	})
}
