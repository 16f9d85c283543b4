package kb

import (
	"slices"
	"sync"
	"sync/atomic"

	"playchat/backend/layer"
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
// knowledge base) is then done once. It also keeps layer 3's whole block
// for a message (blocks), so the turn that sends a previewed draft reads
// no section and counts no token for it again. Safe for concurrent use.
type rankCache struct {
	// gen counts the index's changes; a ranking is kept with the gen it
	// was computed at and used only while gen is unchanged.
	gen atomic.Uint64

	rankings genCache[ranking]
	blocks   genCache[layer.Block]

	mu sync.Mutex
	// df holds the section counts of terms (termStats) by lexicon table
	// and term, for dfGen.
	df    map[string]float64
	dfGen uint64
}

// ranking is one lexicalRanking result.
type ranking struct {
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
	r, ok := c.rankings.get(key, c.gen.Load())
	return r.docs, r.chunks, ok
}

// put keeps a ranking computed at generation gen (taken before the query
// ran, so a change during the query makes it stale at once), evicting the
// oldest beyond rankCacheSize.
func (c *rankCache) put(key string, gen uint64, docs []lexDoc, chunks map[int64]float64) {
	c.rankings.put(key, gen, ranking{docs, chunks})
}

// block returns layer 3's block kept for key at the current generation,
// as a copy the caller may change.
func (c *rankCache) block(key string) (layer.Block, bool) {
	b, ok := c.blocks.get(key, c.gen.Load())
	b.Items = slices.Clone(b.Items)
	b.LeftOut = slices.Clone(b.LeftOut)
	return b, ok
}

// putBlock keeps layer 3's block for key, built at generation gen.
func (c *rankCache) putBlock(key string, gen uint64, b layer.Block) {
	b.Items = slices.Clone(b.Items)
	b.LeftOut = slices.Clone(b.LeftOut)
	c.blocks.put(key, gen, b)
}

// genCache keeps up to rankCacheSize values by key, each with the index
// generation it was computed at, the oldest evicted first. Safe for
// concurrent use.
type genCache[T any] struct {
	mu    sync.Mutex
	byKey map[string]genEntry[T]
	order []string // keys, oldest first
}

type genEntry[T any] struct {
	gen uint64
	v   T
}

// get returns the value kept for key if it was computed at generation gen.
func (c *genCache[T]) get(key string, gen uint64) (T, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok || e.gen != gen {
		var zero T
		return zero, false
	}
	return e.v, true
}

// put keeps v for key, computed at generation gen.
func (c *genCache[T]) put(key string, gen uint64, v T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		c.byKey = map[string]genEntry[T]{}
	}
	if _, ok := c.byKey[key]; !ok {
		c.order = append(c.order, key)
	}
	c.byKey[key] = genEntry[T]{gen: gen, v: v}
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
