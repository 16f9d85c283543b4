package knowledge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"playchat/backend/apperr"
	"playchat/backend/atomicfile"
	"playchat/backend/websearch"
)

// Find returns up to limit entries, newest first, whose query, heading or
// body contains every word of text (case-insensitive; "" lists all).
func (s *Service) Find(ctx context.Context, text string, limit int) ([]Entry, error) {
	words := strings.Fields(strings.ToLower(text))
	if len(words) == 0 {
		return s.List(ctx, limit)
	}
	q := `SELECT ` + entryColumns + ` FROM knowledge_entries WHERE 1 = 1`
	var args []any
	for _, w := range words {
		q += ` AND instr(lower(query || ' ' || heading || ' ' || summary), ?) > 0`
		args = append(args, w)
	}
	q += ` ORDER BY created_at DESC, id DESC`
	if limit > 0 {
		q += ` LIMIT ?`
		args = append(args, limit)
	}
	var rows []entryRow
	if err := s.db.Bun().NewRaw(q, args...).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	out := make([]Entry, len(rows))
	for i, r := range rows {
		out[i] = r.entry()
	}
	return out, nil
}

// Refresh searches entry id's query again, has model (the entry's own
// model when "") summarise the new results and replaces the entry's
// heading, body, sources and file in one transaction, keeping its id. On
// any error the entry stays as it was.
func (s *Service) Refresh(ctx context.Context, id int64, model string) (Entry, error) {
	old, err := s.Get(ctx, id)
	if err != nil {
		return Entry{}, err
	}
	if model == "" {
		model = old.Model
	}
	set := s.settings()
	p, err := websearch.New(set.Search, s.hc)
	if err != nil {
		return Entry{}, err
	}
	results, err := p.Search(ctx, old.Query, websearch.DefaultMaxResults)
	if err != nil {
		return Entry{}, err
	}
	if len(results) == 0 {
		return Entry{}, fmt.Errorf("the %s search for %q found nothing; the entry is unchanged", p.Name(), old.Query)
	}
	sum, err := s.summarize(ctx, model, old.Query, results)
	if err != nil {
		return Entry{}, err
	}
	now := s.clock().UTC().Truncate(time.Microsecond)
	e := Entry{ID: id, Query: old.Query, Heading: sum.Heading, Body: sum.Body(), Model: model, Provider: p.Name(),
		Summarised: true, File: fileName(id), FetchedAt: now, CreatedAt: old.CreatedAt, Sources: usedSources(sum, results)}
	return s.rewrite(ctx, old, e)
}

// Resummarize has model (the entry's own when "") summarise again the
// search results an entry was built from — for an entry saved unsummarised
// (Entry.Summarised false) when a model does better. It replaces the
// heading, body and sources (those the summary used) in one transaction,
// keeps the id and the time of the search, and marks the entry summarised.
// Errors: the summary's (apperr.KnowledgeBadSummary when the model still
// does not follow the layout), knowledge.noResults when the entry kept no
// result snippets (saved before they were kept: Refresh searches again).
// On any error the entry stays as it was.
func (s *Service) Resummarize(ctx context.Context, id int64, model string) (Entry, error) {
	old, err := s.Get(ctx, id)
	if err != nil {
		return Entry{}, err
	}
	if model == "" {
		model = old.Model
	}
	results := make([]websearch.Result, 0, len(old.Sources))
	for _, src := range old.Sources {
		if strings.TrimSpace(src.Snippet) != "" {
			results = append(results, websearch.Result{Title: src.Title, URL: src.URL, Snippet: src.Snippet, Published: src.Published})
		}
	}
	if len(results) == 0 {
		return Entry{}, apperr.New(apperr.KnowledgeNoResults, map[string]any{"id": id})
	}
	sum, err := s.summarize(ctx, model, old.Query, results)
	if err != nil {
		return Entry{}, err
	}
	e := Entry{ID: id, Query: old.Query, Heading: sum.Heading, Body: sum.Body(), Model: model, Provider: old.Provider,
		Summarised: true, File: fileName(id), FetchedAt: old.FetchedAt, CreatedAt: old.CreatedAt,
		Sources: usedSources(sum, results)}
	return s.rewrite(ctx, old, e)
}

// rewrite replaces entry old by e (same id): its row, its sources and its
// file, in one transaction; the old file comes back if the transaction
// fails after the new one was written.
func (s *Service) rewrite(ctx context.Context, old, e Entry) (Entry, error) {
	set := s.settings()
	if strings.TrimSpace(set.Dir) == "" {
		return Entry{}, errors.New("no knowledge base folder")
	}
	id := e.ID
	now := s.clock().UTC().Truncate(time.Microsecond)
	text, hash := Markdown(e)
	e.ContentHash = hash
	path := filepath.Join(set.Dir, filepath.FromSlash(e.File))
	prev, prevErr := os.ReadFile(path)
	err := s.db.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE knowledge_entries SET summary = ?, heading = ?, model = ?, provider = ?,
			file_path = ?, content_hash = ?, summarised = ?, fetched_at = ?, updated_at = ? WHERE id = ?`,
			e.Body, e.Heading, e.Model, e.Provider, e.File, hash, e.Summarised, e.FetchedAt, now, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM knowledge_sources WHERE entry_id = ?`, id); err != nil {
			return err
		}
		if err := insertSources(ctx, tx, id, e.Sources); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return err
		}
		return atomicfile.Write(path, []byte(text), 0o600)
	})
	if err != nil {
		// The rows rolled back; put the old file back if it was replaced.
		if cur, rerr := os.ReadFile(path); rerr == nil && string(cur) == text {
			if prevErr == nil {
				_ = atomicfile.Write(path, prev, 0o600)
			} else {
				_ = os.Remove(path)
			}
		}
		return Entry{}, fmt.Errorf("rewrite knowledge entry %d: %w", id, err)
	}
	if old.File != "" && old.File != e.File {
		_ = removeFile(set.Dir, old.File)
	}
	return e, nil
}
