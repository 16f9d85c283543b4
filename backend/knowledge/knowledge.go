// Package knowledge is what playchat learns from web searches (issue 11,
// DESIGN.md §5 layer 1): a search's results are summarised once by the
// turn's model into a structured entry (heading, key points, dates, the
// sources it used), saved in one transaction to knowledge_entries +
// knowledge_sources and as a Markdown file under knowledge_base/web_search/
// (indexed by the knowledge-base watcher like any document), reused for the
// same query within KNOWLEDGE_REUSE_DAYS, listed by heading in every
// context (layer 1) and read back with the read_knowledge tool.
package knowledge

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"playchat/backend/apperr"
	"playchat/backend/jatext"
	"playchat/backend/llm"
	"playchat/backend/store"
	"playchat/backend/websearch"
)

// Defaults of the settings.
const (
	DefaultContextLimit = 15 // KNOWLEDGE_CONTEXT_LIMIT
	DefaultReuseDays    = 7  // KNOWLEDGE_REUSE_DAYS
)

// Settings are read at every use, so changes in Settings apply at once.
type Settings struct {
	// Search chooses and configures the web search provider.
	Search websearch.Settings
	// ContextLimit is KNOWLEDGE_CONTEXT_LIMIT: headings in layer 1 (0 = none).
	ContextLimit int
	// ReuseDays is KNOWLEDGE_REUSE_DAYS: a search for the same normalised
	// query within this many days reuses the entry (0 = never reuse).
	ReuseDays int
	// Dir is the knowledge-base folder; entries are written to its
	// web_search/ subfolder.
	Dir string
}

// Completer is the LLM call the summary needs (backend/llm.Client).
type Completer interface {
	Complete(ctx context.Context, req llm.Request) (string, error)
}

// Options configure a Service.
type Options struct {
	DB       *store.DB
	LLM      Completer
	Settings func() Settings
	// HTTPClient is used for searches (nil: websearch's default, with its
	// timeout).
	HTTPClient *http.Client
	Logger     *slog.Logger
	// Clock is for tests; default time.Now.
	Clock func() time.Time
}

// Service stores, finds and creates learned knowledge. Safe for concurrent use.
type Service struct {
	db       *store.DB
	llm      Completer
	settings func() Settings
	hc       *http.Client
	log      *slog.Logger
	clock    func() time.Time
}

// New returns a Service.
func New(o Options) *Service {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	return &Service{db: o.DB, llm: o.LLM, settings: o.Settings, hc: o.HTTPClient, log: o.Logger, clock: o.Clock}
}

// Source is one web page an entry was built from.
type Source struct {
	Title string `json:"title"`
	URL   string `json:"url"`
	// Snippet and Published are the search result's text and date as the
	// provider gave them (kept so an entry saved unsummarised can be
	// summarised later); "" for entries saved before they were kept.
	Snippet   string `json:"snippet,omitempty"`
	Published string `json:"published,omitempty"`
}

// Entry is one piece of learned knowledge.
type Entry struct {
	ID int64 `json:"id"`
	// Query is the search as the model asked it.
	Query string `json:"query"`
	// Heading is the one-line title layer 1 lists.
	Heading string `json:"heading"`
	// Body is the entry's Markdown without its heading: "## Key points"
	// and, when any, "## Dates" (Summary.Body).
	Body string `json:"body"`
	// Model is the "provider/model" that summarised the results.
	Model string `json:"model"`
	// Provider is the search provider (tavily, brave, searxng).
	Provider string `json:"provider"`
	// File is the Markdown file, relative to the knowledge-base folder
	// (slash-separated, e.g. "web_search/knowledge-12.md").
	File string `json:"file"`
	// ContentHash is "sha256:<hex>" of the file's text after its front matter.
	ContentHash string `json:"contentHash"`
	// Summarised is false for an entry built from the search results
	// themselves because the model's summary could not be used (its
	// heading is the query, its points the results' snippets); it is
	// summarised when the query is searched again or by Resummarize.
	Summarised bool      `json:"summarised"`
	FetchedAt  time.Time `json:"fetchedAt"`
	CreatedAt  time.Time `json:"createdAt"`
	Sources    []Source  `json:"sources"`
}

// NormalizeQuery is the form queries are compared in for reuse: NFKC, lower
// case, single spaces, without the question marks and full stops at the end.
func NormalizeQuery(q string) string {
	q = strings.Join(strings.Fields(jatext.Normalize(q)), " ")
	return strings.TrimRight(q, "?？!！.。 ")
}

// ErrNotFound means no entry has the id.
func notFound(id int64) error {
	return apperr.New(apperr.KnowledgeNotFound, map[string]any{"id": id})
}

