package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strconv"
	"text/tabwriter"

	"playchat/backend/knowledge"
)

// knowledgeCmd is `playchat knowledge list|show|delete` (issue 11): the
// learned knowledge web searches left behind.
func knowledgeCmd(ctx context.Context, args []string, env Env) error {
	if len(args) == 0 {
		return usageError{"knowledge needs a subcommand: list, show or delete"}
	}
	if isHelp(args[0]) {
		return helpRequested{cmd: "knowledge"}
	}
	switch args[0] {
	case "list":
		return knowledgeList(ctx, args[1:], env)
	case "show":
		return knowledgeShow(ctx, args[1:], env)
	case "delete":
		return knowledgeDelete(ctx, args[1:], env)
	}
	return usageError{fmt.Sprintf("unknown knowledge subcommand %q", args[0])}
}

func knowledgeList(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("knowledge list", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "print a JSON array (id, query, heading, body, model, provider, file, contentHash, fetchedAt, createdAt)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError{"knowledge list takes no arguments"}
	}
	c, err := openCore(ctx, env)
	if err != nil {
		return err
	}
	defer c.Close()
	es, err := c.Knowledge.List(ctx, 0)
	if err != nil {
		return err
	}
	if *asJSON {
		for i := range es {
			es[i].Sources = []knowledge.Source{}
		}
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(es)
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tFETCHED\tQUERY\tHEADING")
	for _, e := range es {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", e.ID, e.FetchedAt.Local().Format("2006-01-02 15:04"), oneLine(e.Query), oneLine(e.Heading))
	}
	return tw.Flush()
}

func knowledgeID(cmd string, pos []string) (int64, error) {
	if len(pos) != 1 {
		return 0, usageError{cmd + " needs exactly one entry ID"}
	}
	id, err := strconv.ParseInt(pos[0], 10, 64)
	if err != nil || id <= 0 {
		return 0, usageError{fmt.Sprintf("%s: %q is not an entry ID", cmd, pos[0])}
	}
	return id, nil
}

func knowledgeShow(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("knowledge show", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	id, err := knowledgeID("knowledge show", pos)
	if err != nil {
		return err
	}
	c, err := openCore(ctx, env)
	if err != nil {
		return err
	}
	defer c.Close()
	e, err := c.Knowledge.Get(ctx, id)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "# [%d] %s\n\nquery: %s\nfetched: %s (%s, %s)\nfile: %s\n\n", e.ID, e.Heading, e.Query,
		e.FetchedAt.Local().Format("2006-01-02 15:04"), e.Provider, e.Model, e.File)
	fmt.Fprintln(env.Stdout, e.Body)
	fmt.Fprintln(env.Stdout, "## Sources")
	fmt.Fprintln(env.Stdout)
	for i, s := range e.Sources {
		fmt.Fprintf(env.Stdout, "%d. %s\n   %s\n", i+1, s.Title, s.URL)
	}
	return nil
}

func knowledgeDelete(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("knowledge delete", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	id, err := knowledgeID("knowledge delete", pos)
	if err != nil {
		return err
	}
	c, err := openCore(ctx, env)
	if err != nil {
		return err
	}
	defer c.Close()
	e, err := c.Knowledge.Get(ctx, id)
	if err != nil {
		return err
	}
	if err := c.Knowledge.Delete(ctx, id); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "deleted: [%d] %s (and %s)\n", e.ID, oneLine(e.Heading), e.File)
	return nil
}
