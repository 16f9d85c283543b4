package chat

import (
	"sync"

	"playchat/backend/tokens"
)

// Every turn and every preview of the context meter (one per pause in
// typing) counts the tokens of the whole history again; a long message
// (up to 1 MiB, ~300,000 tokens) takes a real tokenizer about a third of a
// second each time. countCache remembers the counts of long texts.

// cachedCountBytes is the shortest text whose count is remembered.
const cachedCountBytes = 8 << 10

// The cache holds at most this many counts of texts of at most this many
// bytes together (it keeps the texts alive: strings are not copied).
const (
	countCacheEntries = 256
	countCacheBytes   = 32 << 20
)

type countKey struct{ tokenizer, text string }

// countCache is a bounded first-in-first-out cache of token counts, safe
// for concurrent use.
type countCache struct {
	mu    sync.Mutex
	n     map[countKey]int
	order []countKey
	bytes int
}

func newCountCache() *countCache { return &countCache{n: map[countKey]int{}} }

// wrap returns c counting through the cache.
func (cc *countCache) wrap(c tokens.Counter) tokens.Counter { return cachedCounter{c, cc} }

type cachedCounter struct {
	tokens.Counter
	cache *countCache
}

// Count returns the wrapped counter's count, remembered for long texts.
func (c cachedCounter) Count(text string) int {
	if len(text) < cachedCountBytes {
		return c.Counter.Count(text)
	}
	k := countKey{c.Name(), text}
	c.cache.mu.Lock()
	n, ok := c.cache.n[k]
	c.cache.mu.Unlock()
	if ok {
		return n
	}
	n = c.Counter.Count(text)
	c.cache.put(k, n)
	return n
}

func (cc *countCache) put(k countKey, n int) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if _, ok := cc.n[k]; ok {
		return
	}
	cc.n[k] = n
	cc.order = append(cc.order, k)
	cc.bytes += len(k.text)
	for len(cc.order) > countCacheEntries || cc.bytes > countCacheBytes {
		old := cc.order[0]
		cc.order = cc.order[1:]
		cc.bytes -= len(old.text)
		delete(cc.n, old)
	}
}
