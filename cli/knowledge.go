package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strconv"
	"text/tabwriter"

	"playchat/backend/core"
	"playchat/backend/knowledge"
)

// knowledgeCmd is `playchat knowledge list|show|delete` (issue 11): the
// learned knowledge web searches left behind.
func knowledgeCmd(ctx context.Context, args []string, env Env) error {
	return dispatch(ctx, "knowledge", args, env,
		sub{"list", knowledgeList},
		sub{"show", knowledgeShow},
		sub{"delete", knowledgeDelete},
	)
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

// openEntry parses the ID argument of cmd ("knowledge show", …), opens the
// core and reads that entry; the caller closes the core (also on error,
// when it is not nil).
func openEntry(ctx context.Context, cmd string, args []string, env Env) (*core.Core, knowledge.Entry, error) {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, knowledge.Entry{}, err
	}
	id, err := knowledgeID(cmd, pos)
	if err != nil {
		return nil, knowledge.Entry{}, err
	}
	c, err := openCore(ctx, env)
	if err != nil {
		return nil, knowledge.Entry{}, err
	}
	e, err := c.Knowledge.Get(ctx, id)
	return c, e, err
}

func knowledgeShow(ctx context.Context, args []string, env Env) error {
	c, e, err := openEntry(ctx, "knowledge show", args, env)
	if c != nil {
		defer c.Close()
	}
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
	c, e, err := openEntry(ctx, "knowledge delete", args, env)
	if c != nil {
		defer c.Close()
	}
	if err != nil {
		return err
	}
	if err := c.Knowledge.Delete(ctx, e.ID); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "deleted: [%d] %s (and %s)\n", e.ID, oneLine(e.Heading), e.File)
	return nil
}
