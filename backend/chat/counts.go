package chat

import (
	"sync"

	"playchat/backend/tokens"
)

// Every turn and every preview of the context meter (one per pause in
// typing) counts the tokens of the whole history again; a long message
// (up to 1 MiB, ~300,000 tokens) takes a real tokenizer about a third of a
// second each time. countCache remembers the counts of long texts, and
// with a real tokenizer those of every history message but the shortest:
// a turn in a chat of 2,000 active messages counts them all, and only the
// newest two changed since the previous turn (issue 29).

// cachedCountBytes is the shortest text whose count is remembered; the
// estimate (tokens.Estimate, a pass over the bytes) is cheaper to redo
// than to look up below it.
const cachedCountBytes = 8 << 10

// cachedBPECountBytes is the shortest text whose count by a real tokenizer
// (o200k_base, cl100k_base: a BPE encoding, tens of microseconds for a
// short message) is remembered.
const cachedBPECountBytes = 128

// The cache holds at most this many counts of texts of at most this many
// bytes together (it keeps the texts alive: strings are not copied): the
// history of a few long chats.
const (
	countCacheEntries = 16384
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

// Count returns the wrapped counter's count, remembered for long texts
// (cachedCountBytes; cachedBPECountBytes with a real tokenizer).
func (c cachedCounter) Count(text string) int {
	if len(text) < cachedBPECountBytes || (len(text) < cachedCountBytes && c.Name() == tokens.Estimate.Name()) {
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
