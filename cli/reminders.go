package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"playchat/backend/reminders"
)

func remindersCmd(ctx context.Context, args []string, env Env) error {
	return dispatch(ctx, "reminders", args, env,
		sub{"list", remindersList},
		sub{"add", remindersAdd},
		sub{"cancel", remindersCancel},
	)
}

// reminderRow is one reminder in `reminders list --json`.
type reminderRow struct {
	ID      int64  `json:"id"`
	Content string `json:"content"`
	// DueAt is the next firing in UTC (RFC 3339); DueLocal the same in Zone.
	DueAt    time.Time `json:"dueAt"`
	DueLocal string    `json:"dueLocal"`
	Zone     string    `json:"zone"`
	Repeat   string    `json:"repeat"`
	State    string    `json:"state"`
	Late     bool      `json:"late"`
	Error    string    `json:"error"`
	// Note says how the last delivery reached the person only in part
	// ("no notification service": shown in the window only).
	Note        string     `json:"note"`
	Origin      string     `json:"origin"`
	SessionID   string     `json:"sessionId"`
	NotifiedAt  *time.Time `json:"notifiedAt"`
	CancelledAt *time.Time `json:"cancelledAt"`
	// SeenAt is when the person saw or acknowledged the last delivery.
	SeenAt *time.Time `json:"seenAt"`
}

func rowOf(r reminders.Reminder) reminderRow {
	return reminderRow{ID: r.ID, Content: r.Content, DueAt: r.DueAt.UTC(),
		DueLocal: r.DueAt.In(r.Location()).Format("2006-01-02T15:04:05Z07:00"), Zone: r.Zone,
		Repeat: r.Repeat(), State: string(r.State), Late: r.Late, Error: r.Error, Note: r.Note, Origin: r.Origin,
		SessionID: r.SessionID, NotifiedAt: r.NotifiedAt, CancelledAt: r.CancelledAt, SeenAt: r.SeenAt}
}

func remindersList(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("reminders list", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "print a JSON array")
	all := fs.Bool("all", false, "include delivered, failed and cancelled reminders")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError{"reminders list takes no arguments"}
	}
	c, err := openCore(ctx, env)
	if err != nil {
		return err
	}
	defer c.Close()
	rs, err := c.Reminders.List(ctx, reminders.ListOptions{All: *all})
	if err != nil {
		return err
	}
	rows := make([]reminderRow, len(rs))
	for i, r := range rs {
		rows[i] = rowOf(r)
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tDUE\tZONE\tREPEAT\tSTATE\tTEXT")
	for _, r := range rs {
		state := string(r.State)
		if r.Late {
			state += " (late)"
		}
		if r.Note != "" {
			state += " (" + r.Note + ")"
		}
		if r.Error != "" {
			// A Discord reminder being retried, or one that failed: why.
			if r.Attempts > 0 && r.Active() {
				state += fmt.Sprintf(" (retrying after %d failed attempts: %s)", r.Attempts, oneLine(r.Error))
			} else {
				state += " (" + oneLine(r.Error) + ")"
			}
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.DueAt.In(r.Location()).Format("2006-01-02 15:04:05 Mon"),
			oneLine(r.Zone), oneLine(r.Repeat()), state, oneLine(r.Content))
	}
	return tw.Flush()
}

func remindersAdd(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("reminders add", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	at := fs.String("at", "", "local date-time it is due, e.g. 2026-12-01T09:00 or 2026-12-01T09:00:30 (an offset such as +09:00 may follow)")
	repeat := fs.String("repeat", "", "RFC 5545 RRULE to repeat by at the same local time, e.g. FREQ=DAILY or FREQ=WEEKLY;BYDAY=MO")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if *at == "" {
		return usageError{"reminders add needs --at TIME"}
	}
	text := strings.TrimSpace(strings.Join(pos, " "))
	if text == "" {
		return usageError{"reminders add needs the reminder's TEXT"}
	}
	c, err := openCore(ctx, env)
	if err != nil {
		return err
	}
	defer c.Close()
	r, err := c.Reminders.Create(ctx, reminders.NewReminder{Content: text, Due: *at, Repeat: *repeat, Origin: reminders.OriginDesktop})
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, reminders.Describe(r))
	return nil
}

func remindersCancel(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("reminders cancel", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"reminders cancel needs exactly one reminder ID"}
	}
	id, err := strconv.ParseInt(pos[0], 10, 64)
	if err != nil || id <= 0 {
		return usageError{fmt.Sprintf("reminders cancel: %q is not a reminder ID", pos[0])}
	}
	c, err := openCore(ctx, env)
	if err != nil {
		return err
	}
	defer c.Close()
	r, err := c.Reminders.Cancel(ctx, id)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, "cancelled: "+reminders.Describe(r))
	return nil
}
