package kb

import (
	"cmp"
	"context"
	"slices"

	"github.com/uptrace/bun"
)

// splitRows is the number of sections a query may match (matchQuery's
// rows) from which topSections scores the two halves of the section ids
// side by side, each on a connection of its own (issue 29). FTS5 computes
// BM25 for every section a query matches (its term frequencies and the
// section's length: about 2 µs each on this 2-core machine), so a query
// matching 8,000 sections of a 200,000-document knowledge base spends
// most of its 25 ms there, and the halves share that on both cores. Only
// the tail splits: 6,000 sections are about 12 ms of scoring, and a usual
// query, matching far fewer, runs whole. Measured at 200,000 documents
// (BenchmarkKBQuery, same runs): lexical p95 27 → 22 ms, p95/p50 1.80 →
// 1.47–1.55, the p50 as it was. At 4,000 the median query split too: the
// lexical p50 fell about 10 % while the hybrid, whose scan already has the
// second core, did not, and hybrid/lexical rose to 1.3–1.5.
var splitRows = 6000.0

// secondCoreBusyKey marks a context whose retrieval runs the semantic
// scan beside its lexical queries.
type secondCoreBusyKey struct{}

// sectionSpanSQL reads the smallest and the largest section id (0, 0 when
// there is none). Two subqueries: SQLite reads a min() or a max() alone
// off the primary key's ends, but scans the whole table for both in one
// SELECT (30 ms at 325,000 sections).
const sectionSpanSQL = `SELECT ifnull((SELECT min(id) FROM local_knowledge_chunks), 0),
	ifnull((SELECT max(id) FROM local_knowledge_chunks), 0)`

// topSections returns the lexChunkLimit sections of lx that BM25 ranks
// best for mq's expression, best first (lexDoc with bestChunk the section, best its
// score), ties by section id. A split query returns the same sections as
// a whole one: FTS5's BM25 takes its statistics (section count, average
// length, each term's section count) from the whole index whatever rowid
// range is asked for, so the best of the halves' bests are the best of
// all. Only a connection pool (*bun.DB) runs the halves at once; a single
// connection or a transaction runs the query whole, and so does a hybrid
// retrieval, whose semantic scan has the second core (secondCoreBusyKey:
// measured at 200,000 documents, splitting there left the hybrid p50 as
// it was or slower).
func topSections(ctx context.Context, q querier, lx lexicon, mq matchQuery) ([]lexDoc, error) {
	if db, ok := q.(*bun.DB); ok && mq.rows >= splitRows && ctx.Value(secondCoreBusyKey{}) == nil {
		var lo, hi int64
		if err := db.QueryRowContext(ctx, sectionSpanSQL).Scan(&lo, &hi); err != nil {
			return nil, err
		}
		if hi > lo {
			return splitTopSections(ctx, db, lx, mq.expr, lo, hi)
		}
	}
	secs, err := querySections(ctx, q, lx, mq.expr, "")
	if err != nil {
		return nil, err
	}
	sortSections(secs)
	return secs, nil
}

// splitTopSections is topSections over the ids [lo, mid] and (mid, hi],
// the upper half on a goroutine of its own.
func splitTopSections(ctx context.Context, db *bun.DB, lx lexicon, expr string, lo, hi int64) ([]lexDoc, error) {
	mid := lo + (hi-lo)/2
	type half struct {
		secs []lexDoc
		err  error
	}
	upper := make(chan half, 1)
	go func() {
		secs, err := querySections(ctx, db, lx, expr, " AND rowid > ?", mid)
		upper <- half{secs, err}
	}()
	secs, err := querySections(ctx, db, lx, expr, " AND rowid <= ?", mid)
	up := <-upper
	if err == nil {
		err = up.err
	}
	if err != nil {
		return nil, err
	}
	secs = append(secs, up.secs...)
	sortSections(secs)
	return secs[:min(len(secs), lexChunkLimit)], nil
}

// querySections runs the BM25 query of expr over lx with an extra WHERE
// clause (a rowid range) and its arguments: at most lexChunkLimit
// sections, best first, with their documents.
func querySections(ctx context.Context, q querier, lx lexicon, expr, where string, args ...any) ([]lexDoc, error) {
	rows, err := q.QueryContext(ctx, `SELECT c.doc_id, f.id, f.score FROM
		(SELECT rowid AS id, -bm25(`+lx.table+`, `+bm25Weights+`) AS score FROM `+lx.table+`
		 WHERE `+lx.table+` MATCH ?`+where+` ORDER BY score DESC LIMIT ?) f
		JOIN local_knowledge_chunks c ON c.id = f.id`, append(append([]any{expr}, args...), lexChunkLimit)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	secs := make([]lexDoc, 0, lexChunkLimit)
	for rows.Next() {
		var d lexDoc
		if err := rows.Scan(&d.docID, &d.bestChunk, &d.best); err != nil {
			return nil, err
		}
		secs = append(secs, d)
	}
	return secs, rows.Err()
}

// sortSections orders sections best first, ties by section id.
func sortSections(secs []lexDoc) {
	slices.SortFunc(secs, func(a, b lexDoc) int {
		switch {
		case a.best > b.best:
			return -1
		case a.best < b.best:
			return 1
		}
		return cmp.Compare(a.bestChunk, b.bestChunk)
	})
}
