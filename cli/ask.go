package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"playchat/backend/apperr"
	"playchat/backend/attach"
	"playchat/backend/chat"
	"playchat/backend/config"
	"playchat/backend/event"
	"playchat/backend/store"
)

// ask runs one turn. Plain mode streams the reply to stdout and prints the
// session id on stderr; --json prints every event as one JSON object a line.
func ask(ctx context.Context, args []string, env Env) error {
	fs := flag.NewFlagSet("ask", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	sessionID := fs.String("session", "", "continue this session (default: a new one)")
	model := fs.String("model", "", `model as "provider/model" (default: the session's, else DEFAULT_MODEL)`)
	asJSON := fs.Bool("json", false, "print the event stream as JSON lines")
	var set askSettings
	fs.StringVar(&set.assistant, "assistant", "", "start the chat from this assistant (a name or id; with --session: apply its current version)")
	fs.Func("system", "the chat's own system prompt (stored with the chat)", func(v string) error {
		set.system, set.systemSet = v, true
		return nil
	})
	fs.StringVar(&set.temperature, "temperature", "", "the chat's temperature, 0 to 2 (stored with the chat)")
	var files []string
	fs.Func("attach", "attach a file to the message: an image or a text file (repeatable)", func(v string) error {
		files = append(files, v)
		return nil
	})
	fit := fs.Bool("fit", false, "when an attached document does not fit the model, send only the part that fits (its first pages or characters, said so to the model) instead of refusing the message")
	// Every failure in --json mode is a JSON error event, even one before
	// the flags are read or the message is (issue 22).
	em := &printer{w: env.Stdout, errw: env.Stderr, json: wantsJSON(args)}
	pos, err := parseInterspersed(fs, args)
	var help helpRequested
	if errors.As(err, &help) {
		return err
	}
	if err != nil {
		return em.fatal(err)
	}
	em.json = *asJSON
	text := strings.Join(pos, " ")
	// Every file is prepared (and may be refused) before anything is
	// stored; a message of attachments alone needs no text.
	var attached []attach.Prepared
	for _, f := range files {
		p, err := attach.PrepareFile(f)
		if err != nil {
			return em.fatal(err)
		}
		attached = append(attached, p)
	}
	if (text == "" && len(attached) == 0) || text == "-" {
		if text, err = readAllText(env.Stdin); err != nil {
			return em.fatal(err)
		}
	}

	c, err := openCore(ctx, env)
	if err != nil {
		return em.fatal(err)
	}
	defer c.Close() // waits for the background summary
	em.settle = c.FlushAPILogs
	c.ReconcileKB(ctx)
	startMCP(ctx, c) // the enabled MCP servers' tools, as the window offers them

	req := chat.TurnRequest{SessionID: *sessionID, Text: text, Model: *model, Attachments: attached, FitAttachments: *fit}
	if err := set.apply(ctx, c, &req); err != nil {
		return em.fatal(err)
	}
	turn, err := c.Chat.Start(ctx, req, em)
	if errors.Is(err, chat.ErrNoModel) {
		err = noModelError{dotEnv: filepath.Join(c.DataDir, config.DotEnvFile)}
	}
	if apperr.CodeOf(err) == apperr.ChatAttachmentTooLong {
		err = tooLongHint{err: err, fit: *fit}
	}
	if err != nil {
		return em.fatal(err)
	}
	if !em.json {
		for _, f := range turn.UserMessage.Files {
			if part := sentPart(f); part != "" {
				fmt.Fprintf(env.Stderr, "sent: %s of %s\n", part, f.Name)
			}
		}
	}
	stop := context.AfterFunc(ctx, func() { c.Chat.Stop(turn.ID) })
	defer stop()
	res := turn.Wait()
	if res.Err != nil {
		return errReported // the error event was printed
	}
	return nil
}

// noModelError is chat.ErrNoModel (code chat.noModel) worded for the
// terminal: the window's wording points at its model picker.
type noModelError struct{ dotEnv string }

func (e noModelError) Error() string {
	return "no model is configured: pass --model provider/model (e.g. --model openai/gpt-4o-mini), " +
		"or set DEFAULT_MODEL in " + e.dotEnv + " or the environment"
}

func (e noModelError) Unwrap() error { return chat.ErrNoModel }

// tooLongHint is apperr.ChatAttachmentTooLong worded for the terminal: the
// window's offer is --fit here, and with --fit already given (nothing of
// some document fits) the way left is the knowledge base.
type tooLongHint struct {
	err error
	fit bool
}

func (e tooLongHint) Error() string {
	if e.fit {
		return e.err.Error() + " — not even the first page or line of every document fits, so --fit cannot send a part: " +
			"put the file in the knowledge base folder instead (playchat kb import --source DIR)"
	}
	return e.err.Error() + " — run again with --fit to send only the part that fits"
}

func (e tooLongHint) Unwrap() error { return e.err }

// sentPart is the part of document f a message sent ("pages 1-20 of 40",
// "characters 1-15000 of 40000"), "" when all of it went.
func sentPart(f store.MessageFile) string {
	switch {
	case f.SentPages > 0 && f.Pages > f.SentPages:
		return attach.PagesPart(f.SentPages, f.Pages)
	case f.SentChars > 0:
		return attach.CharsPart(f.SentChars, utf8.RuneCountInString(f.Text))
	}
	return ""
}

// printer is the CLI's event.Emitter.
type printer struct {
	mu      sync.Mutex
	w, errw io.Writer
	json    bool
	wrote   bool // plain mode: some chunk was printed
	// settle, when set, runs before a turn's last event (done or error)
	// is written: core.FlushAPILogs, so that a process killed as soon as
	// it reads "done" has the call's api_logs record, written in the
	// background, stored already.
	settle func()
}

func (p *printer) Emit(e event.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if (e.Type == event.Done || e.Type == event.Error) && p.settle != nil {
		p.settle()
	}
	if p.json {
		var b []byte
		var err error
		if e.Type == event.Error {
			b, err = json.Marshal(jsonError(e.Value))
		} else {
			b, err = json.Marshal(e)
		}
		if err != nil {
			b, _ = json.Marshal(jsonError(err))
		}
		p.w.Write(append(b, '\n'))
		return
	}
	switch e.Type {
	case event.SessionID:
		fmt.Fprintf(p.errw, "session: %v\n", e.Value)
	case event.Chunk:
		s, _ := e.Value.(string)
		io.WriteString(p.w, s)
		p.wrote = p.wrote || s != ""
	case event.Tool:
		if a, ok := e.Value.(event.ToolActivity); ok && a.Status == "running" {
			fmt.Fprintf(p.errw, "[%s] %s\n", firstNonEmpty(a.Label, a.Name), a.Detail)
		}
	case event.Done:
		if p.wrote {
			io.WriteString(p.w, "\n")
		}
	case event.Error:
		if p.wrote {
			io.WriteString(p.w, "\n")
		}
		fmt.Fprintf(p.errw, "playchat: %v\n", e.Value)
	}
}

// fatal reports an error that ended the command before or outside a turn,
// as an error event in JSON mode (a usage error still exits 2).
func (p *printer) fatal(err error) error {
	if p.json {
		p.Emit(event.Event{Type: event.Error, Value: err})
		var ue usageError
		if errors.As(err, &ue) {
			return usageReported{}
		}
		return errReported
	}
	return err
}

// wantsJSON reports whether args ask for --json (read before the flags are
// parsed, so a flag error is a JSON event too).
func wantsJSON(args []string) bool {
	for _, a := range args {
		switch a {
		case "--json", "-json", "--json=true", "-json=true":
			return true
		case "--":
			return false
		}
	}
	return false
}

// errorLine is an error event in --json mode: the English text as value and
// its apperr code ("" when the error has none).
type errorLine struct {
	Type  event.Type  `json:"type"`
	Value string      `json:"value"`
	Code  apperr.Code `json:"code"`
}

// jsonError makes the errorLine of an error event's value: an apperr.Info
// (a turn's error event), an error, or anything else (printed with %v).
func jsonError(v any) errorLine {
	var in apperr.Info
	switch x := v.(type) {
	case apperr.Info:
		in = x
	case error:
		in = apperr.InfoOf(x)
	default:
		in = apperr.Info{Message: fmt.Sprint(v)}
	}
	return errorLine{Type: event.Error, Value: in.Message, Code: in.Code}
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
