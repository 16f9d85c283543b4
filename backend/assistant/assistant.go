// Package assistant keeps the user's assistants (issue 26): named chat
// settings — a system prompt, a model, sampling parameters, the context
// layers used — with an emoji icon, a description, note pages to pin and a
// knowledge-base folder to prefer. A new chat copies an assistant
// (NewChat), so a later edit of the assistant never rewrites an existing
// chat; the window offers to apply the newer version (Apply).
package assistant

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"playchat/backend/apperr"
	"playchat/backend/store"
)

// Limits of an assistant's texts.
const (
	MaxNameRunes        = 80
	MaxIconRunes        = 16
	MaxDescriptionRunes = 500
	MaxPages            = 50
)

// Assistant is one assistant as the window, the CLI and the export show it.
type Assistant struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Icon        string `json:"icon"`
	Description string `json:"description"`
	// Settings are what a new chat copies (KBDomain included).
	Settings store.ChatSettings `json:"settings"`
	// NotePageIDs are pinned to a chat started from the assistant.
	NotePageIDs []int64 `json:"notePageIds"`
	Position    int     `json:"position"`
	// Version grows with every edit; a chat records the version it copied.
	Version int `json:"version"`
	// Builtin names a built-in assistant ("translate", "proofread",
	// "code_review"); "" for the user's own.
	Builtin   string    `json:"builtin"`
	CreatedAt time.Time `json:"createdAt" ts_type:"string"`
	UpdatedAt time.Time `json:"updatedAt" ts_type:"string"`
}

// Draft is what the user edits: everything but the ids, order, version
// and times.
type Draft struct {
	Name        string             `json:"name"`
	Icon        string             `json:"icon"`
	Description string             `json:"description"`
	Settings    store.ChatSettings `json:"settings"`
	NotePageIDs []int64            `json:"notePageIds"`
}

// Check returns what is wrong with d ("" when nothing).
func (d Draft) Check() string {
	var p []string
	name := strings.TrimSpace(d.Name)
	switch {
	case !utf8.ValidString(d.Name) || !utf8.ValidString(d.Icon) || !utf8.ValidString(d.Description):
		p = append(p, "a text is not valid UTF-8")
	case name == "":
		p = append(p, "the name is empty")
	case utf8.RuneCountInString(name) > MaxNameRunes:
		p = append(p, fmt.Sprintf("the name is longer than %d characters", MaxNameRunes))
	case strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		p = append(p, "the name has control characters")
	}
	if utf8.RuneCountInString(d.Icon) > MaxIconRunes {
		p = append(p, fmt.Sprintf("the icon is longer than %d characters", MaxIconRunes))
	}
	if utf8.RuneCountInString(d.Description) > MaxDescriptionRunes {
		p = append(p, fmt.Sprintf("the description is longer than %d characters", MaxDescriptionRunes))
	}
	if len(d.NotePageIDs) > MaxPages {
		p = append(p, fmt.Sprintf("more than %d pinned pages", MaxPages))
	}
	for _, id := range d.NotePageIDs {
		if id <= 0 {
			p = append(p, "a pinned page id is not a positive number")
			break
		}
	}
	if why := d.Settings.Check(); why != "" {
		p = append(p, why)
	}
	return strings.Join(p, "; ")
}

// Service keeps the assistants of one database.
type Service struct {
	db *store.DB
}

// New returns the assistants of db.
func New(db *store.DB) *Service { return &Service{db: db} }

