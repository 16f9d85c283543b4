// Package cli is playchat's terminal interface: `playchat ask`, `playchat
// sessions …`. It runs the same backend core as the window and prints the
// same turn events.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"playchat/backend/apperr"
	"playchat/backend/chat"
	"playchat/backend/config"
	"playchat/backend/core"
	"playchat/backend/interop"
	"playchat/backend/redact"
)

// Env is what a command may touch: its arguments' streams and environment.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Environ        []string
	// Logger overrides the data dir's log file (tests).
	Logger *slog.Logger
}

// Version is set by main.
var Version = "dev"

// Run executes one command and returns the process exit status: 0 on
// success, 1 when the command failed, 2 on a usage error. Everything it
// prints goes through a safeWriter: no control character from stored text
// reaches the terminal.
func Run(ctx context.Context, args []string, env Env) int {
	rawOut := env.Stdout // `playchat mcp` writes protocol frames, not text for a terminal
	stdout, stderr := newSafeWriter(env.Stdout), newSafeWriter(env.Stderr)
	defer stdout.Flush()
	defer stderr.Flush()
	env.Stdout, env.Stderr = stdout, stderr
	if len(args) == 0 {
		usage(env.Stderr)
		return 2
	}
	var err error
	switch args[0] {
	case "ask":
		err = ask(ctx, args[1:], env)
	case "sessions":
		err = sessions(ctx, args[1:], env)
	case "assistants":
		err = assistantsCmd(ctx, args[1:], env)
	case "kb":
		err = kbCmd(ctx, args[1:], env)
	case "reminders":
		err = remindersCmd(ctx, args[1:], env)
	case "knowledge":
		err = knowledgeCmd(ctx, args[1:], env)
	case "weather":
		err = weatherCmd(ctx, args[1:], env)
	case "discord":
		err = discordCmd(ctx, args[1:], env)
	case "mcp":
		raw := env
		raw.Stdout = rawOut
		err = mcpCmd(ctx, args[1:], raw)
	case "serve":
		err = serveCmd(ctx, args[1:], env)
	case "tools":
		err = toolsCmd(ctx, args[1:], env)
	case "backup":
		err = backupCmd(ctx, args[1:], env)
	case "version", "--version", "-version":
		fmt.Fprintln(env.Stdout, "playchat", Version)
	case "help", "-h", "--help", "-help":
		usage(env.Stdout)
	default:
		fmt.Fprintln(env.Stderr, "playchat:", unknownCommand(args[0]))
		fmt.Fprintln(env.Stderr)
		usage(env.Stderr)
		return 2
	}
	var ue usageError
	var help helpRequested
	switch {
	case err == nil:
		return 0
	case args[0] != "mcp" && wantsJSON(args[1:]) && !errors.Is(err, errReported) &&
		!errors.As(err, new(usageReported)) && !errors.As(err, &help):
		// In --json mode every failure is a JSON error event on stdout, as
		// `ask --json` prints one (issue 22): a script reading the output
		// gets {"type":"error","value":…,"code":…} instead of nothing.
		line := jsonError(err)
		line.Value = redact.URLCredentials(line.Value)
		if b, merr := json.Marshal(line); merr == nil {
			fmt.Fprintln(env.Stdout, string(b))
		}
		if errors.As(err, &ue) {
			return 2
		}
		return 1
	case errors.As(err, &help):
		help.print(env.Stdout)
		return 0
	case errors.As(err, &ue):
		fmt.Fprintln(env.Stderr, "playchat:", err)
		return 2
	case errors.Is(err, errReported):
		return 1
	case errors.As(err, new(usageReported)):
		return 2
	default:
		fmt.Fprintln(env.Stderr, "playchat:", redact.URLCredentials(err.Error()))
		return 1
	}
}

// errReported means the command already printed its error.
var errReported = errors.New("reported")

// usageReported is a usage error already printed (as a JSON event): exit 2,
// nothing more printed.
type usageReported struct{}

func (usageReported) Error() string { return "usage error (reported)" }

