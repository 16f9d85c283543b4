package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"playchat/backend/apperr"
	"playchat/backend/store"
)

// MaxDocumentBytes caps an import file (64 MiB).
const MaxDocumentBytes = 64 << 20

// ValidationError lists everything wrong with a document; nothing was
// written.
type ValidationError struct {
	Problems []string
	// tooLong, when set, is the coded form of a document whose only
	// problems are messages over MaxMessageBytes (tooLongError).
	tooLong *apperr.Error
}

func (e *ValidationError) Error() string {
	return apperr.Render(e.ErrorCode(), e.ErrorParams())
}

// ErrorCode returns apperr.SessionInvalidFile, or apperr.SessionMessageTooLong
// when the only problems are messages over the one-message limit
// (apperr.Coded).
func (e *ValidationError) ErrorCode() apperr.Code {
	if e.tooLong != nil {
		return e.tooLong.Code
	}
	return apperr.SessionInvalidFile
}

// ErrorParams returns detail: the first ten problems joined by "; " and how
// many more there are (English); for apperr.SessionMessageTooLong the first
// over-long message, its role and size, the limit and how many messages are
// over it (apperr.Coded).
func (e *ValidationError) ErrorParams() map[string]any {
	if e.tooLong != nil {
		return e.tooLong.Params
	}
	const show = 10
	p := e.Problems
	more := ""
	if len(p) > show {
		more = fmt.Sprintf(" (and %d more)", len(p)-show)
		p = p[:show]
	}
	return map[string]any{"detail": strings.Join(p, "; ") + more}
}

// tooLongProblem words a message over MaxMessageBytes for a problem list.
func tooLongProblem(at, role string, size int) string {
	return fmt.Sprintf("%s (%s) is %d bytes, over the %d MiB limit of one message", at, role, size, MaxMessageBytes>>20)
}

// tooLongError is the coded error of a document whose only problems are
// the over-long messages listed in over (their names, as in problems), the
// first of which has role and size.
func tooLongError(problems, over []string, role string, size int) *ValidationError {
	return &ValidationError{Problems: problems, tooLong: apperr.New(apperr.SessionMessageTooLong, map[string]any{
		"message": over[0], "role": role, "bytes": size, "maxMiB": MaxMessageBytes >> 20, "count": len(over)})}
}

// Imported reports what an import created.
type Imported struct {
	Session  store.Session
	Messages int
	Memories int
}

// Parse decodes and validates a document. Unknown fields are rejected, so a
// file of another format is not half-read. It returns a *ValidationError
// listing every problem found.
func Parse(r io.Reader) (Document, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxDocumentBytes+1))
	if err != nil {
		return Document{}, fmt.Errorf("read session file: %w", err)
	}
	if len(data) > MaxDocumentBytes {
		return Document{}, &ValidationError{Problems: []string{fmt.Sprintf("the file is larger than %d MiB", MaxDocumentBytes>>20)}}
	}
	// Format and version first, so a file from a newer playchat says so
	// instead of failing on the fields it added.
	var probe struct {
		Format   string          `json:"format"`
		Version  int             `json:"version"`
		Messages json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return Document{}, &ValidationError{Problems: []string{"not a playchat session file: " + jsonProblem(err)}}
	}
	if probe.Format != Format {
		return Document{}, &ValidationError{Problems: []string{fmt.Sprintf("format is %q, want %q: not a playchat session file", probe.Format, Format)}}
	}
	if probe.Version < 1 || probe.Version > Version {
		return Document{}, &ValidationError{Problems: []string{fmt.Sprintf("version %d is not supported (this playchat reads versions 1 to %d)", probe.Version, Version)}}
	}
	if len(probe.Messages) == 0 || string(probe.Messages) == "null" {
		return Document{}, &ValidationError{Problems: []string{"the file has no messages list"}}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var doc Document
	if err := dec.Decode(&doc); err != nil {
		return Document{}, &ValidationError{Problems: []string{"not a playchat session file: " + jsonProblem(err)}}
	}
	if dec.More() {
		return Document{}, &ValidationError{Problems: []string{"unexpected data after the JSON document"}}
	}
	if err := Validate(doc); err != nil {
		return Document{}, err
	}
	return doc, nil
}

