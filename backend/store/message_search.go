package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"playchat/backend/jatext"
)

// Search over every chat's messages (migration MigrationMessageSearch).
//
// message_fts holds each message's text as jatext.Segment terms (NFKC, lower
// case, kagome's dictionary forms), the same analysis as the knowledge base,
// so a query meets the text whatever its width or inflection (ﾜｶﾞﾊｲ finds
// ワガハイ, 書いた finds 書く). SQLite triggers cannot run kagome: they queue
// every inserted or edited message in message_search_pending and remove a
// deleted message's terms (cascades from a deleted session included). Every
// search first segments what is queued (IndexPendingMessages), so a hit is
// never missing or stale, and chat turns never wait for the dictionary.

// Search limits.
const (
	// DefaultSearchLimit is the number of hits a query returns when its
	// Limit is 0.
	DefaultSearchLimit = 50
	// MaxSearchLimit caps MessageSearch.Limit.
	MaxSearchLimit = 500
	// MaxSearchQueryRunes caps the query text, in runes.
	MaxSearchQueryRunes = 500
	// ExcerptRunes is the length of a hit's excerpt, in runes of the
	// message text, before the ellipses.
	ExcerptRunes = 120
	// indexBatch is how many queued messages are segmented per write
	// transaction.
	indexBatch = 500
)

// indexMu serialises IndexPendingMessages.
var indexMu sync.Mutex

// ErrEmptySearch is returned for a query with no searchable word (empty,
// punctuation only).
var ErrEmptySearch = errors.New("the search has no word to look for")

// MessageSearch is a query over every chat's messages.
type MessageSearch struct {
	// Text is what the user typed: every word of it must occur in a hit
	// (after NFKC and kagome analysis). A last Latin word still being
	// typed also matches as a prefix ("wagah" finds "wagahai").
	// A word starting with '#' is a tag the hit must carry ("#天気").
	Text string
	// SessionID limits hits to one session ("" = all sessions).
	SessionID string
	// From and To limit hits to messages created in [From, To) (UTC); a
	// zero time leaves that side open.
	From, To time.Time
	// Limit is the most hits returned: 0 = DefaultSearchLimit, capped at
	// MaxSearchLimit.
	Limit int
}

// ExcerptPart is a piece of a hit's excerpt: plain text, or a match of the
// query when Match is true. The UI renders the parts as text nodes (never
// as HTML), so message text cannot inject markup.
type ExcerptPart struct {
	Text  string `json:"text"`
	Match bool   `json:"match,omitempty"`
}

// MessageHit is one message found by a search.
type MessageHit struct {
	SessionID    string `json:"sessionId"`
	SessionTitle string `json:"sessionTitle"`
	MessageID    int64  `json:"messageId"`
	// Role is user, assistant or system.
	Role string `json:"role"`
	// CreatedAt is when the message was stored (UTC).
	CreatedAt time.Time `json:"createdAt"`
	// Archived is true when the message was summarised into a memory.
	Archived bool `json:"archived"`
	// Excerpt is about ExcerptRunes of the message around its matches,
	// whitespace runs folded to one space, "…" where text was cut.
	Excerpt []ExcerptPart `json:"excerpt"`
}

