package kb

// The terms a BM25 query searches for: their IDF, the posting budget that
// bounds a query's work, the terms it must keep, and the common-terms rule.

import (
	"context"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"playchat/backend/jatext"
)

// idfOf returns each term's inverse document frequency over sections,
// ln(1 + (N − df + 0.5)/(df + 0.5)) — the IDF of Okapi BM25 (Robertson and
// Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009).
func idfOf(terms []jatext.Term, df map[string]float64, n float64) map[string]float64 {
	out := make(map[string]float64, len(terms))
	for _, t := range terms {
		d := df[t.Key]
		out[t.Key] = math.Log(1 + (n-d+0.5)/(d+0.5))
	}
	return out
}

// postingBudget bounds the work of one BM25 query: FTS5 scores every section
// matching any term, and a term found in tens of thousands of sections
// (コンポーネント in a big Vue folder, 次 in almost any Japanese text) costs
// milliseconds while adding little to the ranking (its IDF is low). Terms
// are taken rarest first while their sections add up to at most this many;
// the terms a caller must have (see gateTerms and twoRarest) are taken
// whatever they cost. The dropped terms still count in the coverage gate and
// in choosing sections.
var postingBudget = 8000.0

// pickTerms marks the terms the MATCH expression uses: those must marks, and
// the others rarest first while the sections of all taken terms add up to
// at most budget. A term in no section costs nothing and is always taken.
func pickTerms(terms []jatext.Term, df map[string]float64, budget float64, must []bool) []bool {
	order := make([]int, len(terms))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return df[terms[order[a]].Key] < df[terms[order[b]].Key] })
	keep := make([]bool, len(terms))
	used := 0.0
	for i, t := range terms {
		if must[i] || df[t.Key] == 0 {
			keep[i] = true
			used += df[t.Key]
		}
	}
	for _, i := range order {
		if d := df[terms[i].Key]; !keep[i] && used+d <= budget {
			keep[i] = true
			used += d
		}
	}
	return keep
}

// minCommonTermsDocs is how many documents must hold all of a query's
// common terms (commonTermsExpr) for their ranking to stand; with fewer,
// the terms are searched for one by one after all.
const minCommonTermsDocs = 10

// commonTermsExpr returns the FTS5 expression that requires every term
// must marks (`"a" AND "b"`) when those terms are common — found in more
// than budget sections together — and "" otherwise. Scoring a section
// costs FTS5 a look-up of its size, so a query whose rarest terms are
// still common (子 and props at 200,000 documents: 67,000 sections) spent
// ~150 ms scoring sections that hold one of them only; requiring both
// scores only the sections holding both, a few hundred to a few thousand.
// This is the common-terms rule of Lucene and Elasticsearch ("Common
// terms query", cutoff_frequency with high_freq_operator "and": when
// every term is frequent, all of them must match). The cost of a query
// then grows with how often its words occur together, not with the
// collection's size.
func commonTermsExpr(terms []jatext.Term, df map[string]float64, must []bool, budget float64) string {
	var parts []string
	sum := 0.0
	for i, t := range terms {
		if must[i] {
			parts = append(parts, quoteFTS(t.Key))
			sum += df[t.Key]
		}
	}
	if len(parts) < 2 || sum <= budget {
		return ""
	}
	return strings.Join(parts, " AND ")
}

// commonTerms is commonTermsExpr narrowed until it matches at most the
// posting budget's sections: scoring is what costs (FTS5's bm25 looks up
// each matching section's size, ~2.7 µs a section), while counting the
// matches of a conjunction walks only its doclists (at 200,000 documents
// "子" AND "props" matches 8,986 sections: counted in 3 ms, ranked in 24).
// While the conjunction matches more than the budget, the query's next
// rarest term joins it, as long as at least lexChunkLimit sections still
// match (a narrower conjunction would rank too few). Counting is skipped
// when the must terms' rarest is within the budget, since no conjunction
// can then match more. Lucene's common-terms query likewise requires more
// of a query's frequent terms the more frequent they are
// (high_freq_operator "and"); here the budget sets how many.
func (s *Service) commonTerms(ctx context.Context, q querier, lx lexicon, terms []jatext.Term, df map[string]float64, must []bool) (matchQuery, error) {
	conj := commonTermsExpr(terms, df, must, postingBudget)
	if conj == "" {
		return matchQuery{}, nil
	}
	rarest := math.Inf(1)
	for i, t := range terms {
		if must[i] {
			rarest = min(rarest, df[t.Key])
		}
	}
	if rarest <= postingBudget {
		return matchQuery{expr: conj, rows: rarest}, nil
	}
	n, err := s.countMatches(ctx, q, lx, conj)
	if err != nil {
		return matchQuery{}, err
	}
	order := make([]int, 0, len(terms))
	for i, t := range terms {
		if !must[i] && df[t.Key] > 0 {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return df[terms[order[a]].Key] < df[terms[order[b]].Key] })
	for _, i := range order {
		if n <= postingBudget {
			break
		}
		next := conj + " AND " + quoteFTS(terms[i].Key)
		m, err := s.countMatches(ctx, q, lx, next)
		if err != nil {
			return matchQuery{}, err
		}
		if m < lexChunkLimit {
			break
		}
		conj, n = next, m
	}
	return matchQuery{expr: conj, rows: n}, nil
}