// Validate checks a document completely: format and version, roles and
// statuses, times, UTF-8, unique ids and every reference between memories
// and messages, and the rules data typed into the window follows (rules.go):
// the title's length after cleaning (CleanTitle; an empty title is an
// untitled session), every message's size whatever its role
// (MaxMessageBytes), every user message's text (CheckUserMessage), and
// models and tags free of control characters. A document whose only
// problems are over-long messages gets the coded
// apperr.SessionMessageTooLong naming the first of them.
func Validate(doc Document) error {
	var over []string // the over-long messages, named as in the problems
	overRole, overSize := "", 0
	var p []string
	add := func(format string, a ...any) { p = append(p, fmt.Sprintf(format, a...)) }
	if doc.Format != Format {
		add("format is %q, want %q", doc.Format, Format)
	}
	if doc.Version < 1 || doc.Version > Version {
		add("version %d is not supported (this playchat reads versions 1 to %d)", doc.Version, Version)
	}
	if doc.Place != nil && doc.Place.Folder != "" {
		if f := strings.TrimSpace(doc.Place.Folder); !utf8.ValidString(f) || f == "" || utf8.RuneCountInString(f) > store.MaxFolderName || strings.ContainsAny(f, "\n\r\t") {
			add("place.folder must be 1 to %d characters on one line", store.MaxFolderName)
		}
	}
	if !utf8.ValidString(doc.Session.Title) || !utf8.ValidString(doc.Session.Model) {
		add("session title or model is not valid UTF-8")
	} else {
		if TitleText(doc.Session.Title) != "" {
			if _, err := CleanTitle(doc.Session.Title); err != nil {
				add("session.title: %v (it has %d)", err, utf8.RuneCountInString(TitleText(doc.Session.Title)))
			}
		}
		if why := checkName(doc.Session.Model, maxNameRunes); why != "" {
			add("session.model %s", why)
		}
	}
	if doc.Session.CreatedAt.IsZero() {
		add("session.createdAt is missing")
	}
	memIDs := map[int64]bool{}
	for i, m := range doc.Memories {
		if m.ID <= 0 {
			add("memories[%d].id must be a positive number", i)
		} else if memIDs[m.ID] {
			add("memories[%d].id %d is used twice", i, m.ID)
		}
		memIDs[m.ID] = true
		if strings.TrimSpace(m.Summary) == "" {
			add("memories[%d].summary is empty", i)
		}
		for _, tag := range m.Tags {
			if why := checkName(tag, maxNameRunes); why != "" {
				add("memories[%d] has a tag that %s", i, why)
			}
		}
		if m.CreatedAt.IsZero() {
			add("memories[%d].createdAt is missing", i)
		}
		if m.Level < 0 || m.MessageCount < 0 {
			add("memories[%d] has a negative level or messageCount", i)
		}
	}
	for i, m := range doc.Memories {
		if m.MergedInto != nil && (!memIDs[*m.MergedInto] || *m.MergedInto == m.ID) {
			add("memories[%d].mergedInto %d does not name another memory of the file", i, *m.MergedInto)
		}
	}
	msgIDs := map[int64]bool{}
	for i, m := range doc.Messages {
		if m.ID <= 0 {
			add("messages[%d].id must be a positive number", i)
		} else if msgIDs[m.ID] {
			add("messages[%d].id %d is used twice", i, m.ID)
		}
		msgIDs[m.ID] = true
		switch m.Role {
		case store.RoleUser, store.RoleAssistant, store.RoleSystem:
		default:
			add("messages[%d].role %q is not user, assistant or system", i, m.Role)
		}
		switch m.Status {
		case store.StatusComplete, store.StatusPartial, store.StatusError:
		default:
			add("messages[%d].status %q is not complete, partial or error", i, m.Status)
		}
		switch {
		case len(m.Content) > MaxMessageBytes:
			name := fmt.Sprintf("messages[%d] (id %d)", i, m.ID)
			if len(over) == 0 {
				overRole, overSize = m.Role, len(m.Content)
			}
			over = append(over, name)
			add("%s", tooLongProblem(name, m.Role, len(m.Content)))
		case !utf8.ValidString(m.Content):
			add("messages[%d].content is not valid UTF-8", i)
		case m.Role == store.RoleUser:
			if err := CheckUserMessage(m.Content); err != nil {
				add("messages[%d]: %v", i, err)
			}
		}
		if why := checkName(m.Model, maxNameRunes); why != "" {
			add("messages[%d].model %s", i, why)
		}
		for _, tag := range m.Tags {
			if why := checkName(tag, maxNameRunes); why != "" {
				add("messages[%d] has a tag that %s", i, why)
			}
		}
		if m.CreatedAt.IsZero() {
			add("messages[%d].createdAt is missing", i)
		}
		if m.MemoryID != nil && !memIDs[*m.MemoryID] {
			add("messages[%d].memoryId %d does not name a memory of the file", i, *m.MemoryID)
		}
		if len(m.ToolActivity) > 0 {
			var acts []map[string]any
			if err := json.Unmarshal(m.ToolActivity, &acts); err != nil {
				add("messages[%d].toolActivity is not a JSON array of objects", i)
			}
		}
		for j, src := range m.Sources {
			if u, err := url.Parse(src.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				add("messages[%d].sources[%d].url is not an http or https URL", i, j)
			}
		}
		// A message's memory may have been deleted (the message stays
		// archived with no memory), but a memory id needs archivedAt.
		if m.MemoryID != nil && m.ArchivedAt == nil {
			add("messages[%d] has a memoryId but no archivedAt", i)
		}
		// The tree: a parent comes before its children.
		if m.ParentID != nil && (!msgIDs[*m.ParentID] || *m.ParentID == m.ID) {
			add("messages[%d].parentId %d does not name an earlier message of the file", i, *m.ParentID)
		}
	}
	if doc.Settings != nil {
		if why := doc.Settings.Check(); why != "" {
			add("settings: %s", why)
		}
		if doc.Settings.Model != "" {
			add("settings.model must be empty (the chat's model is session.model)")
		}
	}
	for _, why := range checkFiles(doc) {
		add("%s", why)
	}
	if doc.ActiveLeafID != nil && !msgIDs[*doc.ActiveLeafID] {
		add("activeLeafId %d does not name a message of the file", *doc.ActiveLeafID)
	}
	if len(p) > 0 && len(p) == len(over) {
		return tooLongError(p, over, overRole, overSize)
	}
	if len(p) > 0 {
		return &ValidationError{Problems: p}
	}
	return nil
}

