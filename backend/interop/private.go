package interop

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"playchat/backend/apperr"
	"playchat/backend/knowledge"
	"playchat/backend/notes"
	"playchat/backend/store"
)

// Limits of the knowledge and notes listings.
const (
	DefaultKnowledgeLimit = 30
	MaxKnowledgeLimit     = 200
	// notePreviewRunes is the length of a note's preview in ListNotes.
	notePreviewRunes = 80
)

// ListKnowledgeInput is list_knowledge's input.
type ListKnowledgeInput struct {
	Limit int `json:"limit,omitempty" jsonschema:"most entries, 1-200 (default 30)"`
}

// KnowledgeItem is one learned-knowledge entry in a listing.
type KnowledgeItem struct {
	ID      int64  `json:"id" jsonschema:"pass it to read_knowledge"`
	Heading string `json:"heading"`
	Query   string `json:"query" jsonschema:"the web search it was learned from"`
	// Domain and Path are the entry's Markdown file in the knowledge base.
	Domain    string    `json:"domain" jsonschema:"the entry's file in the knowledge base: domain for read_document"`
	Path      string    `json:"path" jsonschema:"the entry's file in the knowledge base: path for read_document"`
	FetchedAt time.Time `json:"fetched_at"`
}

// KnowledgeList is list_knowledge's result.
type KnowledgeList struct {
	Entries []KnowledgeItem `json:"entries" jsonschema:"newest first"`
}

// ListKnowledge lists what web searches taught playchat, newest first.
func (s *Service) ListKnowledge(ctx context.Context, in ListKnowledgeInput) (KnowledgeList, error) {
	n, err := limit("limit", in.Limit, DefaultKnowledgeLimit, MaxKnowledgeLimit)
	if err != nil {
		return KnowledgeList{}, err
	}
	if s.o.Knowledge == nil {
		return KnowledgeList{}, errors.New("interop: no knowledge service")
	}
	es, err := s.o.Knowledge.List(ctx, n)
	if err != nil {
		return KnowledgeList{}, err
	}
	out := KnowledgeList{Entries: make([]KnowledgeItem, 0, len(es))}
	for _, e := range es {
		d, p := splitRel(e.File)
		out.Entries = append(out.Entries, KnowledgeItem{ID: e.ID, Heading: e.Heading, Query: e.Query, Domain: d, Path: p,
			FetchedAt: e.FetchedAt.UTC()})
	}
	return out, nil
}

// ReadKnowledgeInput is read_knowledge's input.
type ReadKnowledgeInput struct {
	ID int64 `json:"id" jsonschema:"the entry's id, from list_knowledge"`
}

// KnowledgeEntry is read_knowledge's result.
type KnowledgeEntry struct {
	KnowledgeItem
	// Body is the entry's Markdown: key points and dates.
	Body    string             `json:"body" jsonschema:"the entry's Markdown: key points and dates"`
	Model   string             `json:"model" jsonschema:"the model that summarised the search results"`
	Sources []knowledge.Source `json:"sources" jsonschema:"the web pages it was built from"`
}

// ReadKnowledge returns one learned-knowledge entry with its sources.
// Errors: InteropNoKnowledge for an unknown id.
func (s *Service) ReadKnowledge(ctx context.Context, in ReadKnowledgeInput) (KnowledgeEntry, error) {
	if s.o.Knowledge == nil {
		return KnowledgeEntry{}, errors.New("interop: no knowledge service")
	}
	e, err := s.o.Knowledge.Get(ctx, in.ID)
	if errors.Is(err, store.ErrNotFound) || apperr.CodeOf(err) == apperr.KnowledgeNotFound {
		return KnowledgeEntry{}, apperr.New(apperr.InteropNoKnowledge, map[string]any{"id": in.ID})
	} else if err != nil {
		return KnowledgeEntry{}, err
	}
	d, p := splitRel(e.File)
	src := e.Sources
	if src == nil {
		src = []knowledge.Source{}
	}
	return KnowledgeEntry{KnowledgeItem: KnowledgeItem{ID: e.ID, Heading: e.Heading, Query: e.Query, Domain: d, Path: p,
		FetchedAt: e.FetchedAt.UTC()}, Body: e.Body, Model: e.Model, Sources: src}, nil
}

// NoteItem is one note page in a listing.
type NoteItem struct {
	ID        int64     `json:"id" jsonschema:"pass it to read_note or write_note as page_id"`
	Title     string    `json:"title"`
	Section   string    `json:"section" jsonschema:"the tab group, \"\" when none"`
	Chars     int       `json:"chars" jsonschema:"length of the content in characters"`
	Preview   string    `json:"preview" jsonschema:"the first 80 characters of the content"`
	UpdatedAt time.Time `json:"updated_at"`
}

// NoteList is list_notes' result.
type NoteList struct {
	Pages []NoteItem `json:"pages" jsonschema:"in the order the notes panel shows them"`
}

