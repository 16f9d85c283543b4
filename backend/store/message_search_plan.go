package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/uptrace/bun"
)

// How a text search finds its hits without sorting every match (issue 29).
//
// Hits come newest first by created_at, but the full-text index walks
// matches by rowid (message id). Ids follow created_at almost always (an
// import of old chats is the exception), so matchIDs first takes the
// newest limit matches by id, which FTS5 reads without touching the rest.
// Any other match that belongs among the hits must be written no earlier
// than the oldest of those (T) and have a smaller id: ix_messages_created
// lists such messages ("stragglers") when fewer than stragglerScan
// messages were written since T, and the index checks only those. When
// more were (a word with few matches spread over years), the search sorts
// every match by date as before, which is then cheap. A date range with an
// end that covers fewer than stragglerScan messages also becomes bounds on
// ids, so a common word in an old month seeks there instead of walking
// every newer match. The result is the same as sorting every match
// (TestSearchPlanGivesTheHitsOfSortingEveryMatch).

// stragglerScan is the most ix_messages_created (or ix_messages_session)
// entries a search reads to bound its candidates or look for stragglers
// (about 3 ms at 50,000); a variable so tests can make it small.
var stragglerScan = 50000

// jsonIDs encodes ids for json_each (never "null").
func jsonIDs(ids []int64) string {
	if len(ids) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(ids)
	return string(b)
}

// dateWhere returns the SQL condition and arguments of q's date range on
// column ("" when it has none).
func dateWhere(q MessageSearch, column string) (string, []any) {
	var conds []string
	var args []any
	if !q.From.IsZero() {
		conds = append(conds, column+" >= ?")
		args = append(args, q.From.UTC())
	}
	if !q.To.IsZero() {
		conds = append(conds, column+" < ?")
		args = append(args, q.To.UTC())
	}
	return strings.Join(conds, " AND "), args
}

// idBounds returns the smallest and largest id that a hit of q can have,
// from its session and its date range (when the range has an end and
// covers fewer than stragglerScan messages); ok is false when no message
// can match.
func (d *DB) idBounds(ctx context.Context, q MessageSearch) (lo, hi sql.NullInt64, ok bool, err error) {
	if q.SessionID != "" {
		// The bounds of the session's ids let FTS5 seek to its messages
		// instead of walking every newer match of the word.
		if err := d.bun.QueryRowContext(ctx, `SELECT min(id), max(id) FROM messages WHERE session_id = ?`, q.SessionID).Scan(&lo, &hi); err != nil {
			return lo, hi, false, err
		}
		if !lo.Valid {
			return lo, hi, false, nil
		}
	}
	// Only a range with an end keeps the newest matches out: one open
	// towards today finds its hits where the walk starts.
	if cond, args := dateWhere(q, "created_at"); cond != "" && !q.To.IsZero() {
		var n int
		var dlo, dhi sql.NullInt64
		err := d.bun.QueryRowContext(ctx, `SELECT count(*), min(id), max(id) FROM (SELECT id FROM messages
			INDEXED BY ix_messages_created WHERE `+cond+` LIMIT ?)`, append(args, stragglerScan+1)...).Scan(&n, &dlo, &dhi)
		if err != nil {
			return lo, hi, false, err
		}
		if n == 0 {
			return lo, hi, false, nil
		}
		if n <= stragglerScan {
			if !lo.Valid || dlo.Int64 > lo.Int64 {
				lo = dlo
			}
			if !hi.Valid || dhi.Int64 < hi.Int64 {
				hi = dhi
			}
		}
	}
	return lo, hi, !lo.Valid || !hi.Valid || lo.Int64 <= hi.Int64, nil
}

