// Command fakediscord runs the discordtest fake Discord as a process for the
// end-to-end script:
//
//	fakediscord -addr 127.0.0.1:0 -token T [-ready-file F]
//
// It prints its base URL (e.g. http://127.0.0.1:PORT) on stdout, writes it to
// -ready-file when given (atomically, once listening), and serves the REST API,
// the gateway and the control API (POST /_control/message, GET /_control/calls,
// POST /_control/drop, POST /_control/delete-channel, GET /_control/status; see
// discordtest.Server.ControlHandler) until SIGINT/SIGTERM. Point the app at it
// with PLAYCHAT_DISCORD_API=<base URL> and use the same token.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"playchat/backend/discord/discordtest"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr, nil); err != nil {
		fmt.Fprintln(os.Stderr, "fakediscord:", err)
		os.Exit(1)
	}
}

// run starts the fake and serves until a signal arrives (or stop is closed, for tests).
func run(args []string, stdout, stderr io.Writer, stop <-chan struct{}) error {
	fs := flag.NewFlagSet("fakediscord", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "listen address")
	token := fs.String("token", discordtest.DefaultToken, "bot token to accept (without \"Bot \")")
	readyFile := fs.String("ready-file", "", "write the base URL to this file once listening")
	verbose := fs.Bool("v", false, "log gateway events to stderr")
	if err := fs.Parse(args); err != nil {
		return err
	}
	o := discordtest.Options{Token: *token, Control: true}
	if *verbose {
		o.Logf = log.New(stderr, "", log.LstdFlags).Printf
	}
	srv, err := discordtest.Listen(*addr, o)
	if err != nil {
		return err
	}
	defer srv.Close()
	if *readyFile != "" {
		if err := writeAtomic(*readyFile, srv.URL+"\n"); err != nil {
			return err
		}
	}
	fmt.Fprintln(stdout, srv.URL)

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	select {
	case <-sig:
	case <-stop:
	}
	return nil
}

// writeAtomic writes text to path through a temporary file and a rename, so a
// watcher never reads half a URL.
func writeAtomic(path, text string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".fakediscord-*")
	if err != nil {
		return err
	}
	if _, err := tmp.WriteString(text); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