// ListNotes lists the note pages. Errors: InteropNotesNotShared unless
// notes are shared.
func (s *Service) ListNotes(ctx context.Context) (NoteList, error) {
	if err := s.notesShared(); err != nil {
		return NoteList{}, err
	}
	ps, err := s.o.Notes.List(ctx)
	if err != nil {
		return NoteList{}, err
	}
	out := NoteList{Pages: make([]NoteItem, 0, len(ps))}
	for _, p := range ps {
		prev := strings.Join(strings.Fields(cutRunes(p.Content, notePreviewRunes*2)), " ")
		out.Pages = append(out.Pages, NoteItem{ID: p.ID, Title: p.Title, Section: p.Section,
			Chars: utf8.RuneCountInString(p.Content), Preview: cutRunes(prev, notePreviewRunes), UpdatedAt: p.UpdatedAt.UTC()})
	}
	return out, nil
}

// ReadNoteInput is read_note's input: the page by id (preferred) or title.
type ReadNoteInput struct {
	PageID int64  `json:"page_id,omitempty" jsonschema:"the page's id, from list_notes (preferred over title)"`
	Title  string `json:"title,omitempty" jsonschema:"the page's title: an exact match first, then ignoring case"`
}

// Note is a whole note page.
type Note struct {
	ID        int64     `json:"id"`
	Title     string    `json:"title"`
	Section   string    `json:"section"`
	Content   string    `json:"content"`
	Version   int64     `json:"version" jsonschema:"goes up by one with every write"`
	UpdatedAt time.Time `json:"updated_at"`
}

func noteOf(p notes.Page) Note {
	return Note{ID: p.ID, Title: p.Title, Section: p.Section, Content: p.Content, Version: p.Version, UpdatedAt: p.UpdatedAt.UTC()}
}

// ReadNote returns one note page. Errors: InteropNotesNotShared,
// InteropBadArgument without page_id or title, InteropNoNote.
func (s *Service) ReadNote(ctx context.Context, in ReadNoteInput) (Note, error) {
	if err := s.notesShared(); err != nil {
		return Note{}, err
	}
	p, err := s.findNote(ctx, in.PageID, in.Title)
	if err != nil {
		return Note{}, err
	}
	return noteOf(p), nil
}

func (s *Service) findNote(ctx context.Context, id int64, title string) (notes.Page, error) {
	var (
		p    notes.Page
		err  error
		name string
	)
	switch {
	case id != 0:
		name = itoa(int(id))
		p, err = s.o.Notes.Get(ctx, id)
	case strings.TrimSpace(title) != "":
		name = "“" + strings.TrimSpace(title) + "”"
		p, err = s.o.Notes.FindByTitle(ctx, title)
	default:
		return notes.Page{}, badArg("page_id", "give page_id or title")
	}
	if errors.Is(err, store.ErrNotFound) {
		return notes.Page{}, apperr.New(apperr.InteropNoNote, map[string]any{"page": name})
	}
	return p, err
}

// WriteNoteInput is write_note's input.
type WriteNoteInput struct {
	Mode    string `json:"mode" jsonschema:"append (add to the end of a page), replace (the whole content) or create (a new page; title required)"`
	PageID  int64  `json:"page_id,omitempty" jsonschema:"append/replace: the page's id (preferred over title)"`
	Title   string `json:"title,omitempty" jsonschema:"create: the new page's title; append/replace: the page, when page_id is not given"`
	Content string `json:"content" jsonschema:"the Markdown to append, the new whole content, or the new page's content"`
	Section string `json:"section,omitempty" jsonschema:"create only: the tab group of the new page"`
}

// WriteNote appends to, replaces or creates a note page and returns it.
// Errors: InteropWriteNotAllowed, InteropNotesNotShared, InteropBadArgument
// (mode, missing page or title), InteropNoNote, and the notes package's
// notes.* codes (title taken, too long, …); nothing is written then.
func (s *Service) WriteNote(ctx context.Context, in WriteNoteInput) (Note, error) {
	if err := s.canWrite(); err != nil {
		return Note{}, err
	}
	if err := s.notesShared(); err != nil {
		return Note{}, err
	}
	var (
		p   notes.Page
		err error
	)
	switch in.Mode {
	case notes.ModeCreate:
		if in.PageID != 0 {
			return Note{}, badArg("page_id", `not used with mode "create" (a new page gets a new id)`)
		}
		if strings.TrimSpace(in.Title) == "" {
			return Note{}, badArg("title", `mode "create" needs a title`)
		}
		p, err = s.o.Notes.Create(ctx, in.Title, in.Content, in.Section)
	case notes.ModeAppend, notes.ModeReplace:
		if in.Section != "" {
			return Note{}, badArg("section", `only used with mode "create"`)
		}
		if p, err = s.findNote(ctx, in.PageID, in.Title); err != nil {
			return Note{}, err
		}
		if in.Mode == notes.ModeAppend {
			if in.Content == "" {
				return Note{}, badArg("content", "nothing to append")
			}
			p, err = s.o.Notes.Append(ctx, p.ID, in.Content)
		} else {
			p, err = s.o.Notes.Update(ctx, p.ID, notes.AnyVersion, nil, &in.Content)
		}
	default:
		return Note{}, badArg("mode", `must be "append", "replace" or "create"`)
	}
	if err != nil {
		return Note{}, err
	}
	return noteOf(p), nil
}