type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usage(w io.Writer) {
	fmt.Fprint(w, `playchat — a desktop LLM chat app with a memory.

Usage:
  playchat                                   open the window
  playchat ask [--session ID] [--model M] [--assistant NAME] [--system TEXT] [--temperature X] [--json] TEXT
                                             run one chat turn; TEXT "-" or none reads stdin; --assistant,
                                             --system and --temperature set the chat's own settings
  playchat sessions list [--json] [--folder NAME|/] [--archived|--all]
                                             list sessions, pinned first, then most recent first
                                             (--folder /: the top level; archived chats only with --archived or --all)
  playchat sessions search [--json] [--limit N] [--session ID] [--from DAY] [--to DAY] QUERY
                                             find messages of every chat holding every word of QUERY
  playchat sessions export ID [--format md|html|json] [-o FILE]
                                             write a session (stdout without -o): json (the default, lossless:
                                             every branch, memories, tags), md or html (the branch shown, for
                                             reading; html is one self-contained page without script)
  playchat sessions import [--from auto|native|chatgpt|claude] FILE
                                             import a session file ("-" reads stdin) as a new session,
                                             or ChatGPT's or Claude's conversations.json as sessions
  playchat assistants list [--json]          the assistants, in the user's order
  playchat assistants export [NAME…] [-o FILE]
                                             write assistants (all without NAME) as JSON
  playchat assistants import FILE            add the assistants of a JSON file ("-" reads stdin)
  playchat kb status [--json]                index status of the knowledge base folder
  playchat kb reindex                        rebuild the knowledge base index
  playchat kb search [--json] [--limit N] QUERY
                                             search the knowledge base (rank, path, score, excerpt)
  playchat kb import --source DIR [--dest SUBDIR] [--mirror] [--dry-run]
                                             copy a folder's .md files into the knowledge base
  playchat reminders list [--json] [--all]   pending reminders (--all: also delivered, failed, cancelled)
  playchat reminders add --at TIME [--repeat RULE] TEXT
                                             set a reminder at a local TIME (2026-12-01T09:00[:30]),
                                             repeating by an RFC 5545 RULE (FREQ=DAILY); the window fires it
  playchat reminders cancel ID               cancel a reminder and its repeats
  playchat knowledge list [--json]           learned knowledge from web searches, newest first
  playchat knowledge show ID                 one entry: heading, key points, dates, sources
  playchat knowledge delete ID               delete an entry and its Markdown file
  playchat weather [--office CODE] [--area A] [--from FILE] [--json]
                                             tomorrow's JMA forecast and laundry index (洗濯指数);
                                             --from reads a saved forecast document (tomorrow after its report)
  playchat discord run [--debug]             run the Discord bot headless (logs to stderr; stops on SIGTERM)
  playchat mcp [--allow-write] [--share-notes] [--http 127.0.0.1:PORT]
                                             serve the knowledge base, chats, memories and learned knowledge to
                                             other tools over MCP (stdio; --http: streamable HTTP with a token)
  playchat serve [--port N] [--listen ADDR] [--print-token]
                                             an OpenAI-compatible API (/v1/models, /v1/chat/completions) on
                                             127.0.0.1 (--listen 0.0.0.0 serves the local network); every
                                             request needs the token (API_SERVER_TOKEN or PLAYCHAT_API_TOKEN)
  playchat tools import [--skip-refused] FILE
                                             add MCP servers from a Claude Desktop / Cursor / Claude Code
                                             (mcpServers) or VS Code (servers) JSON file; - reads stdin
  playchat tools list [--json] [--no-start]  the MCP servers, their state, tools and the names sent to the model
  playchat backup create [-o FILE|DIR] [--include-keys] [--passphrase-file F]
                                             back up the database, knowledge base and settings (default: into
                                             BACKUP_DIR); --include-keys adds API keys and encrypts the archive
                                             (passphrase from PLAYCHAT_BACKUP_PASSPHRASE, F or stdin)
  playchat backup restore FILE [--yes] [--passphrase-file F]
                                             verify FILE, then replace the data with it (the current data moves
                                             to restore-safety/ in the data dir; with the window open, at its
                                             next start)
  playchat backup list [--json]              backups in BACKUP_DIR (and WebDAV) and the last backup's result
  playchat version

Configuration comes from defaults, <data dir>/.env, the environment and the
settings saved in the window (highest). PLAYCHAT_DATA_DIR sets the data dir.
`)
}

