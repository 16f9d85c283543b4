package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"playchat/backend/store"
)

// sessionsSearch prints the messages of every session (or of --session)
// holding every word of QUERY, the most recently stored first: the hits of
// the window's search (Ctrl+K), with the matches «marked» in each excerpt,
// or as a JSON array with --json. Dates are local days; --to is inclusive.
func sessionsSearch(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("sessions search", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "print a JSON array of hits")
	limit := fs.Int("limit", 20, fmt.Sprintf("number of hits (1–%d)", store.MaxSearchLimit))
	sessionID := fs.String("session", "", "search only the session with this ID")
	from := fs.String("from", "", "only messages from this day on (YYYY-MM-DD, local time)")
	to := fs.String("to", "", "only messages up to and including this day (YYYY-MM-DD, local time)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	query := strings.TrimSpace(strings.Join(pos, " "))
	if query == "" {
		return usageError{"sessions search needs a QUERY"}
	}
	if *limit < 1 || *limit > store.MaxSearchLimit {
		return usageError{fmt.Sprintf("--limit must be between 1 and %d", store.MaxSearchLimit)}
	}
	q := store.MessageSearch{Text: query, SessionID: strings.TrimSpace(*sessionID), Limit: *limit}
	if q.From, err = localDay("--from", *from, 0); err != nil {
		return err
	}
	if q.To, err = localDay("--to", *to, 1); err != nil {
		return err
	}
	c, err := openCore(ctx, env)
	if err != nil {
		return err
	}
	defer c.Close()
	hits, err := c.DB.SearchMessages(ctx, q)
	if errors.Is(err, store.ErrEmptySearch) {
		return usageError{"sessions search needs a word to look for"}
	}
	if err != nil {
		return err
	}
	if *asJSON {
		if hits == nil {
			hits = []store.MessageHit{}
		}
		return printJSON(env.Stdout, hits)
	}
	if len(hits) == 0 {
		fmt.Fprintln(env.Stdout, "no messages match")
		return nil
	}
	for _, h := range hits {
		title := h.SessionTitle
		if title == "" {
			title = "(untitled)"
		}
		fmt.Fprintf(env.Stdout, "%s  %s  #%d  %s  %s\n", h.CreatedAt.Local().Format("2006-01-02 15:04"),
			oneLine(h.SessionID), h.MessageID, oneLine(h.Role), oneLine(title))
		fmt.Fprintf(env.Stdout, "   %s\n", oneLine(h.ExcerptText("«", "»")))
	}
	return nil
}

// localDay parses a YYYY-MM-DD day as local midnight, plus addDays days
// (1 turns an inclusive last day into the exclusive end); "" is no bound.
func localDay(flagName, v string, addDays int) (time.Time, error) {
	if strings.TrimSpace(v) == "" {
		return time.Time{}, nil
	}
	d, err := time.ParseInLocation("2006-01-02", strings.TrimSpace(v), time.Local)
	if err != nil {
		return time.Time{}, usageError{fmt.Sprintf("%s wants a day as YYYY-MM-DD, not %q", flagName, v)}
	}
	return d.AddDate(0, 0, addDays), nil
}
