package kb

import (
	"context"
	"os"
	"testing"
	"time"

	"playchat/backend/jatext"
	"playchat/backend/store"
)

// benchEnglishQueries are English questions about the corpus, beside the
// Japanese corpusQuestions (the corpus's code and names are English).
var benchEnglishQueries = []string{
	"ownership and borrowing rules", "computed property caching", "v-for key attribute",
	"lifetime annotation syntax", "push a value onto a Vec", "HashMap entry or_insert",
	"watch deep option", "slot props in a component", "async component loading",
	"Result and the question mark operator",
}

// benchQuery is one query of BenchmarkKBQuery and the MATCH expression
// kb search runs for it.
type benchQuery struct {
	q, expr string
}

// benchIndex returns the lexical and the hybrid service over the index of
// the benchmark tree, building it (and the fake server's embeddings) when
// missing.
func benchIndex(b *testing.B) (lex, hyb *fixture) {
	k := benchTree(b)
	ctx := context.Background()
	if _, err := os.Stat(k.dbPath()); err != nil {
		if err := jatext.Load(); err != nil {
			b.Fatal(err)
		}
		took := buildIndex(b, k.tree, k.dbPath(), k.docs)
		b.Logf("indexed %d documents in %v", k.docs, took.Round(time.Millisecond))
	}
	open := func(opts ...fixtureOpt) *fixture {
		db, err := store.Open(ctx, k.dbPath())
		if err != nil {
			b.Fatal(err)
		}
		set := &settingsBox{set: Settings{Dir: k.tree, TopK: 3, MinScore: 0.5}}
		o := Options{DB: db, Settings: set.get}
		for _, f := range opts {
			f(&o, &set.set)
		}
		svc, err := New(o)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() {
			svc.Close()
			db.Close()
		})
		return &fixture{svc: svc, db: db, dir: k.tree, set: set}
	}
	lex = open()
	client, srv := fakeEmbedder(b)
	hyb = open(withEmbedder(&resettingEmbedder{inner: client, reset: srv.Reset}, fakeModel))
	start := time.Now()
	n, err := hyb.svc.EmbedPending(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if n > 0 {
		b.Logf("embedded %d sections (fake server, dim 256) in %v", n, time.Since(start).Round(time.Millisecond))
	}
	return lex, hyb
}

// benchQueries returns the Japanese and English questions with the MATCH
// expression the lexical ranking runs for each (the same terms, picked by
// the same posting budget, or all of its common terms required when that
// ranking stands: commonTermsRanking); questions with no term are left out.
func benchQueries(b *testing.B, f *fixture) []benchQuery {
	ctx := context.Background()
	var qs []string
	for _, q := range corpusQuestions {
		qs = append(qs, q.Q)
	}
	qs = append(qs, benchEnglishQueries...)
	lx := f.svc.lexes[0]
	var out []benchQuery
	for _, q := range qs {
		terms, err := lx.terms(q)
		if err != nil {
			b.Fatal(err)
		}
		df, _, err := f.svc.termStats(ctx, f.db.Bun(), lx, terms)
		if err != nil {
			b.Fatal(err)
		}
		must := twoRarest(terms, df)
		keep := pickTerms(terms, df, postingBudget, must)
		mq := matchQuery{expr: matchExpr(terms, keep, lx.phrases), rows: postingsOf(terms, df, keep)}
		if mq.expr == "" {
			continue
		}
		// Common terms that enough documents hold together are ranked
		// by requiring them all (commonTermsExpr): the floor runs that.
		// When too few hold them together, the larger of the query's two
		// rankings is the one by the posting budget alone.
		conj, err := f.svc.commonTerms(ctx, f.db.Bun(), lx, terms, df, must)
		if err != nil {
			b.Fatal(err)
		}
		if conj.expr != "" {
			docs, _, err := f.svc.lexicalRanking(ctx, f.db.Bun(), lx, conj)
			if err != nil {
				b.Fatal(err)
			}
			mq = conj
			if len(docs) < minCommonTermsDocs {
				mq = budgetExpr(terms, df, lx.phrases, mq)
			}
		}
		expr := mq.expr
		out = append(out, benchQuery{q: q, expr: expr})
	}
	return out
}

// bareMatch runs the FTS5 MATCH alone: the BM25-ordered sections search
// reads (lexChunkLimit of them), every row scanned, nothing joined.
func bareMatch(b *testing.B, f *fixture, expr string) {
	lx := f.svc.lexes[0]
	rows, err := f.db.Bun().QueryContext(context.Background(), `SELECT rowid, -bm25(`+lx.table+`, `+bm25Weights+`) AS score
		FROM `+lx.table+` WHERE `+lx.table+` MATCH ? ORDER BY score DESC LIMIT ?`, expr, lexChunkLimit)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var score float64
		if err := rows.Scan(&id, &score); err != nil {
			b.Fatal(err)
		}
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkKBQuery measures kb search (Service.Search, 10 hits) over the
// index of the -kb.docs tree, lexical and hybrid (the fake server's
// embeddings; the query vector is cached after a warm-up round, so the
// embedder's own time is not in the figure), against a bare FTS5 MATCH of
// the same terms, query by query in the same run. Each iteration is one
// round over the Japanese and English questions. It reports the p50 and
// p95 of each in milliseconds and the ratios issue 29 bounds: lexical p50
// over the MATCH p50 (at most 3), lexical p95 over its p50 (at most 2),
// hybrid p50 over lexical p50 (at most 1.5).
func BenchmarkKBQuery(b *testing.B) {
	lex, hyb := benchIndex(b)
	qs := benchQueries(b, lex)
	ctx := context.Background()
	search := func(f *fixture, q string) time.Duration {
		start := time.Now()
		if _, err := f.svc.Search(ctx, q, 10); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	for _, q := range qs { // warm-up: page cache, query vectors, vectors in memory
		search(lex, q.q)
		search(hyb, q.q)
		bareMatch(b, lex, q.expr)
	}
	var tl, th, tm []time.Duration
	b.ResetTimer()
	for range b.N {
		for _, q := range qs {
			tl = append(tl, search(lex, q.q))
			th = append(th, search(hyb, q.q))
			start := time.Now()
			bareMatch(b, lex, q.expr)
			tm = append(tm, time.Since(start))
		}
	}
	b.StopTimer()
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	l50, l95 := percentile(tl, 0.5), percentile(tl, 0.95)
	h50, h95 := percentile(th, 0.5), percentile(th, 0.95)
	m50, m95 := percentile(tm, 0.5), percentile(tm, 0.95)
	b.ReportMetric(ms(l50), "lex-p50-ms")
	b.ReportMetric(ms(l95), "lex-p95-ms")
	b.ReportMetric(ms(h50), "hyb-p50-ms")
	b.ReportMetric(ms(h95), "hyb-p95-ms")
	b.ReportMetric(ms(m50), "match-p50-ms")
	b.ReportMetric(ms(m95), "match-p95-ms")
	b.ReportMetric(ms(l50)/ms(m50), "lex/match")
	b.ReportMetric(ms(l95)/ms(l50), "p95/p50")
	b.ReportMetric(ms(h95)/ms(h50), "hyb-p95/p50")
	b.ReportMetric(ms(h50)/ms(l50), "hyb/lex")
	b.ReportMetric(float64(len(qs)), "queries")
}
