package notes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"playchat/backend/store"
	"playchat/backend/tools"
)

// Tool names, as the model calls them.
const (
	ReadNoteTool  = "read_note"
	WriteNoteTool = "write_note"
)

// Write modes of write_note.
const (
	ModeAppend  = "append"
	ModeReplace = "replace"
	ModeCreate  = "create"
)

// maxListedTitles caps the page list in an error result.
const maxListedTitles = 50

const readNoteSchema = `{
  "type": "object",
  "properties": {
    "page_id": {"type": "integer", "description": "The page id, as shown in the notes index ([id N]). Preferred over title."},
    "title": {"type": "string", "description": "The page title, when you do not know the id. Exact match first, then case-insensitive."}
  },
  "additionalProperties": false
}`

const writeNoteSchema = `{
  "type": "object",
  "properties": {
    "mode": {"type": "string", "enum": ["append", "replace", "create"], "description": "append: add content to the end of an existing page. replace: replace the whole content of an existing page. create: make a new page (title required)."},
    "page_id": {"type": "integer", "description": "append/replace: the page id from the notes index ([id N]). Preferred over title."},
    "title": {"type": "string", "description": "create: the new page's title (one line, at most 200 characters). append/replace: the page to change, when you do not know the id."},
    "content": {"type": "string", "description": "The Markdown text to append, the new full content (replace), or the first content of the new page (create)."},
    "section": {"type": "string", "description": "create only: the section (tab group) to put the new page in; omit for no section."}
  },
  "required": ["mode", "content"],
  "additionalProperties": false
}`

type readNoteArgs struct {
	PageID *int64  `json:"page_id"`
	Title  *string `json:"title"`
}

type writeNoteArgs struct {
	Mode    string  `json:"mode"`
	PageID  *int64  `json:"page_id"`
	Title   *string `json:"title"`
	Content *string `json:"content"`
	Section *string `json:"section"`
}

// Tools returns the notes tools for the registry: read_note {page_id?,
// title?} and write_note {mode, page_id?, title?, content, section?}. Their
// errors (unknown page, bad arguments, …) are meant for the model and name
// what exists; a successful write_note sets Result.NotesUpdated.
func Tools(svc *Service) []tools.Tool {
	return []tools.Tool{
		{
			Name: ReadNoteTool,
			Description: "Read one page of the shared notes in full (title, section, id and content). " +
				"Give page_id (from the notes index) or title. Pages pinned to this conversation are already shown in full: do not read them again.",
			Parameters: json.RawMessage(readNoteSchema),
			Label:      "Read note",
			Private:    true,
			Detail: func(args json.RawMessage) string {
				_, what := svc.detail(args)
				return what
			},
			Run: func(ctx context.Context, call tools.Call) (tools.Result, error) { return svc.readNote(ctx, call) },
		},
		{
			Name: WriteNoteTool,
			Description: "Write to the shared notes that the user also edits. mode append adds content to the end of a page, " +
				"replace replaces a page's whole content, create makes a new page (title required, optional section). " +
				"For append/replace give page_id (from the notes index) or title. Only write when the user asks you to or clearly wants it kept.",
			Parameters: json.RawMessage(writeNoteSchema),
			Label:      "Write note",
			Private:    true,
			Detail: func(args json.RawMessage) string {
				mode, what := svc.detail(args)
				if mode == "" {
					return what
				}
				return mode + " → " + what
			},
			Run: func(ctx context.Context, call tools.Call) (tools.Result, error) { return svc.writeNote(ctx, call) },
		},
	}
}

// detail reads a call's mode and target page for the activity list, leniently
// (the arguments may be invalid): the page's title — looked up when the
// call names the page by id (issue 22: the list said "→ #1") — else "#id"
// for a page that does not exist.
func (s *Service) detail(args json.RawMessage) (mode, page string) {
	var a map[string]any
	_ = json.Unmarshal(args, &a)
	mode, _ = a["mode"].(string)
	if title, ok := a["title"].(string); ok && strings.TrimSpace(title) != "" {
		return mode, strings.TrimSpace(title)
	}
	if id, ok := a["page_id"].(float64); ok {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if p, err := s.Get(ctx, int64(id)); err == nil && strings.TrimSpace(p.Title) != "" {
			return mode, p.Title
		}
		return mode, fmt.Sprintf("#%v", id)
	}
	return mode, ""
}

func (s *Service) readNote(ctx context.Context, call tools.Call) (tools.Result, error) {
	var a readNoteArgs
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return tools.Result{}, err
	}
	p, err := s.findPage(ctx, a.PageID, a.Title)
	if err != nil {
		return tools.Result{}, err
	}
	section := p.Section
	if section == "" {
		section = "(none)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Title: %s\nSection: %s\nPage id: %d\nLength: %d characters\nUpdated: %s\n\n",
		p.Title, section, p.ID, utf8.RuneCountInString(p.Content), p.UpdatedAt.Format("2006-01-02 15:04 UTC"))
	if p.Content == "" {
		b.WriteString("(the page is empty)")
	} else {
		b.WriteString(p.Content)
	}
	return tools.Result{Content: b.String()}, nil
}

