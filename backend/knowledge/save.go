package knowledge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"gopkg.in/yaml.v3"

	"playchat/backend/atomicfile"
	"playchat/backend/websearch"
)

// Folder is the knowledge-base subfolder the entries are written to.
const Folder = "web_search"

// fileName is an entry's file, relative to the knowledge-base folder.
func fileName(id int64) string { return fmt.Sprintf("%s/knowledge-%d.md", Folder, id) }

// frontMatter records where an entry's file came from. title and tags are
// the keys the knowledge-base indexer reads; the rest is provenance.
type frontMatter struct {
	Title       string   `yaml:"title"`
	Tags        []string `yaml:"tags"`
	KnowledgeID int64    `yaml:"knowledge_id"`
	Query       string   `yaml:"query"`
	Sources     []string `yaml:"sources"`
	Model       string   `yaml:"model"`
	Provider    string   `yaml:"provider"`
	// Summarised is false when the model's summary could not be used and
	// the file holds the search results themselves.
	Summarised  bool   `yaml:"summarised"`
	FetchedAt   string `yaml:"fetched_at"`
	ContentHash string `yaml:"content_hash"`
}

// Markdown renders e as its file: YAML front matter (title, tags, the
// entry id, query, source URLs, model, provider, summarised, fetched_at in
// RFC 3339 UTC and content_hash), then "# heading", the body and the numbered sources.
// It returns the file's text and the hash of the part after the front
// matter ("sha256:<hex>").
func Markdown(e Entry) (text, hash string) {
	var b strings.Builder
	b.WriteString("# " + e.Heading + "\n\n")
	b.WriteString(strings.TrimSpace(e.Body) + "\n\n## Sources\n\n")
	for i, src := range e.Sources {
		fmt.Fprintf(&b, "%d. [%s](%s)\n", i+1, escapeLinkText(src.Title), src.URL)
	}
	body := b.String()
	sum := sha256.Sum256([]byte(body))
	hash = "sha256:" + hex.EncodeToString(sum[:])
	fm := frontMatter{Title: e.Heading, Tags: []string{"web_search"}, KnowledgeID: e.ID, Query: e.Query,
		Model: e.Model, Provider: e.Provider, Summarised: e.Summarised, FetchedAt: e.FetchedAt.UTC().Format(time.RFC3339), ContentHash: hash}
	for _, src := range e.Sources {
		fm.Sources = append(fm.Sources, src.URL)
	}
	y, _ := yaml.Marshal(fm)
	return "---\n" + string(y) + "---\n\n" + body, hash
}

func escapeLinkText(s string) string {
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`).Replace(s)
}

// save stores a new entry built from sum and results (summarised false: sum
// is fallbackSummary's): the entry and its sources are inserted and the
// Markdown file written inside one transaction, so either all three exist
// or none does (a failed write rolls the rows back; a failed commit
// removes the file).
func (s *Service) save(ctx context.Context, query, model, provider string, sum Summary, results []websearch.Result, summarised bool) (Entry, error) {
	dir := s.settings().Dir
	if strings.TrimSpace(dir) == "" {
		return Entry{}, errors.New("no knowledge base folder")
	}
	now := s.clock().UTC().Truncate(time.Microsecond)
	e := Entry{Query: strings.TrimSpace(query), Heading: sum.Heading, Body: sum.Body(), Model: model, Provider: provider,
		Summarised: summarised, FetchedAt: now, CreatedAt: now, Sources: usedSources(sum, results)}
	var written string
	err := s.db.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		var id int64
		err := tx.QueryRowContext(ctx, `INSERT INTO knowledge_entries
			(query, summary, heading, norm_query, model, provider, summarised, fetched_at, updated_at, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			e.Query, e.Body, e.Heading, NormalizeQuery(e.Query), e.Model, e.Provider, e.Summarised, now, now, now).Scan(&id)
		if err != nil {
			return fmt.Errorf("insert knowledge entry: %w", err)
		}
		e.ID, e.File = id, fileName(id)
		if err := insertSources(ctx, tx, id, e.Sources); err != nil {
			return err
		}
		text, hash := Markdown(e)
		e.ContentHash = hash
		if _, err := tx.ExecContext(ctx, `UPDATE knowledge_entries SET file_path = ?, content_hash = ? WHERE id = ?`,
			e.File, hash, id); err != nil {
			return fmt.Errorf("record knowledge file: %w", err)
		}
		path := filepath.Join(dir, filepath.FromSlash(e.File))
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return fmt.Errorf("create %s: %w", Folder, err)
		}
		if err := atomicfile.Write(path, []byte(text), 0o600); err != nil {
			return fmt.Errorf("write knowledge file: %w", err)
		}
		written = path
		return nil
	})
	if err != nil {
		if written != "" {
			_ = os.Remove(written)
		}
		return Entry{}, err
	}
	return e, nil
}

// usedSources are the results sum used, in its order, as sources.
func usedSources(sum Summary, results []websearch.Result) []Source {
	out := make([]Source, 0, len(sum.Used))
	for _, k := range sum.Used {
		r := results[k-1]
		out = append(out, Source{Title: r.Title, URL: r.URL, Snippet: r.Snippet, Published: r.Published})
	}
	return out
}

// insertSources stores an entry's sources in their order.
func insertSources(ctx context.Context, tx bun.Tx, id int64, ss []Source) error {
	for i, src := range ss {
		if _, err := tx.ExecContext(ctx, `INSERT INTO knowledge_sources (entry_id, title, url, position, snippet, published)
			VALUES (?, ?, ?, ?, ?, ?)`, id, src.Title, src.URL, i, src.Snippet, src.Published); err != nil {
			return fmt.Errorf("insert knowledge source: %w", err)
		}
	}
	return nil
}

// removeFile deletes an entry's file (rel is slash-separated under dir);
// one that does not exist is fine. Paths outside dir/web_search are refused.
func removeFile(dir, rel string) error {
	if !strings.HasPrefix(rel, Folder+"/") || strings.Contains(rel, "..") {
		return fmt.Errorf("refusing to remove %q: not under %s/", rel, Folder)
	}
	err := os.Remove(filepath.Join(dir, filepath.FromSlash(rel)))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}
