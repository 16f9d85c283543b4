package app

import (
	"context"

	"playchat/backend/event"
	"playchat/backend/knowledge"
)

// KnowledgeService is the Learned knowledge panel (issue 11): the entries
// web searches left behind, newest first, with search, delete and refresh.
type KnowledgeService struct{ app *App }

// KnowledgeEntry is one learned-knowledge entry.
type KnowledgeEntry struct {
	ID int64 `json:"id"`
	// Query is the search the entry answers.
	Query   string `json:"query"`
	Heading string `json:"heading"`
	// Body is the entry's Markdown: "## Key points" and, when any, "## Dates".
	Body string `json:"body"`
	// Model summarised the results; Provider searched.
	Model    string `json:"model"`
	Provider string `json:"provider"`
	// File is the Markdown file, relative to the knowledge-base folder.
	File string `json:"file"`
	// Summarised is false for an entry built from the search results
	// themselves (the model's summary could not be used); Summarize tries
	// again.
	Summarised bool `json:"summarised"`
	// FetchedAt is when the results were fetched (RFC 3339 UTC); CreatedAt
	// when the entry was first saved.
	FetchedAt string `json:"fetchedAt"`
	CreatedAt string `json:"createdAt"`
	// Sources are the pages the entry was built from, in citation order
	// (empty in List).
	Sources []event.Source `json:"sources"`
}

func toKnowledgeEntry(e knowledge.Entry) KnowledgeEntry {
	out := KnowledgeEntry{ID: e.ID, Query: e.Query, Heading: e.Heading, Body: e.Body, Model: e.Model, Provider: e.Provider,
		File: e.File, Summarised: e.Summarised, FetchedAt: ts(e.FetchedAt), CreatedAt: ts(e.CreatedAt), Sources: []event.Source{}}
	for _, s := range e.Sources {
		out.Sources = append(out.Sources, event.Source{Title: s.Title, URL: s.URL})
	}
	return out
}

// List returns the entries whose query, heading or text holds every word
// of query ("" = all), newest first, at most 500, without their sources.
func (s *KnowledgeService) List(query string) ([]KnowledgeEntry, error) {
	c, err := s.app.backend()
	if err != nil {
		return nil, err
	}
	es, err := c.Knowledge.Find(context.Background(), query, 500)
	if err != nil {
		return nil, err
	}
	out := make([]KnowledgeEntry, len(es))
	for i, e := range es {
		out[i] = toKnowledgeEntry(e)
	}
	return out, nil
}

// Get returns one entry with its sources (knowledge.notFound if gone).
func (s *KnowledgeService) Get(id int64) (KnowledgeEntry, error) {
	c, err := s.app.backend()
	if err != nil {
		return KnowledgeEntry{}, err
	}
	e, err := c.Knowledge.Get(context.Background(), id)
	if err != nil {
		return KnowledgeEntry{}, err
	}
	return toKnowledgeEntry(e), nil
}

// Delete removes an entry, its sources and its Markdown file.
func (s *KnowledgeService) Delete(id int64) error {
	c, err := s.app.backend()
	if err != nil {
		return err
	}
	return c.Knowledge.Delete(context.Background(), id)
}

// Refresh searches the entry's query again and re-summarises it with the
// model that wrote it (DEFAULT_MODEL when that is unknown), keeping its id.
// Errors are the search's (websearch.*) or the summary's; the entry is then
// unchanged.
func (s *KnowledgeService) Refresh(id int64) (KnowledgeEntry, error) {
	c, err := s.app.backend()
	if err != nil {
		return KnowledgeEntry{}, err
	}
	ctx := context.Background()
	old, err := c.Knowledge.Get(ctx, id)
	if err != nil {
		return KnowledgeEntry{}, err
	}
	model := old.Model
	if model == "" {
		model = c.Config().DefaultModel
	}
	e, err := c.Knowledge.Refresh(ctx, id, model)
	if err != nil {
		return KnowledgeEntry{}, err
	}
	return toKnowledgeEntry(e), nil
}

// Summarize has the model summarise again the search results of an entry
// saved unsummarised (Summarised false) — the entry's own model, else
// DEFAULT_MODEL — without searching again, keeping its id. Errors are the
// summary's (knowledge.badSummary when the model still does not follow
// the layout, knowledge.noResults for an entry that kept no results); the
// entry is then unchanged.
func (s *KnowledgeService) Summarize(id int64) (KnowledgeEntry, error) {
	c, err := s.app.backend()
	if err != nil {
		return KnowledgeEntry{}, err
	}
	ctx := context.Background()
	old, err := c.Knowledge.Get(ctx, id)
	if err != nil {
		return KnowledgeEntry{}, err
	}
	model := old.Model
	if model == "" {
		model = c.Config().DefaultModel
	}
	e, err := c.Knowledge.Resummarize(ctx, id, model)
	if err != nil {
		return KnowledgeEntry{}, err
	}
	return toKnowledgeEntry(e), nil
}