// matchIDs returns the ids of the hits of a text search (expr, an FTS5
// expression, with q's filters and tags): the newest limit of them by
// created_at, then id, possibly with a few more (the caller orders and
// cuts).
func (d *DB) matchIDs(ctx context.Context, q MessageSearch, expr string, tags []string, typing bool, limit int) ([]int64, error) {
	lo, hi, ok, err := d.idBounds(ctx, q)
	if err != nil || !ok {
		return nil, err
	}
	base := func() *bun.SelectQuery {
		sel := d.bun.NewSelect().TableExpr("message_fts AS f").ColumnExpr("m.id").
			// CROSS JOIN keeps the index as the outer loop: SQLite would
			// otherwise walk a session's messages and run the MATCH once
			// per message.
			Join("CROSS JOIN messages AS m ON m.id = f.rowid").
			Join("JOIN sessions AS s ON s.id = m.session_id").
			Where("message_fts MATCH ?", expr)
		for i, tag := range tags {
			sel = tagFilter(sel, tag, typing && i == len(tags)-1)
		}
		if q.SessionID != "" {
			sel = sel.Where("m.session_id = ?", q.SessionID)
		}
		if cond, args := dateWhere(q, "m.created_at"); cond != "" {
			sel = sel.Where(cond, args...)
		}
		if lo.Valid {
			sel = sel.Where("f.rowid >= ?", lo.Int64)
		}
		if hi.Valid {
			sel = sel.Where("f.rowid <= ?", hi.Int64)
		}
		return sel
	}
	var ids []int64
	if err := base().OrderExpr("f.rowid DESC").Limit(limit).Scan(ctx, &ids); err != nil {
		return nil, err
	}
	if len(ids) < limit {
		return ids, nil // every match
	}
	// T: the oldest of the candidates.
	var oldest int64
	if err := d.bun.QueryRowContext(ctx, `SELECT id FROM messages WHERE id IN (SELECT value FROM json_each(?))
		ORDER BY created_at, id LIMIT 1`, jsonIDs(ids)).Scan(&oldest); err != nil {
		return nil, err
	}
	below := ids[len(ids)-1]
	cond, args := dateWhere(q, "created_at")
	if cond != "" {
		cond = " AND " + cond
	}
	// One walk of at most stragglerScan entries counts them and lists the
	// stragglers among them.
	var scan string
	var scanArgs []any
	if q.SessionID != "" {
		scan = `SELECT count(*), json_group_array(id) FILTER (WHERE late) FROM (
			SELECT id, created_at >= (SELECT created_at FROM messages WHERE id = ?)` + cond + ` AS late
			FROM messages WHERE session_id = ? AND id < ? LIMIT ?)`
		scanArgs = append(append([]any{oldest}, args...), q.SessionID, below, stragglerScan+1)
	} else {
		scan = `SELECT count(*), json_group_array(id) FILTER (WHERE id < ?) FROM (
			SELECT id FROM messages INDEXED BY ix_messages_created
			WHERE created_at >= (SELECT created_at FROM messages WHERE id = ?)` + cond + ` LIMIT ?)`
		scanArgs = append(append([]any{below, oldest}, args...), stragglerScan+1)
	}
	var n int
	var list string
	if err := d.bun.QueryRowContext(ctx, scan, scanArgs...).Scan(&n, &list); err != nil {
		return nil, err
	}
	if n > stragglerScan {
		// Matches spread thinly over time: sort them all by date.
		ids = ids[:0]
		err := base().OrderExpr("m.created_at DESC, m.id DESC").Limit(limit).Scan(ctx, &ids)
		return ids, err
	}
	var stragglers []int64
	if err := json.Unmarshal([]byte(list), &stragglers); err != nil {
		return nil, err
	}
	if len(stragglers) == 0 {
		return ids, nil
	}
	var more []int64
	if err := base().Where("f.rowid IN (SELECT value FROM json_each(?))", jsonIDs(stragglers)).Scan(ctx, &more); err != nil {
		return nil, err
	}
	return append(ids, more...), nil
}

// hitRows reads the messages of ids with their session titles, newest
// first by created_at, then id, at most limit.
func (d *DB) hitRows(ctx context.Context, ids []int64, limit int) ([]hitRow, error) {
	rows := []hitRow{}
	if len(ids) == 0 {
		return rows, nil
	}
	err := d.bun.NewSelect().TableExpr("messages AS m").
		ColumnExpr("m.id, m.session_id, s.title, m.role, m.content, m.created_at, m.archived_at").
		Join("JOIN sessions AS s ON s.id = m.session_id").
		Where("m.id IN (SELECT value FROM json_each(?))", jsonIDs(ids)).
		OrderExpr("m.created_at DESC, m.id DESC").Limit(limit).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("search messages: %w", err)
	}
	return rows, nil
}
