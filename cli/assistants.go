package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"playchat/backend/assistant"
	"playchat/backend/atomicfile"
	"playchat/backend/chat"
	"playchat/backend/core"
	"playchat/backend/store"
)

// assistantsCmd is `playchat assistants list|export|import`.
func assistantsCmd(ctx context.Context, args []string, env Env) error {
	return dispatch(ctx, "assistants", args, env,
		sub{"list", assistantsList},
		sub{"export", assistantsExport},
		sub{"import", assistantsImport},
	)
}

func assistantsList(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("assistants list", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "print a JSON array")
	if _, err := parseInterspersed(fs, args); err != nil {
		return err
	}
	c, err := openCore(ctx, env)
	if err != nil {
		return err
	}
	defer c.Close()
	all, err := c.Assistants.List(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(all)
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tICON\tNAME\tMODEL\tDESCRIPTION")
	for _, a := range all {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", a.ID, oneLine(a.Icon), oneLine(a.Name), oneLine(firstNonEmpty(a.Settings.Model, "-")), oneLine(a.Description))
	}
	return tw.Flush()
}

func assistantsExport(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("assistants export", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	out := fs.String("o", "", "write to FILE instead of stdout")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	c, err := openCore(ctx, env)
	if err != nil {
		return err
	}
	defer c.Close()
	var ids []int64
	for _, name := range pos {
		a, err := c.Assistants.Find(ctx, name)
		if err != nil {
			return err
		}
		ids = append(ids, a.ID)
	}
	data, err := c.Assistants.ExportJSON(ctx, ids)
	if err != nil {
		return err
	}
	if *out == "" || *out == "-" {
		_, err = env.Stdout.Write(data)
		return err
	}
	return atomicfile.Write(*out, data, 0o600)
}

func assistantsImport(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("assistants import", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"assistants import needs exactly one FILE"}
	}
	var r io.Reader = env.Stdin
	if pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	file, err := assistant.ParseFile(r) // validated before the database is opened
	if err != nil {
		return err
	}
	c, err := openCore(ctx, env)
	if err != nil {
		return err
	}
	defer c.Close()
	got, err := c.Assistants.Import(ctx, file)
	if err != nil {
		return err
	}
	for _, a := range got {
		fmt.Fprintf(env.Stdout, "imported %d %s\n", a.ID, oneLine(a.Name))
	}
	return nil
}

// askSettings are the chat-settings flags of `playchat ask`.
type askSettings struct {
	assistant, system, temperature string
	systemSet                      bool
}

// parseTemperature reads --temperature ("" = not given).
func (a askSettings) parseTemperature() (*float64, error) {
	if strings.TrimSpace(a.temperature) == "" {
		return nil, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(a.temperature), 64)
	if err != nil || v < 0 || v > store.MaxTemperature {
		return nil, usageError{fmt.Sprintf("--temperature %q: want a number from 0 to 2", a.temperature)}
	}
	return &v, nil
}

// apply fills req from the flags: a new chat copies the assistant and then
// takes --system and --temperature over it; an existing chat (--session)
// gets the assistant's current version applied and the flags stored, so
// later turns keep them.
func (a askSettings) apply(ctx context.Context, c *core.Core, req *chat.TurnRequest) error {
	temp, err := a.parseTemperature()
	if err != nil {
		return err
	}
	if a.assistant == "" && !a.systemSet && temp == nil {
		return nil
	}
	var cp *assistant.Copy
	if a.assistant != "" {
		as, err := c.Assistants.Find(ctx, a.assistant)
		if err != nil {
			return err
		}
		x := assistant.CopyOf(as)
		cp = &x
	}
	if req.SessionID == "" {
		cs := store.ChatSettings{}
		if cp != nil {
			cs = cp.Settings
			req.NotePageIDs = cp.NotePageIDs
			req.AssistantID, req.AssistantVersion = cp.AssistantID, cp.Version
		}
		if a.systemSet {
			cs.SystemPrompt = a.system
		}
		if temp != nil {
			cs.Temperature = temp
		}
		req.ChatSettings = &cs
		return nil
	}
	if cp != nil {
		if _, err := c.Assistants.Apply(ctx, req.SessionID, cp.AssistantID); err != nil {
			return err
		}
	}
	cs, err := c.DB.SessionSettings(ctx, req.SessionID)
	if err != nil {
		return err
	}
	if a.systemSet {
		cs.SystemPrompt = a.system
	}
	if temp != nil {
		cs.Temperature = temp
	}
	_, err = c.DB.SetSessionSettings(ctx, req.SessionID, cs)
	return err
}