// Import validates doc and writes it as a new session (new ids throughout),
// in one transaction. On any error nothing is written.
func Import(ctx context.Context, db *store.DB, doc Document) (Imported, error) {
	if err := Validate(doc); err != nil {
		return Imported{}, err
	}
	sess := store.Session{ID: uuid.NewString(), Title: TitleText(doc.Session.Title), Model: doc.Session.Model,
		CreatedAt: doc.Session.CreatedAt.UTC(), UpdatedAt: doc.Session.UpdatedAt.UTC()}
	if doc.Settings != nil {
		sess.Settings = doc.Settings.Encode()
	}
	// The copy is "updated" now, so it shows at the top of the list.
	sess.UpdatedAt = time.Now().UTC()
	files, all := importFiles(doc)
	err := db.StoreFiles(all, func() error {
		return db.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
			if _, err := tx.NewInsert().Model(&sess).Exec(ctx); err != nil {
				return err
			}
			memMap := map[int64]int64{}
			for _, m := range doc.Memories {
				row := store.Memory{SessionID: sess.ID, Summary: m.Summary, MessageCount: m.MessageCount,
					Level: m.Level, CreatedAt: m.CreatedAt.UTC()}
				if _, err := tx.NewInsert().Model(&row).Exec(ctx); err != nil {
					return err
				}
				memMap[m.ID] = row.ID
				for _, tag := range m.Tags {
					if _, err := tx.NewInsert().Model(&store.MemoryTag{MemoryID: row.ID, Tag: tag, CreatedAt: row.CreatedAt}).On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
						return err
					}
				}
			}
			for _, m := range doc.Memories {
				if m.MergedInto != nil {
					if _, err := tx.NewUpdate().Table("memories").Set("merged_into = ?", memMap[*m.MergedInto]).
						Where("id = ?", memMap[m.ID]).Exec(ctx); err != nil {
						return err
					}
				}
			}
			rows := make([]store.Message, len(doc.Messages))
			for i, m := range doc.Messages {
				row := store.Message{SessionID: sess.ID, Role: m.Role, Content: m.Content, Status: m.Status, Error: m.Error,
					Model: m.Model, PromptTokens: m.PromptTokens, CompletionTokens: m.CompletionTokens, CreatedAt: m.CreatedAt.UTC(),
					ToolActivity: string(m.ToolActivity)}
				if len(m.Sources) > 0 {
					b, _ := json.Marshal(m.Sources)
					row.Sources = string(b)
				}
				if m.ArchivedAt != nil {
					t := m.ArchivedAt.UTC()
					row.ArchivedAt = &t
				}
				if m.MemoryID != nil {
					id := memMap[*m.MemoryID]
					row.MemoryID = &id
				}
				rows[i] = row
			}
			parents, leaf := docTree(doc)
			if err := writeTree(ctx, tx, sess.ID, rows, parents, leaf, func(i int, row *store.Message) error {
				if err := store.LinkFiles(ctx, tx, row.ID, files[i]); err != nil {
					return err
				}
				for _, tag := range doc.Messages[i].Tags {
					if _, err := tx.NewInsert().Model(&store.MessageTag{MessageID: row.ID, Tag: tag, CreatedAt: row.CreatedAt}).On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				return err
			}
			if doc.Place != nil {
				return store.SetNamedPlace(ctx, tx, sess.ID, *doc.Place)
			}
			return nil
		})
	})
	if err != nil {
		return Imported{}, fmt.Errorf("import session: %w", err)
	}
	return Imported{Session: sess, Messages: len(doc.Messages), Memories: len(doc.Memories)}, nil
}