// countMatches is the number of sections matching the FTS5 expression
// expr, kept in the rank cache until the index changes.
func (s *Service) countMatches(ctx context.Context, q querier, lx lexicon, expr string) (float64, error) {
	key := "\x00count\x00" + expr
	if n, ok := s.ranks.termDF(lx.table, key); ok {
		return n, nil
	}
	gen := s.ranks.generation()
	var n float64
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM `+lx.table+` WHERE `+lx.table+` MATCH ?`, expr).Scan(&n); err != nil {
		return 0, err
	}
	s.ranks.putDF(lx.table, gen, []string{key}, map[string]float64{key: n})
	return n, nil
}

// commonTermsRanking is the ranking of a query whose must terms are
// common (conj, commonTermsExpr): the sections holding all of them, when at
// least minCommonTermsDocs documents do. When fewer do, those documents
// come first and the rest is ranked by rest — the query's terms chosen by
// the posting budget alone (budgetExpr), so the one-word matches of two
// common words that seldom meet are not all scored: at 200,000 documents
// "ビルド" OR "手順" scored 17,000 sections, 35–45 ms, three times a usual
// query. What it returns must not be modified (it may be cached).
func (s *Service) commonTermsRanking(ctx context.Context, q querier, lx lexicon, conj, rest matchQuery) ([]lexDoc, map[int64]float64, error) {
	docs, chunks, err := s.lexicalRanking(ctx, q, lx, conj)
	if err != nil || len(docs) >= minCommonTermsDocs {
		return docs, chunks, err
	}
	more, moreChunks, err := s.lexicalRanking(ctx, q, lx, rest)
	if err != nil {
		return nil, nil, err
	}
	out := slices.Clone(docs)
	seen := make(map[int64]bool, len(docs))
	for _, d := range docs {
		seen[d.docID] = true
	}
	for _, d := range more {
		if !seen[d.docID] && len(out) < fuseDepth {
			out = append(out, d)
		}
	}
	merged := maps.Clone(moreChunks)
	if merged == nil {
		merged = map[int64]float64{}
	}
	maps.Copy(merged, chunks) // a section holding every must term: its full score
	return out, merged, nil
}

// budgetExpr is the MATCH query of the terms the posting budget alone
// allows (no must terms), or fallback when it allows none.
func budgetExpr(terms []jatext.Term, df map[string]float64, phrases bool, fallback matchQuery) matchQuery {
	keep := pickTerms(terms, df, postingBudget, make([]bool, len(terms)))
	if e := matchExpr(terms, keep, phrases); e != "" {
		return matchQuery{expr: e, rows: postingsOf(terms, df, keep)}
	}
	return fallback
}

// matchQuery is an FTS5 MATCH expression and how many sections it can
// match at most — the sections BM25 scores for it: its terms' summed
// section counts, or a conjunction's counted matches (its rarest term's
// count when it was not counted).
type matchQuery struct {
	expr string
	rows float64
}

// postingsOf sums the section counts of the terms keep marks: at most the
// sections their OR matches (phrases of them match no more).
func postingsOf(terms []jatext.Term, df map[string]float64, keep []bool) float64 {
	sum := 0.0
	for i, t := range terms {
		if keep[i] {
			sum += df[t.Key]
		}
	}
	return sum
}

// twoRarest marks the two terms found in the fewest sections (ties in
// query order): what a search box ranks by whatever they cost, so a
// two-word query is never searched for one of its words alone.
func twoRarest(terms []jatext.Term, df map[string]float64) []bool {
	order := make([]int, 0, len(terms))
	for i, t := range terms {
		if df[t.Key] > 0 {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return df[terms[order[a]].Key] < df[terms[order[b]].Key] })
	must := make([]bool, len(terms))
	for _, i := range order[:min(2, len(order))] {
		must[i] = true
	}
	return must
}

// gateTerms marks the terms context layer 3 must search for so that no
// section able to pass its lexical gate is missed: a section passes only
// when its prose holds minEvidence of the question's evidence weight
// (sectionEvidence.matches), so it holds at least one of any set of terms
// whose weight is more than the rest (1 − minEvidence of the whole). The
// set is made of the heaviest terms found in the index (the rarest, verbs
// counting verbWeight), so it costs the fewest postings — the argument of
// MaxScore pruning (Turtle and Flood, "Query evaluation: strategies and
// optimizations", 1995). A common word (次, する) whose weight the rest
// already outweighs is then left to the posting budget: at 45,000
// documents "次の質問" no longer scores the 60,000 sections holding 次.
// Terms of no weight leave the choice to twoRarest.
func gateTerms(terms []jatext.Term, df map[string]float64, weight map[string]float64) []bool {
	w := func(t jatext.Term) float64 {
		x := weight[t.Key]
		if t.Verb {
			x *= verbWeight
		}
		return x
	}
	total := 0.0
	for _, t := range terms {
		total += w(t)
	}
	if total <= 0 {
		return twoRarest(terms, df)
	}
	order := make([]int, 0, len(terms))
	for i, t := range terms {
		if df[t.Key] > 0 {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return w(terms[order[a]]) > w(terms[order[b]]) })
	must := make([]bool, len(terms))
	// A term in no section is held by none: it cannot be the one a
	// passing section holds, so it does not count towards the set.
	need := total * (1 - minEvidence) * (1 + 1e-9)
	got := 0.0
	for _, i := range order {
		if got > need {
			break
		}
		must[i] = true
		got += w(terms[i])
	}
	return must
}
