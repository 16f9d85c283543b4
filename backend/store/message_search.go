package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
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
	indexBatch = 2000
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
// indexed. Segmenting runs outside the write transactions, on every CPU for
// a large queue (an upgrade's first search, an import), the next batch
// while the last is written; a message edited meanwhile is read again
// once more in this call, then left for the next one (one deleted was
// dropped by its trigger). Its errors are the database's and the
// dictionary's.
func (d *DB) IndexPendingMessages(ctx context.Context) (int, error) {
	// One pass at a time in this process: a search waits for a pass already
	// segmenting the queue instead of segmenting the same messages again.
	indexMu.Lock()
	defer indexMu.Unlock()
	total := 0
	for sweep := 0; sweep < 2; sweep++ {
		n, edited, err := d.indexSweep(ctx)
		total += n
		if err != nil || edited == 0 {
			return total, err
		}
	}
	return total, nil
}

// segmented is a batch of queued messages with their terms.
type segmented struct {
	rows  []pendingMessage
	terms []string
	err   error
}

// indexSweep indexes the queue once through, in id order, batch by batch:
// it reports how many messages left the queue and how many stayed because
// they were edited after being read.
func (d *DB) indexSweep(ctx context.Context) (done, edited int, err error) {
	after := int64(math.MinInt64)
	read := func() ([]pendingMessage, error) {
		var rows []pendingMessage
		err := d.bun.NewSelect().TableExpr("message_search_pending AS p").
			ColumnExpr("p.message_id AS id, coalesce(m.content, '') AS content").
			Join("LEFT JOIN messages AS m ON m.id = p.message_id").
			Where("p.message_id > ?", after).
			OrderExpr("p.message_id").Limit(indexBatch).Scan(ctx, &rows)
		if err != nil {
			return nil, fmt.Errorf("read the search queue: %w", err)
		}
		if len(rows) > 0 {
			after = rows[len(rows)-1].ID
		}
		return rows, nil
	}
	segment := func(rows []pendingMessage) <-chan segmented {
		out := make(chan segmented, 1)
		go func() {
			terms, err := segmentAll(rows)
			out <- segmented{rows, terms, err}
		}()
		return out
	}
	rows, err := read()
	if err != nil || len(rows) == 0 {
		return 0, 0, err
	}
	next := segment(rows)
	for next != nil {
		batch := <-next
		if batch.err != nil {
			return done, edited, batch.err
		}
		next = nil
		if len(batch.rows) == indexBatch {
			rows, err := read()
			if err != nil {
				return done, edited, err
			}
			if len(rows) > 0 {
				next = segment(rows)
			}
		}
		n, err := d.writeTerms(ctx, batch.rows, batch.terms)
		done += n
		edited += len(batch.rows) - n
		if err != nil {
			return done, edited, fmt.Errorf("index messages for search: %w", err)
		}
	}
	return done, edited, nil
}

// pendingMessage is a queued message as read for indexing ("" for one
// deleted since it was queued).
type pendingMessage struct {
	ID      int64  `bun:"id"`
	Content string `bun:"content"`
}

// segmentAll returns jatext.Segment of each row's content, in order,
// segmenting on up to GOMAXPROCS goroutines (the tokenizer is safe for
// concurrent use). Its error is the dictionary's.
func segmentAll(rows []pendingMessage) ([]string, error) {
	terms := make([]string, len(rows))
	workers := min(runtime.GOMAXPROCS(0), len(rows)/64+1)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(rows); i += workers {
				var err error
				if terms[i], err = jatext.Segment(rows[i].Content); err != nil {
					errs[w] = err
					return
				}
			}
		}(w)
	}
	wg.Wait()
	return terms, errors.Join(errs...)
}