// docTree is the document's message tree for writeTree: each message's
// parent as an index (nil when no message names a parent: one branch in
// file order) and the index of the active leaf (-1: the last message).
// Validate has checked that every parent comes earlier.
func docTree(doc Document) ([]int, int) {
	index := make(map[int64]int, len(doc.Messages))
	tree := false
	for i, m := range doc.Messages {
		index[m.ID] = i
		tree = tree || m.ParentID != nil
	}
	leaf := -1
	if doc.ActiveLeafID != nil {
		leaf = index[*doc.ActiveLeafID]
	}
	if !tree {
		return nil, leaf
	}
	parents := make([]int, len(doc.Messages))
	for i, m := range doc.Messages {
		parents[i] = -1
		if m.ParentID != nil {
			parents[i] = index[*m.ParentID]
		}
	}
	return parents, leaf
}

// jsonProblem words a decoding error for people: a wrong type names the
// field and the expected kind instead of Go's struct names.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		kind := map[string]string{"string": "text", "int": "a whole number", "int64": "a whole number",
			"bool": "true or false", "Time": "a time (RFC 3339)"}[te.Type.Name()]
		if kind == "" {
			kind = "a " + te.Type.Kind().String()
		}
		field := te.Field
		if field == "" {
			field = "the document"
		}
		return fmt.Sprintf("%s should be %s, not a JSON %s", field, kind, te.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("invalid JSON at byte %d: %s", se.Offset, se.Error())
	}
	return err.Error()
}

// ImportReader parses, validates and imports a document.
func ImportReader(ctx context.Context, db *store.DB, r io.Reader) (Imported, error) {
	doc, err := Parse(r)
	if err != nil {
		return Imported{}, err
	}
	return Import(ctx, db, doc)
}

// IsValidation reports whether err is a document problem (the user's file)
// rather than a storage failure.
func IsValidation(err error) bool {
	var v *ValidationError
	return errors.As(err, &v)
}