// helpRequested is returned by a command asked for its help (-h, --help or
// help): Run prints the command's usage lines and flags to stdout and exits 0.
type helpRequested struct {
	cmd string        // "ask", "kb search", …
	fs  *flag.FlagSet // nil for a command with subcommands
}

func (h helpRequested) Error() string { return "help requested for " + h.cmd }

func (h helpRequested) print(w io.Writer) {
	var b strings.Builder
	usage(&b)
	fmt.Fprintln(w, "Usage:")
	prefix := "  playchat " + h.cmd
	keep := false
	for line := range strings.SplitSeq(b.String(), "\n") {
		switch {
		case strings.HasPrefix(line, prefix+" ") || line == prefix:
			keep = true
		case strings.HasPrefix(line, "  playchat"), !strings.HasPrefix(line, "    "):
			keep = false
		}
		if keep {
			fmt.Fprintln(w, line)
		}
	}
	if h.fs != nil {
		fmt.Fprintln(w, "\nFlags:")
		out := h.fs.Output()
		h.fs.SetOutput(w)
		h.fs.PrintDefaults()
		h.fs.SetOutput(out)
	}
}

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool {
	switch arg {
	case "-h", "--help", "-help", "help":
		return true
	}
	return false
}

// parseInterspersed parses flags that may come before, between or after the
// positional arguments, and returns the positionals. -h or --help returns a
// helpRequested error (Run prints the command's help and exits 0).
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	// The flag package would print the error and every flag to stderr; Run
	// prints the error once, with a pointer to --help.
	out := fs.Output()
	fs.SetOutput(io.Discard)
	defer fs.SetOutput(out)
	for {
		if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
			return nil, helpRequested{cmd: fs.Name(), fs: fs}
		} else if err != nil {
			return nil, usageError{fmt.Sprintf("%v (playchat %s --help lists its flags)", err, fs.Name())}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// openCore opens the backend for one command. An invalid configuration value
// (from .env, the environment or the saved settings) stops the command: the
// window can start with one and show it, but a command would run with a
// default the user did not choose.
func openCore(ctx context.Context, env Env) (*core.Core, error) {
	c, err := core.Open(ctx, core.Options{Environ: env.Environ, Logger: env.Logger})
	if err != nil {
		return nil, err
	}
	if cerr := c.ConfigError(); cerr != nil {
		dir := c.DataDir
		c.Close()
		return nil, &ConfigError{Err: cerr, DotEnv: filepath.Join(dir, config.DotEnvFile)}
	}
	mirrorMemories(c)
	return c, nil
}

// mirrorMemories writes new memories as learned documents while
// MEMORY_MIRROR_LEARNED is on (interop.Service.MirrorMemories).
func mirrorMemories(c *core.Core) {
	if svc, err := interop.FromCore(c, nil, nil, nil); err == nil {
		c.Summarizer.SetOnArchive(svc.MirrorMemories(func() bool { return c.Config().MemoryMirrorLearned }))
	}
}

// ConfigError stops a command whose configuration has invalid values. Err
// joins one *config.ValueError per value (each names the key, where it was
// set and what is wrong; secrets are never shown).
type ConfigError struct {
	Err    error
	DotEnv string // the .env file of the data dir, named in the message
}

func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString("invalid configuration; fix or remove these values and run again (")
	b.WriteString(e.DotEnv)
	b.WriteString(", the environment, or Settings in the window):")
	for line := range strings.SplitSeq(e.Err.Error(), "\n") {
		b.WriteString("\n  ")
		b.WriteString(line)
	}
	return b.String()
}

func (e *ConfigError) Unwrap() error { return e.Err }

func readAllText(r io.Reader) (string, error) {
	if r == nil {
		r = os.Stdin
	}
	b, err := io.ReadAll(io.LimitReader(r, chat.MaxMessageBytes+1))
	if len(b) > chat.MaxMessageBytes {
		return "", apperr.New(apperr.ChatMessageTooLong, map[string]any{"bytes": len(b), "maxMiB": chat.MaxMessageBytes >> 20})
	}
	return strings.TrimRight(string(b), "\n"), err
}