func fromRow(r store.Assistant) Assistant {
	a := Assistant{ID: r.ID, Name: r.Name, Icon: r.Icon, Description: r.Description,
		Settings: store.DecodeChatSettings(r.Settings), NotePageIDs: []int64{}, Position: r.Position,
		Version: r.Version, Builtin: r.BuiltinKey, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
	a.Settings.KBDomain = r.KBDomain
	if r.NotePageIDs != "" {
		_ = json.Unmarshal([]byte(r.NotePageIDs), &a.NotePageIDs)
	}
	return a
}

func toRow(d Draft) store.Assistant {
	d = clean(d)
	r := store.Assistant{Name: d.Name, Icon: d.Icon, Description: d.Description, KBDomain: d.Settings.KBDomain}
	cs := d.Settings
	cs.KBDomain = ""
	r.Settings = cs.Encode()
	if len(d.NotePageIDs) > 0 {
		b, _ := json.Marshal(d.NotePageIDs)
		r.NotePageIDs = string(b)
	}
	return r
}

// clean trims the texts of d and drops repeated pages and layers.
func clean(d Draft) Draft {
	d.Name, d.Icon, d.Description = strings.TrimSpace(d.Name), strings.TrimSpace(d.Icon), strings.TrimSpace(d.Description)
	d.Settings.Model = strings.TrimSpace(d.Settings.Model)
	d.Settings.KBDomain = strings.TrimSpace(d.Settings.KBDomain)
	seen := map[int64]bool{}
	var pages []int64
	for _, id := range d.NotePageIDs {
		if !seen[id] {
			seen[id] = true
			pages = append(pages, id)
		}
	}
	d.NotePageIDs = pages
	var layers []string
	for _, l := range store.SwitchableLayers {
		if d.Settings.LayerOff(l) {
			layers = append(layers, l)
		}
	}
	if len(layers) > 0 || d.Settings.LayersOff != nil {
		d.Settings.LayersOff = layers
	}
	return d
}

func invalid(why string) error {
	return apperr.New(apperr.AssistantInvalid, map[string]any{"detail": why})
}

func notFound(name string, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return apperr.Wrap(apperr.AssistantNotFound, err, map[string]any{"name": name})
	}
	return err
}

// List returns every assistant in the user's order.
func (s *Service) List(ctx context.Context) ([]Assistant, error) {
	rows, err := s.db.ListAssistants(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Assistant, len(rows))
	for i, r := range rows {
		out[i] = fromRow(r)
	}
	return out, nil
}

// Get returns assistant id.
func (s *Service) Get(ctx context.Context, id int64) (Assistant, error) {
	r, err := s.db.GetAssistant(ctx, id)
	if err != nil {
		return Assistant{}, notFound(strconv.FormatInt(id, 10), err)
	}
	return fromRow(r), nil
}

// Find returns the assistant named name (case-insensitively; the first in
// the user's order when several share it), or with that id.
func (s *Service) Find(ctx context.Context, name string) (Assistant, error) {
	all, err := s.List(ctx)
	if err != nil {
		return Assistant{}, err
	}
	want := strings.TrimSpace(name)
	for _, a := range all {
		if strings.EqualFold(a.Name, want) {
			return a, nil
		}
	}
	if id, err := strconv.ParseInt(want, 10, 64); err == nil {
		for _, a := range all {
			if a.ID == id {
				return a, nil
			}
		}
	}
	return Assistant{}, apperr.Wrap(apperr.AssistantNotFound, store.ErrNotFound, map[string]any{"name": name})
}

// Create stores a new assistant at the end of the order.
func (s *Service) Create(ctx context.Context, d Draft) (Assistant, error) {
	if why := d.Check(); why != "" {
		return Assistant{}, invalid(why)
	}
	r := toRow(d)
	if err := s.db.InsertAssistant(ctx, &r); err != nil {
		return Assistant{}, err
	}
	return fromRow(r), nil
}

// Update replaces assistant id's settings with d and bumps its version;
// chats started from it keep their copy.
func (s *Service) Update(ctx context.Context, id int64, d Draft) (Assistant, error) {
	if why := d.Check(); why != "" {
		return Assistant{}, invalid(why)
	}
	r := toRow(d)
	r.ID = id
	up, err := s.db.UpdateAssistant(ctx, r)
	if err != nil {
		return Assistant{}, notFound(strconv.FormatInt(id, 10), err)
	}
	return fromRow(up), nil
}

