package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"playchat/backend/core"
	"playchat/backend/kb"
)

// kbCmd runs `playchat kb status|reindex|search|import`.
func kbCmd(ctx context.Context, args []string, env Env) error {
	return dispatch(ctx, "kb", args, env,
		sub{"status", kbStatus},
		sub{"reindex", kbReindex},
		sub{"search", kbSearch},
		sub{"import", kbImport},
	)
}

// withKB opens the core and the knowledge base for one command.
func withKB(ctx context.Context, env Env, fn func(c *core.Core, s *kb.Service) error) error {
	c, err := openCore(ctx, env)
	if err != nil {
		return err
	}
	defer c.Close()
	return fn(c, c.KB)
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func kbStatus(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("kb status", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := parseInterspersed(fs, args); err != nil {
		return err
	}
	return withKB(ctx, env, func(_ *core.Core, s *kb.Service) error {
		stale, err := s.Stale(ctx)
		if err != nil {
			return err
		}
		st, err := s.Status(ctx)
		if err != nil {
			return err
		}
		st.Pending = stale
		if *asJSON {
			return printJSON(env.Stdout, st)
		}
		w := env.Stdout
		fmt.Fprintf(w, "folder:     %s\n", st.Root)
		fmt.Fprintf(w, "indexed:    %d documents\n", st.Indexed)
		fmt.Fprintf(w, "pending:    %d (new, changed or removed files not indexed yet; the running app, kb search or kb reindex index them)\n", st.Pending)
		fmt.Fprintf(w, "failed:     %d\n", len(st.Failed))
		for _, f := range st.Failed {
			fmt.Fprintf(w, "  %s: %s\n", oneLine(f.Path), oneLine(f.Error))
		}
		last := "never"
		if !st.LastIndexedAt.IsZero() {
			last = st.LastIndexedAt.Local().Format("2006-01-02 15:04:05")
		}
		fmt.Fprintf(w, "last index: %s\n", last)
		if st.EmbeddingModel == "" {
			fmt.Fprintln(w, "embeddings: off (EMBEDDING_MODEL is empty): lexical search only")
		} else {
			fmt.Fprintf(w, "embeddings: %s, %d documents embedded, %d sections pending\n", st.EmbeddingModel, st.Embedded, st.EmbeddingPending)
		}
		return nil
	})
}

// embedForCLI computes missing embeddings; a failure is a warning (lexical
// search still works).
func embedForCLI(ctx context.Context, s *kb.Service, env Env) {
	if n, err := s.EmbedPending(ctx); err != nil {
		fmt.Fprintf(env.Stderr, "playchat: warning: embeddings not updated (%v); lexical search still works\n", err)
	} else if n > 0 {
		fmt.Fprintf(env.Stderr, "embedded %d sections\n", n)
	}
}

func kbReindex(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("kb reindex", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if _, err := parseInterspersed(fs, args); err != nil {
		return err
	}
	return withKB(ctx, env, func(_ *core.Core, s *kb.Service) error {
		rep, err := s.Reindex(ctx)
		if err != nil {
			return err
		}
		embedForCLI(ctx, s, env)
		if *asJSON {
			return printJSON(env.Stdout, rep)
		}
		fmt.Fprintf(env.Stdout, "reindexed %s: %d documents, %d removed, %d failed in %v\n",
			rep.Root, rep.Indexed+rep.Touched, rep.Removed, rep.Failed, rep.Duration.Round(time.Millisecond))
		return nil
	})
}

func kbSearch(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("kb search", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "print a JSON array of hits")
	limit := fs.Int("limit", 10, "number of results (1–100)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	query := strings.TrimSpace(strings.Join(pos, " "))
	if query == "" {
		return usageError{"kb search needs a QUERY"}
	}
	if *limit < 1 || *limit > 100 {
		return usageError{"--limit must be between 1 and 100"}
	}
	return withKB(ctx, env, func(_ *core.Core, s *kb.Service) error {
		if _, err := s.Reconcile(ctx); err != nil {
			return err
		}
		embedForCLI(ctx, s, env)
		hits, err := s.Search(ctx, query, *limit)
		if err != nil {
			return err
		}
		if *asJSON {
			if hits == nil {
				hits = []kb.Hit{}
			}
			return printJSON(env.Stdout, hits)
		}
		if len(hits) == 0 {
			fmt.Fprintln(env.Stdout, "no documents match")
			return nil
		}
		for _, h := range hits {
			fmt.Fprintf(env.Stdout, "%d. %s  score %.4f  %s\n", h.Rank, oneLine(h.Path), h.Score, oneLine(h.Title))
			if h.Excerpt != "" {
				fmt.Fprintf(env.Stdout, "   %s\n", oneLine(h.Excerpt))
			}
		}
		return nil
	})
}

func kbImport(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("kb import", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	source := fs.String("source", "", "folder to copy .md files from (required)")
	dest := fs.String("dest", "", "folder inside the knowledge base to copy into (default: the source folder's name)")
	mirror := fs.Bool("mirror", false, "also remove .md files of the destination that the source no longer has")
	dryRun := fs.Bool("dry-run", false, "only report what would change")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if *source == "" || len(pos) > 0 {
		return usageError{"usage: playchat kb import --source DIR [--dest SUBDIR] [--mirror] [--dry-run]"}
	}
	sub := *dest
	if sub == "" {
		abs, err := filepath.Abs(*source)
		if err != nil {
			return err
		}
		sub = filepath.Base(abs)
	}
	if !filepath.IsLocal(sub) || (sub == "." && *mirror) {
		return usageError{fmt.Sprintf("--dest %q must be a folder inside the knowledge base (and not its root with --mirror)", sub)}
	}
	return withKB(ctx, env, func(c *core.Core, s *kb.Service) error {
		if _, err := s.Stale(ctx); err != nil { // creates and seeds the folder on first use
			return err
		}
		dst := filepath.Join(s.Root(), sub)
		rep, err := kb.Import(ctx, *source, dst, kb.ImportOptions{Mirror: *mirror, DryRun: *dryRun})
		if err != nil {
			return err
		}
		if *asJSON {
			return printJSON(env.Stdout, rep)
		}
		copyVerb, removeVerb := "copied", "removed"
		if rep.DryRun {
			copyVerb, removeVerb = "would copy", "would remove"
		}
		fmt.Fprintf(env.Stdout, "%s %d new and %d changed %s (%d bytes) into %s; %d unchanged\n",
			copyVerb, len(rep.Copied), len(rep.Updated), plural(len(rep.Copied)+len(rep.Updated), "file", "files"), rep.Bytes, dst, rep.Unchanged)
		if *mirror {
			fmt.Fprintf(env.Stdout, "%s %d %s gone from the source\n", removeVerb, len(rep.Removed), plural(len(rep.Removed), "file", "files"))
			for _, p := range rep.Removed {
				fmt.Fprintf(env.Stdout, "  %s %s\n", removeVerb, p)
			}
		}
		for _, sk := range rep.Skipped {
			fmt.Fprintf(env.Stdout, "skipped %s\n", sk)
		}
		if rep.DryRun {
			return nil
		}
		// Index what was copied now, so status and search reflect it.
		idx, err := s.Reconcile(ctx)
		if err != nil {
			return err
		}
		embedForCLI(ctx, s, env)
		fmt.Fprintf(env.Stdout, "indexed: %d new or changed, %d removed, %d failed\n", idx.Indexed, idx.Removed, idx.Failed)
		return nil
	})
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
