package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"path/filepath"

	"playchat/backend/apperr"
	"playchat/backend/config"
	"playchat/backend/core"
	"playchat/backend/discord"
	"playchat/backend/reminders"
)

func discordCmd(ctx context.Context, args []string, env Env) error {
	if len(args) == 0 {
		return usageError{"discord needs a subcommand: run"}
	}
	if isHelp(args[0]) {
		return helpRequested{cmd: "discord"}
	}
	if args[0] != "run" {
		return usageError{fmt.Sprintf("unknown discord subcommand %q", args[0])}
	}
	return discordRun(ctx, args[1:], env)
}

// discordRun runs the Discord bot headless (a server without a desktop):
// the bot, its scheduled posts, the reminders set on Discord and the
// background tagger, until ctx ends (SIGINT or SIGTERM). It logs to stderr.
// It takes the data dir exclusively, like the window (two bots on one
// token would both answer). A token Discord refuses ends it with status 1.
func discordRun(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("discord run", flag.ContinueOnError)
	debug := fs.Bool("debug", false, "log at debug level")
	if pos, err := parseInterspersed(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return usageError{"discord run takes no arguments"}
	}
	lg := env.Logger
	if lg == nil {
		level := slog.LevelInfo
		if *debug {
			level = slog.LevelDebug
		}
		lg = slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: level}))
	}
	c, err := core.Open(ctx, core.Options{Environ: env.Environ, Logger: lg, Exclusive: true})
	if err != nil {
		return err
	}
	defer c.Close()
	if cerr := c.ConfigError(); cerr != nil {
		return &ConfigError{Err: cerr, DotEnv: filepath.Join(c.DataDir, config.DotEnvFile)}
	}
	cfg := c.Config()
	if cfg.DiscordBotToken == "" {
		return apperr.New(apperr.DiscordNoToken, nil)
	}
	cfg.DiscordEnabled = true // running this command is the switch

	refused := make(chan discord.Status, 1)
	d := c.NewDiscord(core.DiscordOptions{Version: Version})
	d.OnStatus(func(s discord.Status) {
		lg.Info("discord: "+string(s.State), "user", s.User, "reason", s.Reason, "code", s.ReasonCode)
		if s.ReasonCode == string(apperr.DiscordBadToken) {
			select {
			case refused <- s:
			default:
			}
		}
	})
	// Reminders set on Discord go out through the bot; the window's own
	// reminders wait for the window (no desktop side here).
	if err := c.StartReminders(ctx, reminders.RouteNotifier{Discord: d.Notifier()}); err != nil {
		return err
	}
	c.Tags.Start(ctx)
	d.Apply(ctx, cfg)
	lg.Info("discord: running; stop with Ctrl+C or SIGTERM", "data", c.DataDir)

	var runErr error
	select {
	case <-ctx.Done():
	case s := <-refused:
		runErr = errors.New(s.Reason)
	}
	if err := d.Stop(); err != nil {
		lg.Warn("discord: stop", "err", err)
	}
	lg.Info("discord: stopped")
	return runErr
}
