package cli

import (
	"context"
	"flag"
	"fmt"
	"net"
	"sync"
	"time"

	"playchat/backend/apiserver"
	"playchat/backend/apperr"
	"playchat/backend/config"
	"playchat/backend/core"
)

// TokenEnv overrides API_SERVER_TOKEN for `playchat serve` (scripts and
// services).
const TokenEnv = "PLAYCHAT_API_TOKEN"

// settingsReload is how often `playchat serve` re-reads the settings, so a
// token rotated (or a key changed) in the window applies without a restart.
const settingsReload = 5 * time.Second

// serveCmd runs the OpenAI-compatible API until ctx ends (SIGINT or
// SIGTERM). It runs beside an open window on the same data dir (the
// database is shared in WAL mode; nothing is taken exclusively). Once
// listening it prints "PLAYCHAT_API_URL=http://<addr>/v1" on stdout.
func serveCmd(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	port := fs.Int("port", -1, "TCP port (default API_SERVER_PORT, 8901; 0 picks a free one)")
	listen := fs.String("listen", "", `serve on the local network at ADDR ("0.0.0.0", "192.168.1.20" or with a port, "0.0.0.0:8901"); `+
		`default API_SERVER_LISTEN, else 127.0.0.1 (this computer only)`)
	printToken := fs.Bool("print-token", false, "print the API token (making and saving one if none is set) and exit")
	if pos, err := parseInterspersed(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return usageError{"serve takes no arguments (playchat serve --help lists its flags)"}
	}

	c, err := openCore(ctx, env)
	if err != nil {
		return err
	}
	defer c.Close()
	token, generated, err := apiToken(ctx, c, env.Environ)
	if err != nil {
		return err
	}
	if *printToken {
		fmt.Fprintln(env.Stdout, token)
		return nil
	}
	cfg := c.Config()
	if *port < 0 {
		*port = cfg.APIServerPort
	}
	if *listen == "" {
		*listen = cfg.APIServerListen
	}
	addr, lan, err := apiserver.ListenAddr(*listen, *port)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	c.ReconcileKB(ctx)
	if err := c.KB.Start(ctx); err != nil {
		c.Log.Warn("knowledge base watcher did not start", "err", err)
	}

	var mu sync.Mutex
	current := token
	tokenFn := func() string { mu.Lock(); defer mu.Unlock(); return current }
	srv := c.APIServer(core.APIServerOptions{Token: tokenFn, AnyHost: lan})
	go reloadSettings(ctx, c, env.Environ, func(t string) { mu.Lock(); current = t; mu.Unlock() })

	url := "http://" + ln.Addr().String() + "/v1"
	if lan {
		fmt.Fprintf(env.Stderr, "playchat serve: WARNING: serving on the local network at %s: every machine that can reach it "+
			"and has the token can use your models, keys and knowledge base\n", ln.Addr())
	}
	if generated {
		fmt.Fprintf(env.Stderr, "playchat serve: made a new API token and saved it in Settings (API_SERVER_TOKEN): %s\n", token)
	} else {
		fmt.Fprintf(env.Stderr, "playchat serve: API token %s (playchat serve --print-token shows it)\n", config.Mask(token))
	}
	fmt.Fprintf(env.Stderr, "playchat serve: OpenAI-compatible API at %s; stop with Ctrl+C\n", url)
	fmt.Fprintf(env.Stdout, "PLAYCHAT_API_URL=%s\n", url)
	err = apiserver.Serve(ctx, ln, srv)
	c.Chat.Shutdown(context.Background())
	return err
}

// apiToken is PLAYCHAT_API_TOKEN when set (checked like API_SERVER_TOKEN),
// else API_SERVER_TOKEN, made and saved now when none is set (generated).
func apiToken(ctx context.Context, c *core.Core, environ []string) (token string, generated bool, err error) {
	if t := lookupEnv(environ, TokenEnv); t != "" {
		if err := config.ValidateValue("API_SERVER_TOKEN", t); err != nil {
			return "", false, fmt.Errorf("%s: %w", TokenEnv, err)
		}
		return t, false, nil
	}
	token, generated, err = c.EnsureAPIToken(ctx)
	if err != nil {
		return "", false, apperr.Wrap(apperr.APINoToken, err, nil)
	}
	return token, generated, nil
}

// reloadSettings re-reads the settings every settingsReload until ctx ends
// and hands on the token (unless PLAYCHAT_API_TOKEN fixes it).
func reloadSettings(ctx context.Context, c *core.Core, environ []string, setToken func(string)) {
	fixed := lookupEnv(environ, TokenEnv) != ""
	t := time.NewTicker(settingsReload)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := c.Reload(ctx); err != nil {
			c.Log.Warn("api: reload settings", "err", err)
			continue
		}
		if tok := c.Config().APIServerToken; !fixed && tok != "" {
			setToken(tok)
		}
	}
}
