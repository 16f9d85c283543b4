package tagging

import (
	"context"
	"slices"
	"sync"

	"playchat/backend/jatext"
	"playchat/backend/store"
)

// PoolSize is how many nouns the word pool keeps (the seed's
// deque(maxlen=200)), and how many recent messages re-seed it at start.
const PoolSize = 200

// WordPool holds the most recent nouns of the conversation (jatext.Nouns,
// kagome with the shared IPA dictionary) in memory, oldest dropped first.
// It is never stored: Reseed rebuilds it from the newest messages (the
// Service does so when the pool is first needed after start, not at
// start-up: the dictionary costs 0.5 s and 90 MiB to load, see jatext).
// Safe for concurrent use.
type WordPool struct {
	mu    sync.Mutex
	words []string // ring buffer of at most size words
	next  int      // where the next word goes once the ring is full
	size  int
	upTo  int64 // the newest message id Reseed read (FeedMessage skips those)
}

// NewWordPool returns an empty pool keeping the last size nouns (size ≤ 0
// means PoolSize).
func NewWordPool(size int) *WordPool {
	if size <= 0 {
		size = PoolSize
	}
	return &WordPool{size: size}
}

// Add appends words, dropping the oldest beyond the pool's size.
func (p *WordPool) Add(words ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, w := range words {
		if len(p.words) < p.size {
			p.words = append(p.words, w)
			continue
		}
		p.words[p.next] = w
		p.next = (p.next + 1) % p.size
	}
}

// Feed adds the nouns of text. Its only error is the dictionary's.
func (p *WordPool) Feed(text string) error {
	nouns, err := jatext.Nouns(text)
	if err != nil {
		return err
	}
	p.Add(nouns...)
	return nil
}

// FeedMessage adds the nouns of m unless the last Reseed already read it.
// Its only error is the dictionary's.
func (p *WordPool) FeedMessage(m store.Message) error {
	p.mu.Lock()
	seen := m.ID <= p.upTo
	p.mu.Unlock()
	if seen {
		return nil
	}
	return p.Feed(m.Content)
}

// Words returns the pool's nouns, oldest first (repeats kept: a word said
// often counts more).
func (p *WordPool) Words() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.words) < p.size {
		return slices.Clone(p.words)
	}
	return append(slices.Clone(p.words[p.next:]), p.words[:p.next]...)
}

// Len returns how many nouns the pool holds.
func (p *WordPool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.words)
}

// Reseed empties the pool and feeds it the newest PoolSize user and
// assistant messages of the sessions sessionIDs (none: the pool stays
// empty), oldest first, so it holds the last nouns of their recent talk.
// Its errors are the database's and the dictionary's.
func (p *WordPool) Reseed(ctx context.Context, db *store.DB, sessionIDs []string) error {
	ms, err := db.RecentMessages(ctx, PoolSize, sessionIDs)
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.words, p.next, p.upTo = nil, 0, 0
	if len(ms) > 0 {
		p.upTo = ms[0].ID
	}
	p.mu.Unlock()
	for i := len(ms) - 1; i >= 0; i-- {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := p.Feed(ms[i].Content); err != nil {
			return err
		}
	}
	return nil
}
