package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"playchat/backend/config"
	"playchat/backend/core"
	"playchat/backend/mcpclient"
)

// mcpStartWait bounds how long the CLI waits for the user's MCP servers to
// be ready (tools list, ask).
const mcpStartWait = 30 * time.Second

// toolsCmd is `playchat tools import|list` (issue 24): the user's MCP
// servers, shared with the window.
func toolsCmd(ctx context.Context, args []string, env Env) error {
	return dispatch(ctx, "tools", args, env,
		sub{"import", toolsImport},
		sub{"list", toolsList},
	)
}

func toolsImport(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("tools import", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	skip := fs.Bool("skip-refused", false, "import the entries understood even when others are refused")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"tools import takes one FILE (Claude Desktop, Cursor, Claude Code .mcp.json or VS Code mcp.json; - reads stdin)"}
	}
	var data []byte
	if pos[0] == "-" {
		data, err = io.ReadAll(io.LimitReader(env.Stdin, 4<<20))
	} else {
		data, err = os.ReadFile(pos[0])
	}
	if err != nil {
		return err
	}
	dataDir, err := config.DataDir(env.Environ)
	if err != nil {
		return err
	}
	st := mcpclient.NewStore(dataDir)
	res, err := st.Import(data, nil, mcpclient.ImportOptions{SkipRefused: *skip})
	var re *mcpclient.RefusedError
	if errors.As(err, &re) {
		for _, r := range re.Refused {
			fmt.Fprintf(env.Stderr, "refused %s: %s\n", r.Name, r.Reason)
		}
		fmt.Fprintln(env.Stderr, "nothing was imported (--skip-refused imports the others)")
		return errReported
	}
	if err != nil {
		return err
	}
	for _, r := range res.Refused {
		fmt.Fprintf(env.Stderr, "refused %s: %s\n", r.Name, r.Reason)
	}
	for _, n := range res.Added {
		fmt.Fprintln(env.Stdout, "added", n)
	}
	for _, n := range res.Replaced {
		fmt.Fprintln(env.Stdout, "replaced", n)
	}
	return nil
}

func toolsList(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("tools list", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "print a JSON array of servers (name, transport, state, reason, exitCode, stderr, tools with name and modelName, config with secrets masked)")
	noStart := fs.Bool("no-start", false, "do not start the servers (states are then stopped or disabled)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError{"tools list takes no arguments"}
	}
	c, err := openCore(ctx, env)
	if err != nil {
		return err
	}
	defer c.Close()
	if !*noStart {
		startMCP(ctx, c)
	}
	sts, err := c.MCP.Statuses()
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(sts)
	}
	if len(sts) == 0 {
		fmt.Fprintln(env.Stderr, "no MCP servers; add some with: playchat tools import FILE")
		return nil
	}
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	for _, s := range sts {
		state := s.State
		if s.State == mcpclient.StateReady {
			state = fmt.Sprintf("ready, %d tools", len(s.Tools))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Name, s.Transport, state)
		if s.Reason != "" {
			fmt.Fprintf(tw, "\t\t%s\n", s.Reason)
		}
		for _, t := range s.Tools {
			flags := []string{}
			if !t.Enabled {
				flags = append(flags, "off")
			}
			if t.Destructive {
				flags = append(flags, "asks first")
			}
			fmt.Fprintf(tw, "\t%s\t→ %s\t%s\n", t.Name, t.ModelName, strings.Join(flags, ", "))
		}
	}
	return tw.Flush()
}

// startMCP starts the user's servers and waits (bounded) for them.
func startMCP(ctx context.Context, c *core.Core) {
	if err := c.StartMCP(); err != nil {
		c.Log.Warn("MCP servers", "err", err)
		return
	}
	wctx, cancel := context.WithTimeout(ctx, mcpStartWait)
	defer cancel()
	c.MCP.WaitReady(wctx)
}
