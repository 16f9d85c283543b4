package assistant

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"playchat/backend/apperr"
	"playchat/backend/store"
)

// The assistants file (Format "playchat-assistants", Version 1):
//
//	{"format":"playchat-assistants","version":1,"exportedAt":"…",
//	 "assistants":[{"name","icon","description","settings":{…},"notePageIds":[…]}]}
//
// settings is store.ChatSettings as JSON (systemPrompt, model, temperature,
// topP, maxOutputTokens, layersOff, kbDomain). Note page ids name pages of
// the exporting database: an import keeps only the ids of pages that exist
// in the importing one. An import adds every assistant of the file at the
// end of the order (never overwrites), all or none.
const (
	FileFormat  = "playchat-assistants"
	FileVersion = 1
	// MaxFileBytes caps an import file.
	MaxFileBytes = 8 << 20
	// MaxFileAssistants caps the assistants of one file.
	MaxFileAssistants = 1000
)

// File is an exported set of assistants.
type File struct {
	Format     string    `json:"format"`
	Version    int       `json:"version"`
	ExportedAt time.Time `json:"exportedAt"`
	Assistants []Draft   `json:"assistants"`
}

// Export returns the file of the assistants ids (every assistant when ids
// is empty), in the user's order.
func (s *Service) Export(ctx context.Context, ids []int64) (File, error) {
	all, err := s.List(ctx)
	if err != nil {
		return File{}, err
	}
	want := map[int64]bool{}
	for _, id := range ids {
		want[id] = true
	}
	f := File{Format: FileFormat, Version: FileVersion, ExportedAt: time.Now().UTC(), Assistants: []Draft{}}
	for _, a := range all {
		if len(ids) == 0 || want[a.ID] {
			f.Assistants = append(f.Assistants, Draft{Name: a.Name, Icon: a.Icon, Description: a.Description,
				Settings: a.Settings, NotePageIDs: a.NotePageIDs})
			delete(want, a.ID)
		}
	}
	for id := range want {
		return File{}, apperr.Wrap(apperr.AssistantNotFound, store.ErrNotFound, map[string]any{"name": fmt.Sprint(id)})
	}
	return f, nil
}

// ExportJSON is Export as indented JSON.
func (s *Service) ExportJSON(ctx context.Context, ids []int64) ([]byte, error) {
	f, err := s.Export(ctx, ids)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func fileProblem(p []string) error {
	const show = 10
	more := ""
	if len(p) > show {
		more = fmt.Sprintf(" (and %d more)", len(p)-show)
		p = p[:show]
	}
	return apperr.New(apperr.AssistantInvalidFile, map[string]any{"detail": strings.Join(p, "; ") + more})
}

// ParseFile decodes and validates an assistants file completely; unknown
// fields are refused.
func ParseFile(r io.Reader) (File, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return File{}, fmt.Errorf("read assistants file: %w", err)
	}
	if len(data) > MaxFileBytes {
		return File{}, fileProblem([]string{fmt.Sprintf("the file is larger than %d MiB", MaxFileBytes>>20)})
	}
	var probe struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return File{}, fileProblem([]string{"not JSON: " + err.Error()})
	}
	if probe.Format != FileFormat {
		return File{}, fileProblem([]string{fmt.Sprintf("format is %q, want %q", probe.Format, FileFormat)})
	}
	if probe.Version < 1 || probe.Version > FileVersion {
		return File{}, fileProblem([]string{fmt.Sprintf("version %d is not supported (this playchat reads version %d)", probe.Version, FileVersion)})
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return File{}, fileProblem([]string{err.Error()})
	}
	var p []string
	if len(f.Assistants) == 0 {
		p = append(p, "the file has no assistants")
	}
	if len(f.Assistants) > MaxFileAssistants {
		p = append(p, fmt.Sprintf("more than %d assistants", MaxFileAssistants))
	}
	for i, d := range f.Assistants {
		if why := d.Check(); why != "" {
			p = append(p, fmt.Sprintf("assistants[%d]: %s", i, why))
		}
	}
	if len(p) > 0 {
		return File{}, fileProblem(p)
	}
	return f, nil
}

// Import adds every assistant of f at the end of the order, in one
// transaction (all or none); pinned page ids naming no page of this
// database are dropped. It returns the new assistants.
func (s *Service) Import(ctx context.Context, f File) ([]Assistant, error) {
	var out []Assistant
	err := s.db.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		var pages []int64
		if err := tx.NewSelect().Table("note_pages").Column("id").Scan(ctx, &pages); err != nil {
			return err
		}
		exists := map[int64]bool{}
		for _, id := range pages {
			exists[id] = true
		}
		for _, d := range f.Assistants {
			if why := d.Check(); why != "" {
				return fileProblem([]string{why})
			}
			var keep []int64
			for _, id := range d.NotePageIDs {
				if exists[id] {
					keep = append(keep, id)
				}
			}
			d.NotePageIDs = keep
			r := toRow(d)
			if err := store.InsertAssistantTx(ctx, tx, &r); err != nil {
				return err
			}
			out = append(out, fromRow(r))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ImportReader parses, validates and imports an assistants file.
func (s *Service) ImportReader(ctx context.Context, r io.Reader) ([]Assistant, error) {
	f, err := ParseFile(r)
	if err != nil {
		return nil, err
	}
	return s.Import(ctx, f)
}