type entryRow struct {
	ID          int64        `bun:"id"`
	Query       string       `bun:"query"`
	Summary     string       `bun:"summary"`
	Heading     string       `bun:"heading"`
	Model       string       `bun:"model"`
	Provider    string       `bun:"provider"`
	FilePath    string       `bun:"file_path"`
	ContentHash string       `bun:"content_hash"`
	Summarised  bool         `bun:"summarised"`
	FetchedAt   sql.NullTime `bun:"fetched_at"`
	CreatedAt   time.Time    `bun:"created_at"`
}

const entryColumns = `id, query, summary, heading, model, provider, file_path, content_hash, summarised, fetched_at, created_at`

func (r entryRow) entry() Entry {
	e := Entry{ID: r.ID, Query: r.Query, Heading: r.Heading, Body: r.Summary, Model: r.Model, Provider: r.Provider,
		File: r.FilePath, ContentHash: r.ContentHash, Summarised: r.Summarised, FetchedAt: r.FetchedAt.Time.UTC(),
		CreatedAt: r.CreatedAt.UTC()}
	if !r.FetchedAt.Valid {
		e.FetchedAt = e.CreatedAt
	}
	if e.Heading == "" {
		e.Heading = r.Query
	}
	return e
}

// Get returns entry id with its sources.
func (s *Service) Get(ctx context.Context, id int64) (Entry, error) {
	var r entryRow
	err := s.db.Bun().NewRaw(`SELECT `+entryColumns+` FROM knowledge_entries WHERE id = ?`, id).Scan(ctx, &r)
	if errors.Is(err, sql.ErrNoRows) {
		return Entry{}, notFound(id)
	}
	if err != nil {
		return Entry{}, err
	}
	e := r.entry()
	if e.Sources, err = s.sources(ctx, id); err != nil {
		return Entry{}, err
	}
	return e, nil
}

func (s *Service) sources(ctx context.Context, id int64) ([]Source, error) {
	var rows []struct {
		Title     string `bun:"title"`
		URL       string `bun:"url"`
		Snippet   string `bun:"snippet"`
		Published string `bun:"published"`
	}
	err := s.db.Bun().NewRaw(`SELECT title, url, snippet, published FROM knowledge_sources WHERE entry_id = ?
		ORDER BY position, id`, id).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	out := make([]Source, len(rows))
	for i, r := range rows {
		out[i] = Source{Title: r.Title, URL: r.URL, Snippet: r.Snippet, Published: r.Published}
	}
	return out, nil
}

// List returns up to limit entries, newest first (limit ≤ 0: all), without
// sources.
func (s *Service) List(ctx context.Context, limit int) ([]Entry, error) {
	q := `SELECT ` + entryColumns + ` FROM knowledge_entries ORDER BY created_at DESC, id DESC`
	var args []any
	if limit > 0 {
		q += ` LIMIT ?`
		args = append(args, limit)
	}
	var rows []entryRow
	if err := s.db.Bun().NewRaw(q, args...).Scan(ctx, &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	out := make([]Entry, len(rows))
	for i, r := range rows {
		out[i] = r.entry()
	}
	return out, nil
}

// Any reports whether at least one entry exists (read_knowledge is offered
// only then). Errors count as none.
func (s *Service) Any(ctx context.Context) bool {
	var n int
	err := s.db.Bun().NewRaw(`SELECT COUNT(*) FROM (SELECT 1 FROM knowledge_entries LIMIT 1)`).Scan(ctx, &n)
	return err == nil && n > 0
}

// Reusable returns the newest entry for the normalised query fetched within
// the reuse window, or ok false.
func (s *Service) Reusable(ctx context.Context, query string) (Entry, bool, error) {
	days := s.settings().ReuseDays
	if days <= 0 {
		return Entry{}, false, nil
	}
	since := s.clock().UTC().Add(-time.Duration(days) * 24 * time.Hour)
	var ids []int64
	err := s.db.Bun().NewRaw(`SELECT id FROM knowledge_entries WHERE norm_query = ? AND fetched_at >= ?
		ORDER BY fetched_at DESC, id DESC LIMIT 1`, NormalizeQuery(query), since).Scan(ctx, &ids)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return Entry{}, false, err
	}
	if len(ids) == 0 {
		return Entry{}, false, nil
	}
	e, err := s.Get(ctx, ids[0])
	return e, err == nil, err
}

// Delete removes entry id, its sources and its Markdown file. A file that
// is already gone is not an error.
func (s *Service) Delete(ctx context.Context, id int64) error {
	e, err := s.Get(ctx, id)
	if err != nil {
		return err
	}
	err = s.db.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM knowledge_sources WHERE entry_id = ?`, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM knowledge_entries WHERE id = ?`, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("delete knowledge entry %d: %w", id, err)
	}
	if e.File != "" {
		if err := removeFile(s.settings().Dir, e.File); err != nil {
			s.log.Warn("remove knowledge file", "file", e.File, "err", err)
		}
	}
	return nil
}