// writeTerms stores terms[i] as the index entry of rows[i] and takes each
// row off the queue, in one transaction of five statements whatever the
// batch's size: the driver parses a statement on every call, triggers
// included, so a statement per row cost more than the writing. One of
// them records the batch's Latin words (saveSearchTerms). A row
// whose content changed since it was read stays queued; one deleted since
// only leaves the queue (its trigger removed its terms). It reports how
// many rows left the queue.
func (d *DB) writeTerms(ctx context.Context, rows []pendingMessage, terms []string) (int, error) {
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	idList, err := json.Marshal(ids)
	if err != nil {
		return 0, err
	}
	done := 0
	err = d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		current := make(map[int64]string, len(rows))
		cur, err := tx.QueryContext(ctx, `SELECT id, content FROM messages WHERE id IN (SELECT value FROM json_each(?))`, string(idList))
		if err != nil {
			return err
		}
		for cur.Next() {
			var id int64
			var content string
			if err := cur.Scan(&id, &content); err != nil {
				cur.Close()
				return err
			}
			current[id] = content
		}
		if err := errors.Join(cur.Err(), cur.Close()); err != nil {
			return err
		}
		unqueue, index, entries := []int64{}, []int64{}, [][2]any{}
		for i, r := range rows {
			content, ok := current[r.ID]
			switch {
			case !ok:
				// Deleted since: its trigger removed its terms.
			case content != r.Content:
				continue // edited since: still queued, read again next pass
			default:
				index = append(index, r.ID)
				entries = append(entries, [2]any{r.ID, terms[i]})
			}
			unqueue = append(unqueue, r.ID)
		}
		indexList, err := json.Marshal(index)
		if err != nil {
			return err
		}
		entryList, err := json.Marshal(entries)
		if err != nil {
			return err
		}
		unqueueList, err := json.Marshal(unqueue)
		if err != nil {
			return err
		}
		indexed := make([]string, 0, len(index))
		for i, r := range rows {
			if content, ok := current[r.ID]; ok && content == r.Content {
				indexed = append(indexed, terms[i])
			}
		}
		if err := saveSearchTerms(ctx, tx, indexed); err != nil { // message_search_terms.go
			return err
		}
		for _, st := range []struct {
			q   string
			arg []byte
		}{
			{`DELETE FROM message_fts WHERE rowid IN (SELECT value FROM json_each(?))`, indexList},
			{`INSERT INTO message_fts (rowid, terms) SELECT value ->> 0, value ->> 1 FROM json_each(?)`, entryList},
			{`DELETE FROM message_search_pending WHERE message_id IN (SELECT value FROM json_each(?))`, unqueueList},
		} {
			if _, err := tx.ExecContext(ctx, st.q, string(st.arg)); err != nil {
				return err
			}
		}
		done = len(unqueue)
		return nil
	})
	if err != nil {
		return 0, err
	}
	return done, nil
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
	if expr != "" {
		// The Latin word being typed, as the words it begins (message_search_terms.go).
		var none bool
		if expr, none, err = d.expandPrefix(ctx, expr); err != nil {
			return nil, fmt.Errorf("search messages: %w", err)
		} else if none {
			return []MessageHit{}, nil
		}
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	limit = min(limit, MaxSearchLimit)
	var rows []hitRow
	if expr != "" {
		ids, err := d.matchIDs(ctx, q, expr, tags, typing, limit) // message_search_plan.go
		if err != nil {
			return nil, fmt.Errorf("search messages: %w", err)
		}
		if rows, err = d.hitRows(ctx, ids, limit); err != nil {
			return nil, err
		}
	} else { // tags only: no text to match
		sel := d.bun.NewSelect().TableExpr("messages AS m").
			ColumnExpr("m.id, m.session_id, s.title, m.role, m.content, m.created_at, m.archived_at").
			Join("JOIN sessions AS s ON s.id = m.session_id")
		for i, tag := range tags {
			sel = tagFilter(sel, tag, typing && i == len(tags)-1)
		}
		if q.SessionID != "" {
			sel = sel.Where("m.session_id = ?", q.SessionID)
		}
		if cond, args := dateWhere(q, "m.created_at"); cond != "" {
			sel = sel.Where(cond, args...)
		}
		// Newest first by when a message was written, not stored: an
		// imported chat from 2023 is stored after today's messages (issue 22).
		if err := sel.OrderExpr("m.created_at DESC, m.id DESC").Limit(limit).Scan(ctx, &rows); err != nil {
			return nil, fmt.Errorf("search messages: %w", err)
		}
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

// hitRow is a hit as read from the database.
type hitRow struct {
	ID         int64      `bun:"id"`
	SessionID  string     `bun:"session_id"`
	Title      string     `bun:"title"`
	Role       string     `bun:"role"`
	Content    string     `bun:"content"`
	CreatedAt  time.Time  `bun:"created_at"`
	ArchivedAt *time.Time `bun:"archived_at"`
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