// Duplicate stores a copy of assistant id, named "<name> (copy)" (suffix
// in the caller's words), at the end of the order; a copy of a built-in
// is the user's own.
func (s *Service) Duplicate(ctx context.Context, id int64, suffix string) (Assistant, error) {
	a, err := s.Get(ctx, id)
	if err != nil {
		return Assistant{}, err
	}
	if strings.TrimSpace(suffix) == "" {
		suffix = " (copy)"
	}
	name := []rune(a.Name + suffix)
	if len(name) > MaxNameRunes {
		name = name[:MaxNameRunes]
	}
	return s.Create(ctx, Draft{Name: string(name), Icon: a.Icon, Description: a.Description, Settings: a.Settings, NotePageIDs: a.NotePageIDs})
}

// Delete deletes assistant id (a built-in one stays deleted). Chats
// started from it keep their settings.
func (s *Service) Delete(ctx context.Context, id int64) error {
	return notFound(strconv.FormatInt(id, 10), s.db.DeleteAssistant(ctx, id))
}

// Reorder sets the order; ids must list every assistant exactly once.
func (s *Service) Reorder(ctx context.Context, ids []int64) ([]Assistant, error) {
	ok, err := s.db.ReorderAssistants(ctx, ids)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apperr.New(apperr.AssistantOrder, nil)
	}
	return s.List(ctx)
}

// Copy is what a new chat takes from an assistant.
type Copy struct {
	// Settings are the chat's own settings (Model: the model to start with,
	// "" for the default).
	Settings store.ChatSettings
	// NotePageIDs are pinned to the new chat.
	NotePageIDs []int64
	// AssistantID and Version are recorded with the chat.
	AssistantID int64
	Version     int
}

// CopyOf is the copy a new chat takes of a.
func CopyOf(a Assistant) Copy {
	cs := a.Settings
	cs.LayersOff = append([]string(nil), cs.LayersOff...)
	return Copy{Settings: cs, NotePageIDs: append([]int64(nil), a.NotePageIDs...), AssistantID: a.ID, Version: a.Version}
}

// ChatAssistant is what the window shows about the assistant of a chat.
type ChatAssistant struct {
	// Assistant is the assistant the chat was started from, nil when none
	// (or it was deleted).
	Assistant *Assistant `json:"assistant"`
	// CopiedVersion is the version the chat copied.
	CopiedVersion int `json:"copiedVersion"`
	// Newer is true when the assistant was edited since: the window offers
	// "apply the assistant's new version".
	Newer bool `json:"newer"`
}

// OfChat returns the assistant of chat sessionID.
func (s *Service) OfChat(ctx context.Context, sessionID string) (ChatAssistant, error) {
	sess, err := s.db.GetSession(ctx, sessionID)
	if err != nil {
		return ChatAssistant{}, err
	}
	if sess.AssistantID == nil {
		return ChatAssistant{}, nil
	}
	a, err := s.Get(ctx, *sess.AssistantID)
	if apperr.CodeOf(err) == apperr.AssistantNotFound {
		return ChatAssistant{}, nil
	}
	if err != nil {
		return ChatAssistant{}, err
	}
	return ChatAssistant{Assistant: &a, CopiedVersion: sess.AssistantVersion, Newer: a.Version > sess.AssistantVersion}, nil
}

// Apply copies assistant id's current settings (model included, when it
// names one) into chat sessionID and records the version: "apply the
// assistant's new version", or start using an assistant in a chat. Pinned
// pages are left as the chat has them. It applies from the next turn.
func (s *Service) Apply(ctx context.Context, sessionID string, id int64) (store.ChatSettings, error) {
	a, err := s.Get(ctx, id)
	if err != nil {
		return store.ChatSettings{}, err
	}
	if _, err := s.db.SetSessionSettings(ctx, sessionID, a.Settings); err != nil {
		return store.ChatSettings{}, err
	}
	if err := s.db.SetSessionAssistant(ctx, sessionID, &a.ID, a.Version); err != nil {
		return store.ChatSettings{}, err
	}
	return s.db.SessionSettings(ctx, sessionID)
}