func (s *Service) writeNote(ctx context.Context, call tools.Call) (tools.Result, error) {
	var a writeNoteArgs
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return tools.Result{}, err
	}
	if a.Content == nil {
		return tools.Result{}, errors.New(`invalid arguments: "content" is required`)
	}
	var (
		p    Page
		verb string
		err  error
	)
	switch a.Mode {
	case ModeCreate:
		p, err = s.createFromTool(ctx, a)
		verb = "Created"
	case ModeAppend, ModeReplace:
		p, err = s.changeFromTool(ctx, a)
		verb = map[string]string{ModeAppend: "Appended to", ModeReplace: "Replaced the content of"}[a.Mode]
	default:
		return tools.Result{}, fmt.Errorf(`invalid arguments: mode must be "append", "replace" or "create", not %q`, a.Mode)
	}
	if err != nil {
		return tools.Result{}, err
	}
	where := ""
	if p.Section != "" {
		where = fmt.Sprintf(" in section %q", p.Section)
	}
	return tools.Result{
		Content: fmt.Sprintf("%s note page [id %d] %q%s; its content is now %d characters.",
			verb, p.ID, p.Title, where, utf8.RuneCountInString(p.Content)),
		NotesUpdated: true,
	}, nil
}

func (s *Service) createFromTool(ctx context.Context, a writeNoteArgs) (Page, error) {
	if a.PageID != nil {
		return Page{}, errors.New(`invalid arguments: "page_id" is not used with mode "create" (a new page gets a new id); to change page ` +
			fmt.Sprint(*a.PageID) + ` use mode "append" or "replace"`)
	}
	if a.Title == nil || strings.TrimSpace(*a.Title) == "" {
		return Page{}, errors.New(`invalid arguments: mode "create" needs a "title"`)
	}
	section := ""
	if a.Section != nil {
		section = *a.Section
	}
	title := strings.TrimSpace(*a.Title)
	p, err := s.create(ctx, title, *a.Content, section)
	if errors.Is(err, ErrTitleTaken) {
		if old, ferr := s.FindByTitle(ctx, title); ferr == nil && old.Title == title {
			return Page{}, fmt.Errorf(`a note page titled %q already exists (id %d); use mode "append" or "replace" with page_id %d to change it, or choose another title`,
				title, old.ID, old.ID)
		}
	}
	return p, err
}

func (s *Service) changeFromTool(ctx context.Context, a writeNoteArgs) (Page, error) {
	p, err := s.findPage(ctx, a.PageID, a.Title)
	if err != nil {
		return Page{}, err
	}
	if a.Section != nil {
		if sec := strings.TrimSpace(*a.Section); sec != "" && sec != p.Section {
			return Page{}, fmt.Errorf(`invalid arguments: "section" is only used with mode "create"; page [id %d] %q stays in its section, leave "section" out`,
				p.ID, p.Title)
		}
	}
	if a.Mode == ModeAppend {
		if *a.Content == "" {
			return Page{}, errors.New(`invalid arguments: "content" to append is empty`)
		}
		return s.appendContent(ctx, p.ID, *a.Content)
	}
	return s.Update(ctx, p.ID, AnyVersion, nil, a.Content)
}

// findPage finds a page by id (preferred) or title; otherwise the error
// lists the pages that exist.
func (s *Service) findPage(ctx context.Context, id *int64, title *string) (Page, error) {
	var (
		p   Page
		err error
	)
	switch {
	case id != nil:
		p, err = s.Get(ctx, *id)
	case title != nil && strings.TrimSpace(*title) != "":
		p, err = s.FindByTitle(ctx, *title)
	default:
		return Page{}, s.listError(ctx, `give "page_id" or "title"`)
	}
	if errors.Is(err, store.ErrNotFound) {
		return Page{}, s.listError(ctx, fmt.Sprintf("no note page %s", describe(id, title)))
	}
	return p, err
}

func describe(id *int64, title *string) string {
	if id != nil {
		return fmt.Sprintf("has id %d", *id)
	}
	return fmt.Sprintf("is titled %q", strings.TrimSpace(*title))
}

// listError returns an error saying why, followed by up to maxListedTitles
// existing pages as "[id N] title".
func (s *Service) listError(ctx context.Context, why string) error {
	ps, err := s.List(ctx)
	if err != nil {
		return fmt.Errorf("%s (%v)", why, err)
	}
	if len(ps) == 0 {
		return fmt.Errorf(`%s. There are no note pages yet; make one with write_note mode "create"`, why)
	}
	names := make([]string, 0, min(len(ps), maxListedTitles))
	for _, p := range ps[:min(len(ps), maxListedTitles)] {
		names = append(names, fmt.Sprintf("[id %d] %s", p.ID, p.Title))
	}
	more := ""
	if len(ps) > maxListedTitles {
		more = fmt.Sprintf(", … and %d more", len(ps)-maxListedTitles)
	}
	return fmt.Errorf("%s. The %d note pages are: %s%s", why, len(ps), strings.Join(names, ", "), more)
}
