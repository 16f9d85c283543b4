package kb

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestSplitRankingIsTheWholeRanking scores every corpus question's MATCH
// expressions (both lexicons) whole and in two halves of the section ids
// (splitRows at 0: every query split, as one matching thousands of
// sections is, issue 29) and requires the same sections with the same
// scores in the same order, and the same search results.
func TestSplitRankingIsTheWholeRanking(t *testing.T) {
	f := corpusFixture(t)
	ctx := context.Background()
	db := f.db.Bun()
	var lo, hi int64
	if err := db.QueryRowContext(ctx, `SELECT min(id), max(id) FROM local_knowledge_chunks`).Scan(&lo, &hi); err != nil {
		t.Fatal(err)
	}
	saved := splitRows
	t.Cleanup(func() { splitRows = saved })
	mid := lo + (hi-lo)/2
	compared, bothHalves := 0, 0
	for _, q := range append(slices.Clone(offTopicQuestions), questionTexts()...) {
		for _, lx := range f.svc.lexes {
			terms, err := lx.terms(q)
			if err != nil {
				t.Fatal(err)
			}
			df, _, err := f.svc.termStats(ctx, db, lx, terms)
			if err != nil {
				t.Fatal(err)
			}
			expr := matchExpr(terms, pickTerms(terms, df, postingBudget, twoRarest(terms, df)), lx.phrases)
			if expr == "" {
				continue
			}
			splitRows = math.Inf(1)
			whole, err := topSections(ctx, db, lx, matchQuery{expr: expr})
			if err != nil {
				t.Fatal(err)
			}
			splitRows = 0
			split, err := topSections(ctx, db, lx, matchQuery{expr: expr})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(whole, split) {
				t.Errorf("%s %q: split ranking differs:\nwhole %v\nsplit %v", lx.name, expr, head(whole), head(split))
			}
			compared++
			if slices.ContainsFunc(whole, func(d lexDoc) bool { return d.bestChunk <= mid }) &&
				slices.ContainsFunc(whole, func(d lexDoc) bool { return d.bestChunk > mid }) {
				bothHalves++
			}
		}
	}
	t.Logf("compared %d rankings, %d with sections in both halves", compared, bothHalves)
	// The comparison means something only when rankings draw on both halves.
	if compared < 40 || bothHalves < compared/2 {
		t.Fatalf("compared %d rankings, %d with sections in both halves", compared, bothHalves)
	}
	// And what kb search answers does not change either.
	splitRows = math.Inf(1)
	var whole [][]string
	for _, q := range questionTexts() {
		whole = append(whole, f.searchPaths(t, q, 10))
	}
	splitRows = 0
	f.svc.ranks.invalidate()
	for i, q := range questionTexts() {
		if got := f.searchPaths(t, q, 10); !slices.Equal(got, whole[i]) {
			t.Errorf("%q: split search %v, whole %v", q, got, whole[i])
		}
	}
}

func questionTexts() []string {
	var qs []string
	for _, q := range corpusQuestions {
		qs = append(qs, q.Q)
	}
	return qs
}

func head(secs []lexDoc) []lexDoc { return secs[:min(len(secs), 5)] }

// TestSectionSpanReadsTheEnds checks that the span every large query reads
// first costs two index lookups, not a scan of every section.
func TestSectionSpanReadsTheEnds(t *testing.T) {
	f := corpusFixture(t)
	rows, err := f.db.Bun().QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+sectionSpanSQL)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	joined := strings.Join(plan, "; ")
	if strings.Contains(joined, "SCAN local_knowledge_chunks") || strings.Count(joined, "SEARCH local_knowledge_chunks") != 2 {
		t.Errorf("the section span query's plan is %q: want two index searches", joined)
	}
}