// ExcerptText joins the excerpt with each match between open and close
// (e.g. "«" and "»" for a terminal).
func (h MessageHit) ExcerptText(open, close string) string {
	var b strings.Builder
	for _, p := range h.Excerpt {
		if p.Match {
			b.WriteString(open + p.Text + close)
		} else {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// IndexPendingMessages segments every queued message (inserted or edited
// since it was last indexed) into message_fts and reports how many it
// indexed. Segmenting runs outside the write transaction; a message edited
// or deleted meanwhile is left for the next pass (or was dropped by its
// trigger). Its errors are the database's and the dictionary's.
func (d *DB) IndexPendingMessages(ctx context.Context) (int, error) {
	// One pass at a time in this process: a search waits for a pass already
	// segmenting the queue instead of segmenting the same messages again.
	indexMu.Lock()
	defer indexMu.Unlock()
	total := 0
	for {
		var rows []struct {
			ID      int64  `bun:"id"`
			Content string `bun:"content"`
		}
		err := d.bun.NewSelect().TableExpr("message_search_pending AS p").
			ColumnExpr("p.message_id AS id, coalesce(m.content, '') AS content").
			Join("LEFT JOIN messages AS m ON m.id = p.message_id").
			OrderExpr("p.message_id").Limit(indexBatch).Scan(ctx, &rows)
		if err != nil {
			return total, fmt.Errorf("read the search queue: %w", err)
		}
		if len(rows) == 0 {
			return total, nil
		}
		terms := make([]string, len(rows))
		for i, r := range rows {
			if terms[i], err = jatext.Segment(r.Content); err != nil {
				return total, err
			}
		}
		err = d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
			for i, r := range rows {
				var content string
				err := tx.QueryRowContext(ctx, `SELECT content FROM messages WHERE id = ?`, r.ID).Scan(&content)
				switch {
				case errors.Is(err, sql.ErrNoRows):
					// Deleted since: its trigger removed its terms.
				case err != nil:
					return err
				case content != r.Content:
					continue // edited since: still queued, read again next pass
				default:
					if _, err := tx.ExecContext(ctx, `DELETE FROM message_fts WHERE rowid = ?`, r.ID); err != nil {
						return err
					}
					if _, err := tx.ExecContext(ctx, `INSERT INTO message_fts (rowid, terms) VALUES (?, ?)`, r.ID, terms[i]); err != nil {
						return err
					}
				}
				if _, err := tx.ExecContext(ctx, `DELETE FROM message_search_pending WHERE message_id = ?`, r.ID); err != nil {
					return err
				}
				total++
			}
			return nil
		})
		if err != nil {
			return total, fmt.Errorf("index messages for search: %w", err)
		}
		if len(rows) < indexBatch {
			return total, nil
		}
	}
}

// SearchMessages finds the messages of every session (or of q.SessionID)
// that hold every word of q.Text, the most recently stored first, with an excerpt around the
// matches. A word starting with '#' ("#天気") is a tag: hits carry every
// such tag (message_tags, case-insensitive for Latin letters; a last tag
// still being typed as a prefix), and a query of tags only lists the
// tagged messages, newest first. Queued messages are
// indexed first. It returns ErrEmptySearch for a query without a word or
// tag, and the database's or dictionary's errors.
func (d *DB) SearchMessages(ctx context.Context, q MessageSearch) ([]MessageHit, error) {
	if utf8.RuneCountInString(q.Text) > MaxSearchQueryRunes {
		return nil, fmt.Errorf("the search is longer than %d characters", MaxSearchQueryRunes)
	}
	text, tags, typing := splitTagQuery(q.Text) // "#tag" words filter by tag (tags.go)
	expr, forms, err := searchExpr(text)
	if err != nil {
		return nil, err
	}
	if expr == "" && len(tags) == 0 {
		return nil, ErrEmptySearch
	}
	if _, err := d.IndexPendingMessages(ctx); err != nil {
		return nil, err
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	limit = min(limit, MaxSearchLimit)
	var rows []struct {
		ID         int64      `bun:"id"`
		SessionID  string     `bun:"session_id"`
		Title      string     `bun:"title"`
		Role       string     `bun:"role"`
		Content    string     `bun:"content"`
		CreatedAt  time.Time  `bun:"created_at"`
		ArchivedAt *time.Time `bun:"archived_at"`
	}
	sel := d.bun.NewSelect().TableExpr("message_fts AS f").
		ColumnExpr("m.id, m.session_id, s.title, m.role, m.content, m.created_at, m.archived_at").
		// CROSS JOIN keeps the index as the outer loop: SQLite would
		// otherwise walk a session's messages and run the MATCH once per
		// message (half a second for a common word at 100k messages).
		Join("CROSS JOIN messages AS m ON m.id = f.rowid").
		Join("JOIN sessions AS s ON s.id = m.session_id").
		Where("message_fts MATCH ?", expr)
	// Newest first by when a message was written, not stored: an imported
	// chat from 2023 is stored after today's messages (issue 22).
	order := "m.created_at DESC, m.id DESC"
	if expr == "" { // tags only: no text to match
		sel = d.bun.NewSelect().TableExpr("messages AS m").
			ColumnExpr("m.id, m.session_id, s.title, m.role, m.content, m.created_at, m.archived_at").
			Join("JOIN sessions AS s ON s.id = m.session_id")
		order = "m.created_at DESC, m.id DESC"
	}
	for i, tag := range tags {
		sel = tagFilter(sel, tag, typing && i == len(tags)-1)
	}
	if q.SessionID != "" && expr == "" {
		sel = sel.Where("m.session_id = ?", q.SessionID)
	} else if q.SessionID != "" {
		// The bounds of the session's ids let FTS5 seek to its messages
		// instead of walking every newer match of the word.
		var lo, hi sql.NullInt64
		if err := d.bun.QueryRowContext(ctx, `SELECT min(id), max(id) FROM messages WHERE session_id = ?`, q.SessionID).Scan(&lo, &hi); err != nil {
			return nil, fmt.Errorf("search messages: %w", err)
		}
		if !lo.Valid {
			return []MessageHit{}, nil
		}
		sel = sel.Where("m.session_id = ?", q.SessionID).Where("f.rowid BETWEEN ? AND ?", lo.Int64, hi.Int64)
	}
	if !q.From.IsZero() {
		sel = sel.Where("m.created_at >= ?", q.From.UTC())
	}
	if !q.To.IsZero() {
		sel = sel.Where("m.created_at < ?", q.To.UTC())
	}
	// Sorting by created_at reads every match before the limit applies
	// (FTS5 alone could stop early walking its rowids); BenchmarkMessageSearch100k
	// keeps its cost in view.
	if err := sel.OrderExpr(order).Limit(limit).Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("search messages: %w", err)
	}
	hits := make([]MessageHit, len(rows))
	for i, r := range rows {
		hits[i] = MessageHit{
			SessionID: r.SessionID, SessionTitle: r.Title, MessageID: r.ID, Role: r.Role,
			CreatedAt: r.CreatedAt.UTC(), Archived: r.ArchivedAt != nil,
			Excerpt: excerptParts(r.Content, forms, ExcerptRunes),
		}
	}
	return hits, nil
}

// searchExpr turns what the user typed into an FTS5 expression (every term
// of jatext.Segment, quoted, ANDed; the last one a prefix when the text ends
// inside a Latin word) and the spellings to mark in excerpts: each term and
// the surface of each query word. The terms are also the dictionary forms
// whose inflections excerpts mark (書いた for 書く: jatext.MatchBaseSpans).
func searchExpr(text string) (expr string, forms []string, err error) {
	seg, err := jatext.Segment(text)
	if err != nil {
		return "", nil, err
	}
	keys := strings.Fields(seg)
	if len(keys) == 0 {
		return "", nil, nil
	}
	qt, err := jatext.QueryTerms(text)
	if err != nil {
		return "", nil, err
	}
	forms = append(forms, keys...)
	for _, t := range qt {
		forms = append(forms, t.Forms...)
	}
	trimmed := strings.TrimRightFunc(text, unicode.IsSpace)
	last, _ := utf8.DecodeLastRuneInString(trimmed)
	prefix := trimmed == text && last < utf8.RuneSelf && (unicode.IsLetter(last) || unicode.IsDigit(last))
	parts := make([]string, 0, len(keys))
	seen := map[string]bool{}
	for i, k := range keys {
		p := `"` + strings.ReplaceAll(k, `"`, `""`) + `"`
		if prefix && i == len(keys)-1 {
			p += "*"
		}
		if !seen[p] {
			seen[p] = true
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " AND "), forms, nil
}

// mergeSpans sorts spans and merges the ones that overlap or touch.
func mergeSpans(spans []jatext.Span) []jatext.Span {
	sort.Slice(spans, func(i, j int) bool { return spans[i].Start < spans[j].Start })
	var out []jatext.Span
	for _, sp := range spans {
		if n := len(out); n > 0 && sp.Start <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, sp.End)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// excerptParts cuts about width runes of text (whitespace folded) around its
// first match of forms and splits it into plain and matched parts. An
// inflected form of a word of forms is a match too (書いた for 書く; issue
// 22: found, but not marked). Without a match (a prefix hit) it is the
// text's opening.
func excerptParts(content string, forms []string, width int) []ExcerptPart {
	text := []rune(strings.Join(strings.Fields(content), " "))
	spans := jatext.MatchSpans(text, forms)
	// Inflected forms: looked for in the excerpt when the text's own
	// spelling placed it, else from the text's start (MatchBaseSpans reads
	// at most its first 20,000 runes).
	from := 0
	if len(spans) > 0 {
		from = max(0, spans[0].Start-width/4)
	}
	upto := len(text)
	if len(spans) > 0 {
		upto = min(len(text), from+width)
	}
	if inflected, err := jatext.MatchBaseSpans(text[from:upto], forms); err == nil && len(inflected) > 0 {
		for i := range inflected {
			inflected[i].Start += from
			inflected[i].End += from
		}
		spans = mergeSpans(append(spans, inflected...))
	}
	start := 0
	if len(spans) > 0 {
		start = max(0, spans[0].Start-width/4)
	}
	end := min(len(text), start+width)
	if end-start < width {
		start = max(0, end-width)
	}
	var out []ExcerptPart
	plain := func(s string) {
		if s == "" {
			return
		}
		if n := len(out); n > 0 && !out[n-1].Match {
			out[n-1].Text += s
			return
		}
		out = append(out, ExcerptPart{Text: s})
	}
	if start > 0 {
		plain("…")
	}
	pos := start
	for _, sp := range spans {
		if sp.Start < pos || sp.End > end {
			continue
		}
		plain(string(text[pos:sp.Start]))
		out = append(out, ExcerptPart{Text: string(text[sp.Start:sp.End]), Match: true})
		pos = sp.End
	}
	plain(string(text[pos:end]))
	if end < len(text) {
		plain("…")
	}
	return out
}
