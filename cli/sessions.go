package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"playchat/backend/atomicfile"
	"playchat/backend/session"
	"playchat/backend/store"
)

func sessions(ctx context.Context, args []string, env Env) error {
	return dispatch(ctx, "sessions", args, env,
		sub{"list", sessionsList},
		sub{"search", sessionsSearch},
		sub{"export", sessionsExport},
		sub{"import", sessionsImport},
	)
}

func sessionsList(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("sessions list", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "print a JSON array")
	folder := fs.String("folder", "", `only the chats in this folder ("/" for the top level)`)
	archived := fs.Bool("archived", false, "only the archived chats")
	all := fs.Bool("all", false, "archived chats too")
	if _, err := parseInterspersed(fs, args); err != nil {
		return err
	}
	c, err := openCore(ctx, env)
	if err != nil {
		return err
	}
	defer c.Close()
	filter := store.SessionFilter{Archived: *archived, All: *all && !*archived}
	folders, err := c.DB.Folders(ctx)
	if err != nil {
		return err
	}
	names := map[int64]string{}
	for _, f := range folders {
		names[f.ID] = f.Name
	}
	if *folder == "/" {
		top := int64(0)
		filter.Folder = &top
	} else if *folder != "" {
		f, err := c.DB.FolderByName(ctx, *folder)
		if err != nil {
			return err
		}
		filter.Folder = &f.ID
	}
	ss, err := c.DB.ListPlacedSessions(ctx, filter)
	if err != nil {
		return err
	}
	rows := make([]listedSession, len(ss))
	for i, s := range ss {
		rows[i] = listedSession{Summary: session.SummaryOf(s.Session), Pinned: s.Place.PinnedAt != nil, Archived: s.Place.ArchivedAt != nil}
		if s.Place.FolderID != nil {
			rows[i].Folder = names[*s.Place.FolderID]
		}
	}
	// Pinned chats first, as in the window.
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Pinned && !rows[j].Pinned })
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUPDATED\tMODEL\tFOLDER\tTITLE")
	for _, r := range rows {
		title := oneLine(r.Title)
		if r.Pinned {
			title = "[pinned] " + title
		}
		if r.Archived {
			title = "[archived] " + title
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", oneLine(r.ID), r.UpdatedAt.Local().Format("2006-01-02 15:04"), oneLine(r.Model), oneLine(r.Folder), title)
	}
	return tw.Flush()
}

// listedSession is a row of `sessions list`: the summary and its place.
type listedSession struct {
	session.Summary
	Pinned   bool   `json:"pinned"`
	Folder   string `json:"folder,omitempty"`
	Archived bool   `json:"archived"`
}

func sessionsExport(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("sessions export", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	out := fs.String("o", "", "write to FILE instead of stdout")
	format := fs.String("format", session.FormatJSON, "md (Markdown), html (one self-contained page) or json (lossless)")
	folder := fs.String("folder", "", "export every chat of folder NAME as one .zip archive (one file per chat)")
	idList := fs.String("ids", "", "export the chats ID,ID,… as one .zip archive (one file per chat)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	many := *folder != "" || *idList != ""
	switch {
	case *folder != "" && *idList != "":
		return usageError{"sessions export takes --folder or --ids, not both"}
	case many && len(pos) != 0:
		return usageError{"sessions export --folder/--ids takes no session ID"}
	case !many && len(pos) != 1:
		return usageError{"sessions export needs exactly one session ID (or --folder NAME, or --ids ID,ID,…)"}
	}
	switch *format {
	case session.FormatJSON, session.FormatMarkdown, session.FormatHTML:
	default:
		return usageError{fmt.Sprintf("sessions export --format %q: use md, html or json", *format)}
	}
	c, err := openCore(ctx, env)
	if err != nil {
		return err
	}
	defer c.Close()
	opts := session.ExportOptions{Location: time.Local}
	if many {
		return sessionsExportArchive(ctx, c.DB, *folder, *idList, *format, *out, opts, env)
	}
	data, _, err := session.ExportAs(ctx, c.DB, pos[0], *format, opts)
	if err != nil {
		return err
	}
	if *out == "" || *out == "-" {
		_, err = env.Stdout.Write(data)
		return err
	}
	return atomicfile.Write(*out, data, 0o600)
}

// sessionsExportArchive writes the chats of folder (by name) or of the
// comma-separated ids as one zip archive to out (stdout when "" or "-").
func sessionsExportArchive(ctx context.Context, db *store.DB, folder, idList, format, out string, opts session.ExportOptions, env Env) error {
	var ids []string
	if folder != "" {
		f, err := db.FolderByName(ctx, folder)
		if err != nil {
			return err
		}
		if ids, err = session.FolderChats(ctx, db, f.ID); err != nil {
			return err
		}
	} else {
		ids = strings.Split(idList, ",")
	}
	var buf bytes.Buffer
	res, err := session.ExportArchive(ctx, db, ids, format, &buf, opts)
	if err != nil {
		return err
	}
	if out == "" || out == "-" {
		_, err = env.Stdout.Write(buf.Bytes())
	} else {
		err = atomicfile.Write(out, buf.Bytes(), 0o600)
	}
	if err == nil {
		fmt.Fprintf(env.Stderr, "exported %d chats (%d files)\n", res.Chats, len(res.Files))
	}
	return err
}

func sessionsImport(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("sessions import", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	from := fs.String("from", session.FromAuto, "format of FILE: native (a playchat session file), chatgpt or claude (their conversations.json), or auto (the default: told apart by its content)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"sessions import needs exactly one FILE"}
	}
	var r io.Reader
	if pos[0] == "-" {
		r = env.Stdin
	} else {
		f, err := os.Open(pos[0])
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	// Validate before opening the database, so a broken file touches nothing.
	parsed, err := session.ParseAny(r, *from)
	if err != nil {
		return err
	}
	c, err := openCore(ctx, env)
	if err != nil {
		return err
	}
	defer c.Close()
	res, err := session.ImportParsed(ctx, c.DB, parsed)
	if err != nil {
		return err
	}
	if res.Format == session.FromNative {
		fmt.Fprintf(env.Stderr, "imported %d messages and %d memories\n", res.Messages, res.Memories)
		fmt.Fprintln(env.Stdout, res.Session.ID)
		return nil
	}
	fmt.Fprintf(env.Stderr, "imported %d sessions with %d messages from %s (%d placeholders for images, attachments and tool traces; skipped %d system, hidden or empty messages and %d empty conversations; %d other branches kept as versions)\n",
		res.Sessions, res.Messages, res.Format, res.Placeholders, res.Skipped, res.SkippedConversations, res.Branches)
	if res.Truncated > 0 {
		fmt.Fprintf(env.Stderr, "cut %d messages at the %d MiB limit of one message (each ends with a \"[message cut: …]\" marker)\n",
			res.Truncated, session.MaxMessageBytes>>20)
	}
	fmt.Fprintln(env.Stdout, res.Session.ID)
	return nil
}
