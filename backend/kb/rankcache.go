package kb

import (
	"sync"
	"sync/atomic"
)

// rankCacheSize is how many BM25 rankings rankCache keeps: the context
// meter's preview of a draft, the turn that sends it, a regenerate, and a
// few searches.
const rankCacheSize = 16

// rankCache keeps the latest lexical rankings (lexicalRanking's result) by
// lexicon and MATCH expression until the index changes. A turn's layer 3
// runs the query the context meter's preview ran for the same draft a
// moment before, and a regenerate the query of the turn it replaces: the
// BM25 scoring of thousands of sections (most of a query's cost in a large
// knowledge base) is then done once. Safe for concurrent use.
type rankCache struct {
	// gen counts the index's changes; a ranking is kept with the gen it
	// was computed at and used only while gen is unchanged.
	gen atomic.Uint64

	mu    sync.Mutex
	byKey map[string]rankEntry
	order []string // keys, oldest first
	// df holds the section counts of terms (termStats) by lexicon table
	// and term, for dfGen.
	df    map[string]float64
	dfGen uint64
}

type rankEntry struct {
	gen    uint64
	docs   []lexDoc
	chunks map[int64]float64
}

// invalidate forgets every ranking: the index changed.
func (c *rankCache) invalidate() { c.gen.Add(1) }

// generation returns the index generation a ranking computed now belongs to.
func (c *rankCache) generation() uint64 { return c.gen.Load() }

// get returns the ranking for key computed at the current generation.
// Callers must not modify what it returns.
func (c *rankCache) get(key string) ([]lexDoc, map[int64]float64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok || e.gen != c.gen.Load() {
		return nil, nil, false
	}
	return e.docs, e.chunks, true
}

// put keeps a ranking computed at generation gen (taken before the query
// ran, so a change during the query makes it stale at once), evicting the
// oldest beyond rankCacheSize.
func (c *rankCache) put(key string, gen uint64, docs []lexDoc, chunks map[int64]float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		c.byKey = map[string]rankEntry{}
	}
	if _, ok := c.byKey[key]; !ok {
		c.order = append(c.order, key)
	}
	c.byKey[key] = rankEntry{gen: gen, docs: docs, chunks: chunks}
	for len(c.order) > rankCacheSize {
		delete(c.byKey, c.order[0])
		c.order = c.order[1:]
	}
}

// dfCacheMax bounds rankCache's term counts; past it they start over.
const dfCacheMax = 4096

// termDF returns the kept number of sections holding term in table, at the
// current generation.
func (c *rankCache) termDF(table, term string) (float64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dfGen != c.gen.Load() {
		return 0, false
	}
	d, ok := c.df[table+"\x00"+term]
	return d, ok
}

// putDF keeps the section counts df (by term) of table, read at
// generation gen; a term absent from df is kept as found in no section.
func (c *rankCache) putDF(table string, gen uint64, terms []string, df map[string]float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dfGen != gen || c.df == nil || len(c.df) > dfCacheMax {
		if gen != c.gen.Load() {
			return // the index changed meanwhile
		}
		c.df, c.dfGen = map[string]float64{}, gen
	}
	for _, t := range terms {
		c.df[table+"\x00"+t] = df[t]
	}
}
